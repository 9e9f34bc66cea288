import { and, eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { channels, commodities, editionCounters, sales, users } from '@/lib/db/schema';

/** A sale of its own for one test: commodity + sale on a channel, open now, with the given stock and limit. */
export async function makeSale(
  db: Db,
  input: {
    channelKey?: string;
    code: string;
    price?: number;
    amount: number;
    limitPerUser: number;
    amountSku?: number;
    now: Date;
    isBlindBox?: boolean;
  },
): Promise<{ saleId: number; commodityId: number; channelId: number }> {
  const [channel] = await db
    .select({ id: channels.id })
    .from(channels)
    .where(eq(channels.key, input.channelKey ?? 'AURORA'));
  const [commodity] = await db
    .insert(commodities)
    .values({
      channelId: channel!.id,
      code: input.code,
      name: `Test ${input.code}`,
      cover: '/goods/aurora-dawn.svg',
      amountSku: input.amountSku ?? input.amount,
      chainName: 'Ledger',
      chainContract: 'ERC-721',
      contractAddress: '0xtest',
      authorName: 'Tester',
      authorCover: '/brands/aurora/user-face.svg',
      publisherName: 'Test Studio',
      isBlindBox: input.isBlindBox ?? false,
    })
    .returning({ id: commodities.id });
  const [sale] = await db
    .insert(sales)
    .values({
      channelId: channel!.id,
      commodityId: commodity!.id,
      code: input.code,
      price: input.price ?? 1000,
      amount: input.amount,
      amountAvailable: input.amount,
      limitPerUser: input.limitPerUser,
      saleStartTime: new Date(input.now.getTime() - 3_600_000),
      saleEndTime: null,
    })
    .returning({ id: sales.id });
  return { saleId: sale!.id, commodityId: commodity!.id, channelId: channel!.id };
}

/** `n` buyers with distinct phones starting at `from`. */
export async function makeUsers(db: Db, n: number, prefix: string): Promise<number[]> {
  const rows = await db
    .insert(users)
    .values(
      Array.from({ length: n }, (_, i) => ({
        uuid: `${prefix}-${i}`,
        phone: `1${prefix.padStart(4, '3').slice(-4)}${String(i).padStart(6, '0')}`,
      })),
    )
    .returning({ id: users.id });
  return rows.map((r) => r.id);
}

export async function stockLeft(db: Db, saleId: number): Promise<number> {
  const [row] = await db.select({ left: sales.amountAvailable }).from(sales).where(eq(sales.id, saleId));
  return row!.left;
}

export async function minted(db: Db, commodityId: number): Promise<number> {
  const [row] = await db
    .select({ minted: editionCounters.minted })
    .from(editionCounters)
    .where(and(eq(editionCounters.commodityId, commodityId)));
  return row?.minted ?? 0;
}
