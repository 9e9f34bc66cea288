import { and, eq } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { PGlite } from '@electric-sql/pglite';
import type { Sql } from 'postgres';
import { createTestApi, type TestApi, type TestBuyer } from '@/test/api';
import { signedInOperator } from '@/test/operator-fixtures';
import * as schema from '@/lib/db/schema';
import { authSessions } from '@/lib/db/schema';
import { listenerOf, type Db } from '@/lib/db/client';
import { tagNoticesSent, watchTagNotices } from '@/lib/cache/store';
import { TAG_NOTICE_CHANNEL } from '@/lib/cache/notices';
import { accountNumberOf } from './account-numbers';
import { addToBlocklist, blockOnChannel } from '../buyer/blocklist';
import { sha256 } from '../security/crypto';
import { resolveToken, revokeToken, sessionTag } from './sessions';

/**
 * The session read cached per process (issue 34): a live session is read once per SESSION_CACHE_TTL_MS, keyed by
 * channel and token, and every ending (logout, an operator's block of the buyer, of their phone or identity) drops it
 * at once in the process that wrote and, through the tag fan-out (lib/cache/store.ts), in every other. Two server
 * processes on one database are two handles here, as in lib/cache/fanout.test.ts; runs on PGlite and PostgreSQL.
 */
let api: TestApi;
let serverA: Db;
let serverB: Db;
let operatorId: number;
let aurora: number;
let other: number;
/** Every notice on the tag channel, as a third listener registered after both servers' hears them. */
const heard: string[] = [];
let onHeard: (() => void) | null = null;

function secondHandle(db: Db): Db {
  const client = (db as unknown as { $client: unknown }).$client;
  return typeof client === 'function'
    ? (drizzlePostgres(client as Sql, { schema }) as unknown as Db)
    : (drizzlePglite(client as PGlite, { schema }) as unknown as Db);
}

beforeAll(async () => {
  api = await createTestApi({ now: new Date('2026-11-27T08:00:00Z') });
  serverA = api.db;
  serverB = secondHandle(serverA);
  expect(await watchTagNotices(serverA)).toBe(true);
  expect(await watchTagNotices(serverB)).toBe(true);
  await listenerOf(serverA)!.listen(TAG_NOTICE_CHANNEL, (payload) => {
    heard.push(payload);
    onHeard?.();
  });
  operatorId = (await signedInOperator(serverA, { name: 'sessions.owner', role: 'owner', now: api.now })).operatorId;
  aurora = await api.channelId('AURORA');
  other = await api.channelId((await otherChannelKey())!);
});
afterAll(async () => {
  await tagNoticesSent(serverA);
  await api.close();
});

async function otherChannelKey(): Promise<string | undefined> {
  const rows = await serverA.select({ key: schema.channels.key }).from(schema.channels);
  return rows.map((r) => r.key).find((key) => key !== 'AURORA');
}

/** Resolves once the other servers have heard the notice of `token`'s session (they listen before this listener). */
function noticeOfSession(token: string): Promise<void> {
  const tag = JSON.stringify(sessionTag(sha256(token)));
  return new Promise((resolve) => {
    const check = () => {
      if (heard.some((payload) => payload.includes(tag))) {
        onHeard = null;
        resolve();
      }
    };
    onHeard = check;
    check();
  });
}

const read = (db: Db, buyer: TestBuyer, channelId = aurora, now = api.now) => resolveToken(db, { token: buyer.token, channelId, now });

/** A buyer logged in on AURORA whose session both servers have read (and so keep). */
async function cachedOnBoth(phone: string): Promise<TestBuyer> {
  const buyer = await api.buyer(phone);
  expect((await read(serverA, buyer))?.id).toBe(buyer.userId);
  expect((await read(serverB, buyer))?.id).toBe(buyer.userId);
  return buyer;
}

/** Revokes the session in the database behind the storefront's back (SQL by hand): no notice, no invalidation. */
async function revokeBehindTheBack(buyer: TestBuyer): Promise<void> {
  await serverA
    .update(authSessions)
    .set({ revokedAt: api.now })
    .where(and(eq(authSessions.tokenHash, sha256(buyer.token)), eq(authSessions.channelId, aurora)));
}

describe('a live session is read once per few seconds in a process', () => {
  it('answers a kept session without the database, and still refuses it once it has expired', async () => {
    const buyer = await cachedOnBoth('13912340101');
    await revokeBehindTheBack(buyer);
    // Kept: this write told no one (docs/caching.md: such a write shows within SESSION_CACHE_TTL_MS).
    expect((await read(serverA, buyer))?.id).toBe(buyer.userId);
    // Its expiry is checked at every read, kept or not.
    expect(await read(serverA, buyer, aurora, new Date(api.now.getTime() + 31 * 24 * 3600_000))).toBeNull();
  });

  it('never answers a token of one channel for another, kept or not', async () => {
    const buyer = await cachedOnBoth('13912340102');
    expect(await read(serverA, buyer, other)).toBeNull();
    expect(await read(serverB, buyer, other)).toBeNull();
  });

  it('keeps no refusal: a token is refused until its session exists, then answered', async () => {
    const buyer = await api.buyer('13912340103');
    await revokeBehindTheBack(buyer);
    expect(await read(serverA, buyer)).toBeNull();
    // Live again (by hand): a refusal was not kept, so the next read finds it.
    await serverA
      .update(authSessions)
      .set({ revokedAt: null })
      .where(eq(authSessions.tokenHash, sha256(buyer.token)));
    expect((await read(serverA, buyer))?.id).toBe(buyer.userId);
  });

  it('answers copies: a request that changes what it got leaves the next request’s buyer alone', async () => {
    const buyer = await cachedOnBoth('13912340104');
    const first = (await read(serverA, buyer))!;
    first.nickname = 'changed by one request';
    expect((await read(serverA, buyer))?.nickname).not.toBe('changed by one request');
  });
});

describe('every ending drops the kept session at once here and, through the fan-out, on the other server', () => {
  it('logout', async () => {
    const buyer = await cachedOnBoth('13912340201');
    expect(await revokeToken(serverA, { token: buyer.token, now: api.now })).toBe(true);
    expect(await read(serverA, buyer)).toBeNull();
    await tagNoticesSent(serverA);
    await noticeOfSession(buyer.token);
    expect(await read(serverB, buyer)).toBeNull();
  });

  it('logout through the API: the next buyer call with the token is not logged in', async () => {
    const buyer = await api.buyer('13912340202');
    expect((await api.callApi('/market/api/userAttribute/queryByUserUuid', {}, { token: buyer.token })).code).toBe(200);
    expect((await read(serverB, buyer))?.id).toBe(buyer.userId);
    expect((await api.callApi('/auth/api/auth/logout', {}, { token: buyer.token })).data).toEqual({ revoked: true });
    expect((await api.callApi('/market/api/userAttribute/queryByUserUuid', {}, { token: buyer.token })).code).toBe(401);
    await tagNoticesSent(serverA);
    await noticeOfSession(buyer.token);
    expect(await read(serverB, buyer)).toBeNull();
  });

  it('an operator blocks the buyer: the next call is refused with the block’s words, on both servers', async () => {
    const buyer = await cachedOnBoth('13912340203');
    expect((await api.callApi('/market/api/userAttribute/queryByUserUuid', {}, { token: buyer.token })).code).toBe(200);
    const accountNumber = await accountNumberOf(serverA, aurora, buyer.userId);
    const blocked = await blockOnChannel(
      serverA,
      { channelId: aurora, accountNumber, everyChannel: false, reason: 'chargeback', operatorId, now: api.now },
      async () => {},
    );
    expect(blocked.sessionsEnded).toBe(1);
    expect(await read(serverA, buyer)).toBeNull();
    expect((await api.callApi('/market/api/userAttribute/queryByUserUuid', {}, { token: buyer.token })).code).toBe(403);
    await noticeOfSession(buyer.token);
    expect(await read(serverB, buyer)).toBeNull();
  });

  it('a block on every channel ends the buyer’s sessions on each', async () => {
    const buyer = await cachedOnBoth('13912340204');
    const onOther = { ...buyer, token: await api.session(buyer.userId, (await otherChannelKey())!) };
    expect((await read(serverB, onOther, other))?.id).toBe(buyer.userId);
    const accountNumber = await accountNumberOf(serverA, aurora, buyer.userId);
    await blockOnChannel(
      serverA,
      { channelId: aurora, accountNumber, everyChannel: true, reason: 'fraud ring', operatorId, now: api.now },
      async () => {},
    );
    expect(await read(serverA, buyer)).toBeNull();
    expect(await read(serverA, onOther, other)).toBeNull();
    await noticeOfSession(buyer.token);
    await noticeOfSession(onOther.token);
    expect(await read(serverB, buyer)).toBeNull();
    expect(await read(serverB, onOther, other)).toBeNull();
  });

  it('an operator blocks the buyer’s phone number', async () => {
    const buyer = await cachedOnBoth('13912340205');
    const added = await addToBlocklist(
      serverA,
      { channelId: aurora, kind: 'phone', value: buyer.phone, everyChannel: false, reason: 'stolen phone', operatorId, now: api.now },
      async () => {},
    );
    expect(added.sessionsEnded).toBe(1);
    expect(await read(serverA, buyer)).toBeNull();
    await noticeOfSession(buyer.token);
    expect(await read(serverB, buyer)).toBeNull();
  });
});
