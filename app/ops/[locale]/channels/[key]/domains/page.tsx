import { getDb } from '@/lib/db/client';
import { domainSettings, listDomains, publicHostOf, type DomainView } from '@/lib/channel/domains';
import { hostnameOf } from '@/lib/security/domain-name';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import type { Translator } from '@/lib/i18n/translator';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { DomainPanel, type DomainPanelWords, type DomainRow } from '@/components/ops/domain-panel';

type Props = { params: Promise<ConsoleChannelParams> };

export const generateMetadata = consoleTitled((t) => t('ops.channel.tab.domains'));

/**
 * A channel's Domains tab (issue 31, "Domains"; docs/operators.md, "Adding a domain"): its key host and every custom
 * domain with its status, the reason a check failed, when it was last checked, which host is primary, an alert for a
 * verified domain failing its re-check within the grace period, and the DNS records to set. Owners and the channel's
 * managers add, verify, make primary and remove; support reads. Times are written here, in the operator's language
 * and the deployment's zone, so the browser's render matches the server's.
 */
export default async function DomainsPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const settings = domainSettings();
  const now = new Date();
  const db = getDb();
  const [domains, primary] = await Promise.all([listDomains(db, channel.key, settings, now), publicHostOf(db, channel, settings, now)]);
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: channel.timeZone || undefined });
  const at = (d: Date | null) => (d ? when.format(d) : null);
  const keyHost = hostnameOf(channel.host);
  const rows: DomainRow[] = domains.map((d) => toRow(d, t, at));
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="domains" />
      <DomainPanel
        locale={locale}
        channel={channel.key}
        keyHost={keyHost}
        keyIsPrimary={primary === keyHost}
        rows={rows}
        canWrite={operator.role === 'owner' || operator.role === 'manager'}
        words={panelWords(t)}
      />
    </ConsoleShell>
  );
}

function toRow(d: DomainView, t: Translator, at: (d: Date | null) => string | null): DomainRow {
  return {
    host: d.host,
    status: d.status,
    statusText: t(`ops.domains.state.${d.status}`),
    problemText: d.problem ? t(`ops.domains.problem.${d.problem}`) : null,
    isPrimary: d.isPrimary,
    served: d.served,
    preexisting: d.preexisting,
    lastChecked: at(d.lastCheckedAt),
    graceAlert: d.servedUntil ? t('ops.domains.graceAlert', { host: d.host, until: at(d.servedUntil) ?? '' }) : null,
    records: d.status === 'pending' || d.status === 'misconfigured' ? d.records : [],
    recordsTitle: t('ops.domains.recordsTitle', { host: d.host }),
    confirmRemove: t('ops.domains.confirmRemove', { host: d.host }),
  };
}

function panelWords(t: Translator): DomainPanelWords {
  const keys = [
    'intro',
    'host',
    'status',
    'lastChecked',
    'actions',
    'never',
    'keyHost',
    'keyHostHint',
    'primary',
    'preexisting',
    'addTitle',
    'addLabel',
    'addHint',
    'add',
    'adding',
    'recordsIntro',
    'recordType',
    'recordName',
    'recordValue',
    'points',
    'ownership',
    'copy',
    'copied',
    'verify',
    'verifying',
    'makePrimary',
    'remove',
    'cancel',
    'readOnly',
    'removedTitle',
  ] as const;
  return {
    ...(Object.fromEntries(keys.map((k) => [k, t(`ops.domains.${k}`)])) as Record<(typeof keys)[number], string>),
    keyState: t('ops.domains.state.key'),
    failed: t('ops.failed'),
  };
}
