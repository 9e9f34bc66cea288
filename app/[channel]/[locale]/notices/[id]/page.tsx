import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { loadPageChannel, pageScope, type PageParams } from '@/lib/page/channel';
import { channelPreview } from '@/lib/page/metadata';
import { pageLoader } from '@/lib/page/loader';
import { readNotice } from '@/lib/page/cached-reads';
import { routeId } from '@/lib/page/route-id';
import { publicOrigin } from '@/lib/env';
import { paragraphsOf } from '@/lib/notice/schema';
import { formatDate } from '@/lib/format/date';
import { PageHeader } from '@/components/layout/page-header';
import { Card } from '@/components/ui/card';
import { NoticeTypeChip } from '@/components/notice/notice-list';

type Props = { params: Promise<PageParams & { id: string }> };

/** The notice of a page's route (one read for metadata and page): an unknown, scheduled or withdrawn one → /404. */
const pageNotice = pageLoader(async (key: string, locale: string, rawId: string) => {
  const channel = await loadPageChannel(Promise.resolve({ channel: key, locale }));
  const id = routeId(rawId);
  const notice = id === null ? null : await readNotice(pageScope(channel), id);
  if (!notice) redirect('/404');
  return { channel, notice };
});

async function load(params: Props['params']) {
  const { channel, locale, id } = await params;
  return pageNotice(channel, locale, id);
}

/** Link previews: the notice's title and its first paragraph, on the channel's public host. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { channel, notice } = await load(params);
  const first = paragraphsOf(notice.body)[0] ?? '';
  const description = first.length > 160 ? `${first.slice(0, 157)}...` : first;
  const url = `${publicOrigin(channel.publicHost)}/notices/${notice.id}`;
  return {
    title: notice.title,
    description,
    alternates: { canonical: url },
    ...channelPreview(channel, { title: notice.title, description }),
  };
}

/**
 * /notices/:id (issue 32): one published notice, its type, title, publish time in the channel's time zone and its body
 * as plain-text paragraphs (operators write no HTML: React escapes every character).
 */
export default async function NoticePage({ params }: Props) {
  const { channel, notice } = await load(params);
  const { t, theme } = channel;
  return (
    <>
      <PageHeader title={t('notices.title')} backHref="/notices" backLabel={t('notices.back')} />
      <main className="px-3 pt-3 pb-[1.6rem]">
        <Card as="article" className="p-4" data-testid="notice-detail">
          <div className="flex items-center justify-between gap-2">
            <NoticeTypeChip type={notice.type} t={t} />
            <time dateTime={notice.publishTime} className="text-xs text-neutral-500">
              {formatDate(notice.publishTime, 'yyyy-MM-dd HH:mm', theme.timeZone)}
            </time>
          </div>
          <h2 className="mt-3 text-lg font-semibold text-skin-1" data-testid="notice-title">
            {notice.title}
          </h2>
          <div className="mt-3 flex flex-col gap-3 text-sm leading-relaxed whitespace-pre-line text-neutral-700" data-testid="notice-body">
            {paragraphsOf(notice.body).map((p, i) => (
              <p key={i}>{p}</p>
            ))}
          </div>
        </Card>
      </main>
    </>
  );
}
