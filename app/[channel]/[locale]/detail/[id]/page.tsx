import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { loadPageChannel, pageScope, type PageParams } from '@/lib/page/channel';
import { readSale, readSales } from '@/lib/page/cached-reads';
import { HomeView } from '@/components/sale/home-view';
import { HOME_PAGE_SIZE } from '@/lib/sale/schema';

type Props = { params: Promise<PageParams & { id: string }> };

/** A sale id as the URL carries it; anything else is no sale. */
const SALE_ID = /^[1-9]\d{0,9}$/;

async function load(params: Props['params']) {
  const channel = await loadPageChannel(params);
  const { id } = await params;
  // Like any unknown id (spec §2): redirect rather than notFound(), see vercel/next.js#59180 in docs/decisions.md.
  const sale = SALE_ID.test(id) ? await readSale(pageScope(channel), id) : null;
  if (!sale) redirect('/404');
  return { channel, sale };
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { sale } = await load(params);
  // The goods page is the sale's page of record; this one is a way into the store.
  return { title: sale.commodity.name, alternates: { canonical: `/goods/detail/${sale.id}` }, robots: { index: false } };
}

/**
 * /detail/:id (spec §2 detail, "home page variant"): the home page opened on one sale, as the store's older share
 * links were: the sale first, under "Shared with you", then the store's other drops (docs/decisions.md). A sale of
 * another channel, or none, goes to /404; a channel without sales goes where its home goes (lib/channel/routing.ts).
 */
export default async function HomeOnSalePage({ params }: Props) {
  const { channel, sale } = await load(params);
  const page = await readSales(pageScope(channel), { pageCount: 1, pageSize: HOME_PAGE_SIZE });
  return <HomeView channel={channel} page={page} pageCount={1} featured={sale} />;
}
