import { loadPageChannel, pageScope, type PageParams } from '@/lib/page/channel';
import { readSales } from '@/lib/page/cached-reads';
import { MAX_PAGE } from '@/lib/procedure/paging';
import { HomeView, HOME_PAGE_SIZE } from '@/components/sale/home-view';

type Props = { params: Promise<PageParams>; searchParams: Promise<{ page?: string | string[] }> };

/** Home (spec §2): the channel's banner, brand and sales list, with the footer (components/sale/home-view.tsx). */
export default async function HomePage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  const requested = Number((await searchParams).page);
  const pageCount = Number.isInteger(requested) && requested > 0 ? Math.min(requested, MAX_PAGE) : 1;
  const page = await readSales(pageScope(channel), { pageCount, pageSize: HOME_PAGE_SIZE });
  return <HomeView channel={channel} page={page} pageCount={pageCount} />;
}
