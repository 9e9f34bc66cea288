import { loadPageChannel, pageScope, type PageParams } from '@/lib/page/channel';
import { readSales } from '@/lib/page/cached-reads';
import { pageFromSearch } from '@/lib/procedure/paging';
import { HomeView } from '@/components/sale/home-view';
import { HOME_PAGE_SIZE } from '@/lib/sale/schema';

type Props = { params: Promise<PageParams>; searchParams: Promise<{ page?: string | string[] }> };

/** Home (spec §2): the channel's banner, brand and sales list, with the footer (components/sale/home-view.tsx). */
export default async function HomePage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  // The one reading of ?page= that the page cache keys on too (lib/page/shared-page.ts).
  const pageCount = pageFromSearch((await searchParams).page);
  const page = await readSales(pageScope(channel), { pageCount, pageSize: HOME_PAGE_SIZE });
  return <HomeView channel={channel} page={page} pageCount={pageCount} />;
}
