import { getDb } from '@/lib/db/client';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { blocklistOf } from '@/lib/buyer/blocklist';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { BlocklistPanel } from '@/components/ops/blocklist-panel';

type Props = { params: Promise<ConsoleChannelParams> };

export const generateMetadata = consoleTitled((t) => t('ops.blocklist.title'));

/**
 * A channel's Buyers tab (issue 33, "Blocklists managed by operators"): the one blocklist of the channel, every live
 * block of every kind (buyer, identity, phone, address range) with what it stops masked as the server wrote it (a
 * phone 138****1234, a person 张* 1101**********1234, never an identity's hash), why, by whom and when in the
 * channel's zone; owners and managers lift any of them and add a phone number or an address range (an identity is
 * blocked from a verified buyer's page). Support reads.
 */
export default async function BuyersPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const zone = channel.timeZone || 'UTC';
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: channel.timeZone || undefined });
  const rows = (await blocklistOf(getDb(), channel.id)).map((entry) => ({ ...entry, at: when.format(entry.at) }));
  const canWrite = operator.role === 'owner' || operator.role === 'manager';
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="buyers" />
      <h2 className="text-xl font-semibold text-gray-900">{t('ops.blocklist.title')}</h2>
      <p className="mt-2 mb-4 max-w-3xl text-sm text-gray-700">{t('ops.blocklist.intro')}</p>
      {canWrite ? null : <p className="mb-4 rounded-md bg-gray-100 px-4 py-3 text-sm text-gray-700">{t('ops.blocklist.readOnly')}</p>}
      <BlocklistPanel
        locale={locale}
        channel={channel.key}
        rows={rows}
        canWrite={canWrite}
        isOwner={operator.role === 'owner'}
        words={{
          empty: t('ops.blocklist.empty'),
          kind: t('ops.blocklist.kind'),
          what: t('ops.blocklist.what'),
          reason: t('ops.blocklist.reason'),
          by: t('ops.blocklist.by'),
          at: t('ops.blocklist.at', { zone }),
          lift: t('ops.blocklist.lift'),
          liftReason: t('ops.blocklist.liftReason'),
          liftConfirm: t('ops.blocklist.liftConfirm'),
          everyChannel: t('ops.blocklist.everyChannel'),
          kinds: {
            buyer: t('ops.blocklist.kinds.buyer'),
            identity: t('ops.blocklist.kinds.identity'),
            phone: t('ops.blocklist.kinds.phone'),
            cidr: t('ops.blocklist.kinds.cidr'),
          },
          addTitle: t('ops.blocklist.addTitle'),
          addKind: t('ops.blocklist.addKind'),
          addPhone: t('ops.blocklist.addPhone'),
          addRange: t('ops.blocklist.addRange'),
          phone: t('ops.blocklist.phone'),
          phoneHint: t('ops.blocklist.phoneHint'),
          range: t('ops.blocklist.range'),
          rangeHint: t('ops.blocklist.rangeHint'),
          addReason: t('ops.blocklist.addReason'),
          addReasonHint: t('ops.blocklist.addReasonHint'),
          addEveryChannel: t('ops.blocklist.addEveryChannel'),
          add: t('ops.blocklist.add'),
          failed: t('ops.failed'),
        }}
      />
    </ConsoleShell>
  );
}
