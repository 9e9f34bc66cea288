import type { Metadata } from 'next';
import { loadPageChannel, pageScope, type PageParams } from '@/lib/page/channel';
import { channelPreview } from '@/lib/page/metadata';
import { readUpcomingSales } from '@/lib/page/cached-reads';
import { PageHeader } from '@/components/layout/page-header';
import { DropCalendar } from '@/components/notice/drop-calendar';

type Props = { params: Promise<PageParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const channel = await loadPageChannel(params);
  const title = channel.t('notices.calendar');
  return { title, ...channelPreview(channel, { title, description: channel.theme.marketText || channel.theme.brandName }) };
}

/** /calendar (issue 32, "a calendar of the channel's upcoming drops"): the sales opening in the next days, by day. */
export default async function CalendarPage({ params }: Props) {
  const channel = await loadPageChannel(params);
  const sales = await readUpcomingSales(pageScope(channel));
  const { t, theme, skin } = channel;
  return (
    <>
      <PageHeader title={t('notices.calendar')} backHref="/mine" backLabel={t('notices.back')} />
      <main className="px-3 pt-3 pb-[1.6rem]">
        <DropCalendar sales={sales} timeZone={theme.timeZone} placeholderColor={skin.lightColor} locale={channel.locale} t={t} />
      </main>
    </>
  );
}
