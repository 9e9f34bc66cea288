import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { consoleWords } from '@/lib/page/console';
import { channelSettingsView } from '@/lib/operator/channel-procedures';
import { env, PAYMENT_PROVIDER_NAMES } from '@/lib/env';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { ChannelSettings } from '@/components/ops/channel-settings';
import { chanWords, fieldWords } from '@/components/ops/channel-words';
import { buyerRulesWords } from '@/components/ops/buyer-rules-words';
import { wechatWords } from '@/components/ops/wechat-words';
import type { Metadata } from 'next';

type Props = { params: Promise<ConsoleChannelParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await consoleWords(params);
  const { key } = await params;
  return { title: `${t('ops.channel.tab.settings')} · ${key}` };
}

/** Every field a section of the tab saves, for the refusals to find their field. */
const FIELDS = [
  'name',
  // issue 36: the gifting section's holding period.
  'holdingHours',
  // issue 36: the WeChat share card's official account.
  'wechatAppId',
  'brandName',
  'locale',
  'timeZone',
  'labels',
  'attributes',
  'appScheme',
  'appDownloadUrl',
  'marketText',
  'buyText',
  'exchangeText',
  'privacyText',
  'salesStrategyText',
  'phone',
  'hours',
  'email',
  'url',
  'smsSignName',
  'smsTemplateId',
  'paymentProviders',
  'icpFiling',
  'publicSecurityFiling',
  'blockchainFiling',
  // The buyer rules (issue 33).
  'realName',
  'minAge',
  'blindBoxMinAge',
  'unpaid',
  'unpaid.limit',
  'unpaid.withinHours',
  'unpaid.blockHours',
  'captcha',
];

const PROVIDER_WORD = { sandbox: 'providerSandbox', wechatpay: 'providerWechatpay', alipay: 'providerAlipay' } as const;

/**
 * A channel's Settings tab (issue 31): an owner or a granted manager edits it section by section; support reads it
 * with the controls disabled and no save buttons (the procedures refuse support's writes all the same).
 */
export default async function ChannelSettingsPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const running: readonly string[] = env().PAYMENT_PROVIDERS;
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="settings" />
      <ChannelSettings
        view={channelSettingsView(channel)}
        words={chanWords(t)}
        fieldWords={fieldWords(t, FIELDS)}
        locale={locale}
        readOnly={operator.role === 'support'}
        ruleWords={buyerRulesWords(t)}
        wechatWords={wechatWords(t)}
        labelChoices={([1, 2, 3, 4] as const).map((l) => ({ value: String(l), label: `${l} · ${t(`ops.label.l${l}`)}` }))}
        providers={PAYMENT_PROVIDER_NAMES.map((name) => {
          const label = t(`ops.chan.${PROVIDER_WORD[name]}`);
          return {
            name,
            label,
            up: t('ops.chan.moveUp', { provider: label }),
            down: t('ops.chan.moveDown', { provider: label }),
            run: running.includes(name),
          };
        })}
      />
    </ConsoleShell>
  );
}
