import 'server-only';
import { redirect } from 'next/navigation';
import { loadPageChannel, pageScope, type PageChannel, type PageParams } from './channel';
import { readBlindBoxOdds, readSale } from './cached-reads';
import { pageLoader } from './loader';
import type { BlindBoxOdds, SaleRecord } from '../sale/schema';

export type SalePageParams = PageParams & { saleId: string };

const channelSale = pageLoader((channelId: number, saleId: string) => readSale(pageScope({ id: channelId }), saleId));
const blindBoxOdds = pageLoader((channelId: number, commodityId: string) => readBlindBoxOdds(pageScope({ id: channelId }), commodityId));

/**
 * The page's channel and sale (goods detail, pay). A sale that does not exist in this channel goes to /404 like any
 * unknown path (spec §2); Next cannot render a channel-styled not-found boundary under a dynamic root layout
 * (vercel/next.js#59180). Metadata and page of one request share one read (lib/page/loader.ts).
 */
export async function loadPageSale(params: Promise<SalePageParams>): Promise<{ channel: PageChannel; sale: SaleRecord }> {
  const channel = await loadPageChannel(params);
  return { channel, sale: await pageSale(channel, (await params).saleId) };
}

/** The channel's sale `saleId` (a route segment, as the address spells it), else /404. */
export async function pageSale(channel: PageChannel, saleId: string): Promise<SaleRecord> {
  const sale = await channelSale(channel.id, saleId);
  if (!sale) redirect('/404');
  return sale;
}

/** A blind box's odds; none for other goods. */
export async function loadPageOdds(channel: PageChannel, sale: SaleRecord): Promise<BlindBoxOdds> {
  return sale.commodity.isBlindBox ? blindBoxOdds(channel.id, sale.commodity.id) : [];
}
