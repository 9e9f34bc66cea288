/**
 * A logged-in buyer for the benchmarks (issue 34): a user with a live session on a channel, and the web session cookie
 * a phone's browser would carry after the SMS login (next-auth's encrypted JWT, as lib/auth/session-claims.ts reads it).
 * Runs in the bench's own process against the database the server will use, before the server starts or beside it.
 */
import { encode } from 'next-auth/jwt';
import type { Db } from '../lib/db/client';

export type BenchBuyer = { userId: number; uuid: string; token: string; cookie: string };

/** The `Cookie` header value of a session on `channelKey` (plain name: the benchmarks speak HTTP). */
export async function sessionCookieHeader(buyer: { uuid: string; token: string; phone: string }, channelKey: string): Promise<string> {
  const { authSecret } = await import('../lib/security/secret');
  const { maskPhone } = await import('../lib/auth/mask');
  const value = await encode({
    token: { sub: buyer.uuid, apiToken: buyer.token, channel: channelKey, phone: maskPhone(buyer.phone) },
    secret: authSecret(),
  });
  return `next-auth.session-token=${value}`;
}

/** Makes `count` buyers with live sessions on the channel; phone numbers carry `run` so runs on one database do not collide. */
export async function makeBenchBuyers(
  db: Db,
  options: { channelKey: string; count: number; run: string; now: Date },
): Promise<BenchBuyer[]> {
  const { eq } = await import('drizzle-orm');
  const { users, channels } = await import('../lib/db/schema');
  const { createSession } = await import('../lib/auth/sessions');
  const [channel] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, options.channelKey));
  if (!channel) throw new Error(`no channel ${options.channelKey}`);
  const runNo = String(parseInt(options.run, 16) % 10_000).padStart(4, '0');
  const buyers: BenchBuyer[] = [];
  for (let from = 0; from < options.count; from += 500) {
    const batch = Array.from({ length: Math.min(500, options.count - from) }, (_, j) => from + j);
    const values = batch.map((i) => ({ uuid: `bench-${options.run}-${i}`, phone: `1${runNo}${String(i).padStart(6, '0')}` }));
    const rows = await db.insert(users).values(values).returning({ id: users.id, uuid: users.uuid, phone: users.phone });
    const sessions = await Promise.all(
      rows.map((row) => createSession(db, { userId: row.id, channelId: channel.id, now: options.now, ip: null })),
    );
    for (const [j, row] of rows.entries()) {
      const token = sessions[j]!.token;
      buyers.push({
        userId: row.id,
        uuid: row.uuid,
        token,
        cookie: await sessionCookieHeader({ uuid: row.uuid, token, phone: row.phone }, options.channelKey),
      });
    }
  }
  return buyers;
}

/**
 * `count` buyers of the run `run` with API sessions on `channelId` (no web cookie: the benchmarks that only call the
 * API). Phone numbers carry a number of the run, so runs against one PostgreSQL do not collide.
 */
export async function makeBenchApiBuyers(
  db: Db,
  input: { channelId: number; count: number; run: string; prefix: string; now: Date },
): Promise<{ userId: number; token: string }[]> {
  const { users } = await import('../lib/db/schema');
  const { createSession } = await import('../lib/auth/sessions');
  const runNo = String(parseInt(input.run, 16) % 10_000).padStart(4, '0');
  const userIds: number[] = [];
  for (let from = 0; from < input.count; from += 1000) {
    const batch = Array.from({ length: Math.min(1000, input.count - from) }, (_, j) => from + j);
    const rows = await db
      .insert(users)
      .values(batch.map((i) => ({ uuid: `${input.prefix}-${input.run}-${i}`, phone: `1${runNo}${String(i).padStart(6, '0')}` })))
      .returning({ id: users.id });
    userIds.push(...rows.map((r) => r.id));
  }
  const buyers: { userId: number; token: string }[] = [];
  for (let i = 0; i < userIds.length; i += 200) {
    const batch = userIds.slice(i, i + 200);
    const sessions = await Promise.all(
      batch.map((userId) => createSession(db, { userId, channelId: input.channelId, now: input.now, ip: null })),
    );
    batch.forEach((userId, j) => buyers.push({ userId, token: sessions[j]!.token }));
  }
  return buyers;
}
