import 'server-only';
import { randomInt } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { buyerAccountNumbers, users } from '../db/schema';

/**
 * A buyer's account number on a channel (issue 32, "Orders and buyers"): 10 digits from the CSPRNG (no leading zero,
 * so it reads the same typed or pasted), unique per channel, made the first time anyone needs it. Per channel and
 * random, never the deployment-wide uuid nor a sequence: a list or a link carrying it neither ties the buyer to
 * another store nor lets anyone walk to the next buyer.
 */
export const ACCOUNT_NUMBER = /^[1-9]\d{9}$/;

/** A fresh account number: 10 digits, not starting with 0, drawn at random (a clash with a taken one is drawn again). */
export function freshAccountNumber(): string {
  return String(randomInt(1_000_000_000, 10_000_000_000));
}

async function readNumber(db: Db, channelId: number, userId: number): Promise<string | null> {
  const [row] = await db
    .select({ number: buyerAccountNumbers.number })
    .from(buyerAccountNumbers)
    .where(and(eq(buyerAccountNumbers.channelId, channelId), eq(buyerAccountNumbers.userId, userId)))
    .limit(1);
  return row?.number ?? null;
}

/**
 * The buyer's number on the channel, made now if they have none. Race-safe: two first calls at once insert with
 * ON CONFLICT DO NOTHING and both read back the one that won; a clash with another buyer's number (one in nine
 * billion per buyer) draws again.
 */
export async function accountNumberOf(db: Db, channelId: number, userId: number, now = new Date()): Promise<string> {
  const known = await readNumber(db, channelId, userId);
  if (known) return known;
  for (let attempt = 0; attempt < 5; attempt++) {
    await db.insert(buyerAccountNumbers).values({ channelId, userId, number: freshAccountNumber(), createdAt: now }).onConflictDoNothing();
    const made = await readNumber(db, channelId, userId);
    if (made) return made;
  }
  throw new Error(`no free account number for user ${userId} on channel ${channelId} after 5 draws`);
}

/**
 * The buyer behind an account number on the channel, or null. A closed account (issue 36) is nobody to a buyer (a gift
 * cannot go to it); the console's searches pass `includeClosed` to still find its orders.
 */
export async function buyerOfAccountNumber(
  db: Db,
  channelId: number,
  number: string,
  options: { includeClosed?: boolean } = {},
): Promise<number | null> {
  if (!ACCOUNT_NUMBER.test(number)) return null;
  const [row] = await db
    .select({ userId: buyerAccountNumbers.userId })
    .from(buyerAccountNumbers)
    .innerJoin(users, eq(users.id, buyerAccountNumbers.userId))
    .where(
      and(
        eq(buyerAccountNumbers.channelId, channelId),
        eq(buyerAccountNumbers.number, number),
        options.includeClosed ? undefined : isNull(users.closedAt),
      ),
    )
    .limit(1);
  return row?.userId ?? null;
}
