import { eq } from 'drizzle-orm';
import { countingTestDb, type CountingDb } from '@/test/statements';
import { makeUsers } from '@/test/buying';
import { authSessions, channels, type ChannelRow } from '@/lib/db/schema';
import type { Db } from '@/lib/db/client';
import { createSession, resolveToken, revokeToken } from './sessions';

// A drop's crowd makes its first calls in the same seconds, each a session read this process has not cached (issue 35,
// `bench:drop` in queue mode: 10,000 joins in 10 s). The reads that arrive while one is in flight go in the next
// statement together; each is answered as its own read would be: a live session of its channel, and nothing for a
// revoked, expired, unknown or other channel's token. Runs on PGlite and PostgreSQL.

const now = new Date('2026-11-28T08:00:00Z');
let db: Db;
let channel: ChannelRow;
let other: ChannelRow;
let statementsOf: CountingDb['statementsOf'];
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, channel, statementsOf, close } = await countingTestDb(now));
  [other] = (await db.select().from(channels).where(eq(channels.key, 'BAZAAR'))) as [ChannelRow];
}, 120_000);
afterAll(() => close());

it('answers 60 first reads at once in a few statements, each as a read of its own would', async () => {
  const users = await makeUsers(db, 60, '3551');
  const live = [];
  for (const userId of users)
    live.push({ userId, token: (await createSession(db, { userId, channelId: channel.id, now, ip: null })).token });
  const [revoked, expiring, elsewhere] = live.splice(0, 3) as [(typeof live)[0], (typeof live)[0], (typeof live)[0]];
  await revokeToken(db, { token: revoked.token, now });
  // Ends between the earliest read's moment and the last's: live for the first, none for the second.
  await db
    .update(authSessions)
    .set({ expiresAt: new Date(now.getTime() + 500) })
    .where(eq(authSessions.userId, expiring.userId));
  const asks = [
    ...live.map((b) => ({ token: b.token, channelId: channel.id, now, want: b.userId as number | null })),
    { token: revoked.token, channelId: channel.id, now, want: null },
    { token: expiring.token, channelId: channel.id, now, want: expiring.userId },
    { token: expiring.token, channelId: other.id, now, want: null },
    { token: elsewhere.token, channelId: other.id, now, want: null },
    { token: 'made-up-token', channelId: channel.id, now, want: null },
  ];
  let answers: (number | null)[] = [];
  const statements = await statementsOf(async () => {
    answers = await Promise.all(asks.map(async (a) => (await resolveToken(db, a))?.id ?? null));
  });
  expect(answers).toEqual(asks.map((a) => a.want));
  // The first read alone, then the rest together (or a few batches): not one statement per read.
  expect(statements.filter((s) => /from "auth_sessions"/.test(s)).length).toBeLessThanOrEqual(3);
  // A read one second later (not cached as expired: its moment is past the session's end) finds none.
  const later = new Date(now.getTime() + 1000);
  const [late, fresh] = await Promise.all([
    resolveToken(db, { token: expiring.token, channelId: channel.id, now: later }),
    resolveToken(db, { token: live[0]!.token, channelId: channel.id, now: later }),
  ]);
  expect(late).toBeNull();
  expect(fresh?.id).toBe(live[0]!.userId);
});
