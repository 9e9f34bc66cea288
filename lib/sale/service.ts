import 'server-only';
import { and, asc, count, desc, eq, isNull } from 'drizzle-orm';
import type { ChannelScope } from '../procedure/scope';
import { toPage, type Page, type Paging } from '../procedure/paging';
import { blindBoxPrizes, commodities, sales } from '../db/schema';
import { SALE_STATUS, saleStatus } from './status';
import type { BlindBoxOdds, SaleRecord } from './schema';

type SaleRow = { sale: typeof sales.$inferSelect; commodity: typeof commodities.$inferSelect };

function toSaleRecord({ sale, commodity }: SaleRow, now: Date): SaleRecord {
  return {
    id: String(sale.id),
    price: sale.price,
    amount: sale.amount,
    amountAvailable: sale.amountAvailable,
    limitPerUser: sale.limitPerUser,
    // A cancelled sale (issue 32, "Drop-day controls") reads ended, so no buy button shows, and says it was cancelled.
    statusSell: sale.cancelledAt ? SALE_STATUS.ENDED : saleStatus(sale, now),
    cancelled: sale.cancelledAt !== null,
    paused: sale.pausedAt !== null,
    saleStartTime: sale.saleStartTime.toISOString(),
    saleEndTime: sale.saleEndTime?.toISOString() ?? null,
    commodity: {
      id: String(commodity.id),
      name: commodity.name,
      cover: commodity.cover,
      actualPicture: commodity.actualPicture,
      description: commodity.description,
      amountSku: commodity.amountSku,
      chainName: commodity.chainName,
      chainContract: commodity.chainContract,
      contractAddress: commodity.contractAddress,
      isBlindBox: commodity.isBlindBox,
    },
    author: { name: commodity.authorName, cover: commodity.authorCover },
    publisher: { name: commodity.publisherName },
    seriesWorks: commodity.seriesName ? { name: commodity.seriesName } : null,
  };
}

/** The channel's sales for the home list, paged (1-based), in the channel's order. */
export async function listSales({ db, now, channelId }: ChannelScope, paging: Paging): Promise<Page<SaleRecord>> {
  // issue 32: a hidden sale (opened by its link only) and an archived one are left out of the home list.
  const where = and(eq(sales.channelId, channelId), eq(sales.listed, true), isNull(sales.archivedAt));
  const [totalRow] = await db.select({ value: count() }).from(sales).where(where);
  const total = totalRow?.value ?? 0;
  const rows = await db
    .select({ sale: sales, commodity: commodities })
    .from(sales)
    .innerJoin(commodities, eq(sales.commodityId, commodities.id))
    .where(where)
    .orderBy(asc(sales.sort), asc(sales.id))
    .limit(paging.pageSize)
    .offset((paging.pageCount - 1) * paging.pageSize);
  return toPage(
    rows.map((row) => toSaleRecord(row, now)),
    total,
    paging,
  );
}

/** One sale of the channel, or null when it does not exist in this channel (no cross-channel reads). */
export async function findSale({ db, now, channelId }: ChannelScope, saleId: string): Promise<SaleRecord | null> {
  if (!/^[1-9]\d{0,9}$/.test(saleId) || Number(saleId) > 2_147_483_647) return null;
  const [row] = await db
    .select({ sale: sales, commodity: commodities })
    .from(sales)
    .innerJoin(commodities, eq(sales.commodityId, commodities.id))
    .where(and(eq(sales.id, Number(saleId)), eq(sales.channelId, channelId)))
    .limit(1);
  return row ? toSaleRecord(row, now) : null;
}

/** The ids of the channel's sales, as the goods pages spell them (each sale once; the page cache asks, issue 29). */
export async function listSaleIds({ db, channelId }: Pick<ChannelScope, 'db' | 'channelId'>): Promise<ReadonlySet<string>> {
  const rows = await db.select({ id: sales.id }).from(sales).where(eq(sales.channelId, channelId));
  return new Set(rows.map((row) => String(row.id)));
}

/** Published odds of a blind box (DESIGN §7): each prize's weight over the total. */
export async function listBlindBoxOdds({ db }: Pick<ChannelScope, 'db'>, commodityId: string): Promise<BlindBoxOdds> {
  const rows = await db
    .select({ name: commodities.name, cover: commodities.cover, weight: blindBoxPrizes.weight, value: blindBoxPrizes.value })
    .from(blindBoxPrizes)
    .innerJoin(commodities, eq(blindBoxPrizes.prizeCommodityId, commodities.id))
    .where(eq(blindBoxPrizes.boxCommodityId, Number(commodityId)))
    .orderBy(desc(blindBoxPrizes.weight), asc(commodities.id));
  const total = rows.reduce((sum, r) => sum + r.weight, 0);
  return rows.map((r) => ({ ...r, percent: `${((r.weight / total) * 100).toFixed((r.weight * 100) % total === 0 ? 0 : 1)}%` }));
}

/** The channel's blind-box sales, each with its published odds (channel/queryBox). */
export async function listBlindBoxSales({ db, now, channelId }: ChannelScope): Promise<(SaleRecord & { odds: BlindBoxOdds })[]> {
  const rows = await db
    .select({ sale: sales, commodity: commodities })
    .from(sales)
    .innerJoin(commodities, eq(sales.commodityId, commodities.id))
    .where(and(eq(sales.channelId, channelId), eq(commodities.isBlindBox, true), eq(sales.listed, true), isNull(sales.archivedAt)))
    .orderBy(asc(sales.sort), asc(sales.id));
  return Promise.all(
    rows.map(async (row) => ({ ...toSaleRecord(row, now), odds: await listBlindBoxOdds({ db }, String(row.commodity.id)) })),
  );
}
