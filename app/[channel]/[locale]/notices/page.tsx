import type { Metadata } from 'next';
import { loadPageChannel, pageScope } from '@/lib/page/channel';
import type { SearchPageProps } from '@/lib/page/mine-list';
import { channelPreview } from '@/lib/page/metadata';
import { getPageUser } from '@/lib/page/session';
import { readNotices } from '@/lib/page/cached-reads';
import { pageFromSearch } from '@/lib/procedure/paging';
import { MineListPage } from '@/components/layout/mine-list-page';
import { NoticeList } from '@/components/notice/notice-list';
import { MarkNoticesRead } from '@/components/notice/mark-notices-read';

const PAGE_SIZE = 10;

export async function generateMetadata({ params }: SearchPageProps): Promise<Metadata> {
  const channel = await loadPageChannel(params);
  const title = channel.t('notices.title');
  return { title, ...channelPreview(channel, { title, description: channel.theme.marketText || channel.theme.brandName }) };
}

/**
 * /notices (issue 32, "Notices and a drop calendar"): the channel's published notices, newest first, paged; open to
 * visitors. A signed-in buyer's visit marks them read (the dot on Mine goes), from the browser once the list shows.
 */
export default async function NoticesPage({ params, searchParams }: SearchPageProps) {
  const channel = await loadPageChannel(params);
  const page = pageFromSearch((await searchParams).page);
  const [notices, user] = await Promise.all([
    readNotices(pageScope(channel), { pageCount: page, pageSize: PAGE_SIZE }),
    getPageUser({ id: channel.id, key: channel.key }),
  ]);
  const { t, theme } = channel;
  return (
    <MineListPage
      title={t('notices.title')}
      backLabel={t('notices.back')}
      pager={{ path: '/notices', page, pages: notices.pages, newer: t('notices.newer'), older: t('notices.older'), look: 'link' }}
    >
      <NoticeList notices={notices.records} timeZone={theme.timeZone} t={t} />
      {user ? <MarkNoticesRead /> : null}
    </MineListPage>
  );
}
