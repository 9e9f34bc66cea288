import { getDb } from '@/lib/db/client';
import { publicOrigin } from '@/lib/env';
import { domainSettings, publicHostOf } from '@/lib/channel/domains';
import { listChannelNotices } from '@/lib/notice/service';
import { NOTICE_TYPES } from '@/lib/notice/schema';
import { formatDate } from '@/lib/format/date';
import { pageFromSearch } from '@/lib/procedure/paging';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import type { Translator } from '@/lib/i18n/translator';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { NoticePanel, type NoticePanelWords, type NoticeRow } from '@/components/ops/notice-panel';

type Props = { params: Promise<ConsoleChannelParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 20;

export const generateMetadata = consoleTitled((t) => t('ops.channel.tab.notices'));

/**
 * A channel's Notices tab (issue 32, "Notices and a drop calendar"; docs/operators.md, "Notices"): every notice with
 * its type, state and publish time in the channel's time zone (named), a form to write one (publish now or at a time),
 * edit and withdraw, and a link to the store's notice list. Owners and the channel's managers write; support reads.
 */
export default async function NoticesTabPage({ params, searchParams }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const page = pageFromSearch((await searchParams).page);
  const now = new Date();
  const db = getDb();
  const [notices, host] = await Promise.all([
    listChannelNotices(db, channel.id, now, { pageCount: page, pageSize: PAGE_SIZE }),
    publicHostOf(db, channel, domainSettings(), now),
  ]);
  const zone = channel.timeZone;
  const rows: NoticeRow[] = notices.records.map((n) => ({
    id: n.id,
    type: n.type,
    typeText: t(`notices.type.${n.type}`),
    title: n.title,
    body: n.body,
    state: n.state,
    stateText: t(`ops.notices.states.${n.state}`),
    publishText: `${formatDate(n.publishTime, 'yyyy-MM-dd HH:mm', zone)} (${zone})`,
    publishLocal: formatDate(n.publishTime, "yyyy-MM-dd'T'HH:mm", zone),
    confirmWithdraw: t('ops.notices.confirmWithdraw', { title: n.title }),
  }));
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="notices" />
      <NoticePanel
        locale={locale}
        channel={channel.key}
        storeUrl={`${publicOrigin(host)}/notices`}
        rows={rows}
        types={NOTICE_TYPES.map((type) => ({ value: type, text: t(`notices.type.${type}`) }))}
        defaultPublishLocal={formatDate(now, "yyyy-MM-dd'T'HH:mm", zone)}
        canWrite={operator.role === 'owner' || operator.role === 'manager'}
        words={panelWords(t, zone)}
        paging={{ page, pages: notices.pages }}
      />
    </ConsoleShell>
  );
}

function panelWords(t: Translator, zone: string): NoticePanelWords {
  const keys = [
    'intro',
    'storeLink',
    'readOnly',
    'empty',
    'title',
    'type',
    'state',
    'publishAt',
    'actions',
    'newTitle',
    'editTitle',
    'body',
    'bodyHint',
    'publishNow',
    'save',
    'saving',
    'publish',
    'edit',
    'cancel',
    'withdraw',
    'saved',
    'more',
    'newer',
  ] as const;
  return {
    ...(Object.fromEntries(keys.map((k) => [k, t(`ops.notices.${k}`)])) as Record<(typeof keys)[number], string>),
    publishHint: t('ops.notices.publishHint', { zone }),
    failed: t('ops.failed'),
  };
}
