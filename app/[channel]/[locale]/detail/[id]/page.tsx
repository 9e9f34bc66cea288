import type { Metadata } from 'next';
import { loadPageChannel, pageScope, type PageParams } from '@/lib/page/channel';
import { readSales } from '@/lib/page/cached-reads';
import { pageSale } from '@/lib/page/sale';
import { HomeView } from '@/components/sale/home-view';
import { HOME_PAGE_SIZE } from '@/lib/sale/schema';

type Props = { params: Promise<PageParams & { id: string }> };

/** The channel and its sale `:id`; like any unknown id, one the channel does not have goes to /404 (spec §2). */
async function load(params: Props['params']) {
  const channel = await loadPageChannel(params);
  return { channel, sale: await pageSale(channel, (await params).id) };
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
