import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { PGlite } from '@electric-sql/pglite';
import type { Sql } from 'postgres';
import { createTestDb } from '@/test/db';
import * as schema from '@/lib/db/schema';
import { listenerOf, type Db } from '@/lib/db/client';
import { seed } from '@/lib/demo/seed';
import { readChannel } from '@/lib/channel/service';
import { updateChannelSkin } from '@/lib/channel/operator';
import { parseSkin } from '@/lib/channel/skin';
import { readRenderedPage, type RenderedPage } from '@/lib/page/rendered';
import { cachedRead, invalidate, tagNoticesSent, watchTagNotices, writeInvalidating } from './store';
import { MAX_NOTICE_BYTES, readTagNotice, TAG_NOTICE_CHANNEL, tagNotices } from './notices';

/**
 * Invalidation across processes (issue 31): two server processes on one database are two handles here, each with its
 * own caches and its own listener, as `otherProcess` in lib/order/sold-out.test.ts. Runs on in-process PGlite (its
 * own LISTEN/NOTIFY) and, with DATABASE_URL, on PostgreSQL.
 */
let serverA: Db;
let serverB: Db;
let closeDb: () => Promise<void>;
/** Every notice on the channel, in order, as a third listener on the database hears them. */
const heard: string[] = [];
let onHeard: (() => void) | null = null;
let onListenAgain: (() => void) | null = null;
/** PGlite has one in-process session that never drops: its "reconnect" replays the listener's onListen, as postgres.js does. */
const replays: (() => void)[] = [];

function secondHandle(db: Db): Db {
  const client = (db as unknown as { $client: unknown }).$client;
  return typeof client === 'function'
    ? (drizzlePostgres(client as Sql, { schema }) as unknown as Db)
    : (drizzlePglite(client as PGlite, { schema }) as unknown as Db);
}
const onPostgresJs = (db: Db) => typeof (db as unknown as { $client: unknown }).$client === 'function';

/** The handle's real listener, with its onListen kept so that PGlite's "reconnect" can replay it. */
function recordingListener(db: Db) {
  const real = listenerOf(db)!;
  return {
    listen: (channel: string, onNotice: (payload: string) => void, onListen?: () => void) =>
      real.listen(channel, onNotice, () => {
        if (onListen) replays.push(onListen);
        onListen?.();
      }),
  };
}

beforeAll(async () => {
  ({ db: serverA, close: closeDb } = await createTestDb());
  await seed(serverA, new Date('2026-11-26T08:00:00Z'));
  serverB = secondHandle(serverA);
  expect(await watchTagNotices(serverA, recordingListener(serverA))).toBe(true);
  expect(await watchTagNotices(serverB, recordingListener(serverB))).toBe(true);
  // Registered after both servers' listeners, on the same connection: by the time it hears a notice, they have.
  await listenerOf(serverA)!.listen(
    TAG_NOTICE_CHANNEL,
    (payload) => {
      heard.push(payload);
      onHeard?.();
    },
    () => onListenAgain?.(),
  );
});
afterAll(() => closeDb());

/** Resolves once a notice naming `tag` has been heard (the servers' listeners heard it first). */
function noticeOf(tag: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (heard.some((payload) => payload.includes(JSON.stringify(tag)))) {
        onHeard = null;
        resolve();
      }
    };
    onHeard = check;
    check();
  });
}

/** A cached read of `key` under `tags` that counts its loads. */
function counted(db: Db, key: string, tags: string[]) {
  let loads = 0;
  return {
    read: () => cachedRead(db, key, tags, async () => ++loads),
    loads: () => loads,
  };
}

const page = (body: string): RenderedPage => ({ kind: 'page', body, contentType: 'text/html', nonce: null });

describe('a tag invalidated in one server process is dropped in the other', () => {
  it('shows an operator’s skin change on the other server’s next read and page view', async () => {
    expect(parseSkin((await readChannel(serverB, 'AURORA'))!.skinJson).color1).not.toBe('#b91c1c');
    const home = await readRenderedPage(serverB, 'home:AURORA', ['channel:AURORA'], async () => page('old skin'));
    expect(home).toEqual(page('old skin'));

    // Colours alone: server B drops the channel's row, and keeps its rendered pages, which are answered with the
    // row's colours (lib/page/page-skin.ts): no render.
    await updateChannelSkin(serverA, 'AURORA', { color1: '#b91c1c' });
    await noticeOf('channel-colours:AURORA');
    expect(parseSkin((await readChannel(serverB, 'AURORA'))!.skinJson).color1).toBe('#b91c1c');
    expect(await readRenderedPage(serverB, 'home:AURORA', ['channel:AURORA'], async () => page('new skin'))).toEqual(page('old skin'));

    // An image: server B drops the row and the rendered pages; its next read and render are the new ones.
    await updateChannelSkin(serverA, 'AURORA', { bannerImg: '/brands/aurora/cover-chain.svg', color1: '#1d4ed8' });
    await noticeOf('channel:AURORA');
    expect(parseSkin((await readChannel(serverB, 'AURORA'))!.skinJson).color1).toBe('#1d4ed8');
    expect(await readRenderedPage(serverB, 'home:AURORA', ['channel:AURORA'], async () => page('new skin'))).toEqual(page('new skin'));
  });

  it('carries a write committed outside a transaction (a buy) in the notice sent after it', async () => {
    const onB = counted(serverB, 'sale-look:7', ['sale:7']);
    const otherSale = counted(serverB, 'sale-look:8', ['sale:8']);
    await onB.read();
    await otherSale.read();
    invalidate(serverA, ['stock:7', 'sale:7']);
    await tagNoticesSent(serverA);
    await noticeOf('sale:7');
    await onB.read();
    await otherSale.read();
    expect(onB.loads()).toBe(2);
    // Only the tags named: the other sale's entry stands.
    expect(otherSale.loads()).toBe(1);
  });

  it('drops the tags at once in the server that wrote, and skips its own notice when it comes back', async () => {
    const onA = counted(serverA, 'campaigns-look:1', ['campaigns:1']);
    await onA.read();
    await writeInvalidating(serverA, async (tx, changed) => {
      await tx.execute(sql`select 1`);
      changed(['campaigns:1']);
    });
    // Before any notice: the writer's next read is the new one.
    await onA.read();
    expect(onA.loads()).toBe(2);
    await noticeOf('campaigns:1');
    // Its own echo dropped nothing: the read made after the write stands.
    await onA.read();
    expect(onA.loads()).toBe(2);
  });

  it('splits a long list of tags into notices under PostgreSQL’s 8000 bytes, and every tag arrives', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => `sale:${100_000 + i}`);
    const first = counted(serverB, 'many:first', [many[0]!]);
    const last = counted(serverB, 'many:last', [many.at(-1)!]);
    await first.read();
    await last.read();
    const before = heard.length;
    invalidate(serverA, many);
    await tagNoticesSent(serverA);
    await noticeOf(many.at(-1)!);
    const notices = heard.slice(before);
    expect(notices.length).toBeGreaterThan(1);
    for (const payload of notices) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_NOTICE_BYTES);
    await first.read();
    await last.read();
    expect([first.loads(), last.loads()]).toEqual([2, 2]);
  });
});

describe('a rolled-back write publishes nothing', () => {
  it('leaves every server’s entries of its tags standing', async () => {
    const onA = counted(serverA, 'rolled-back:a', ['sale:901']);
    const onB = counted(serverB, 'rolled-back:b', ['sale:901']);
    await onA.read();
    await onB.read();
    await expect(
      writeInvalidating(serverA, async (tx, changed) => {
        changed(['sale:901']);
        await tx.execute(sql`select 1`);
        throw new Error('the write is refused');
      }),
    ).rejects.toThrow('the write is refused');
    // A write that commits afterwards: once its notice is heard, any notice of the rolled-back one would have been.
    await writeInvalidating(serverA, async (_tx, changed) => changed(['marker:rolled-back']));
    await noticeOf('marker:rolled-back');
    expect(heard.some((payload) => payload.includes('"sale:901"'))).toBe(false);
    await onA.read();
    await onB.read();
    expect([onA.loads(), onB.loads()]).toEqual([1, 1]);
  });
});

describe('a listener that connects again', () => {
  it('drops everything the server kept: a notice may have been missed meanwhile', async () => {
    const onB = counted(serverB, 'reconnect:b', ['channel:NOT-WRITTEN']);
    await onB.read();
    await onB.read();
    expect(onB.loads()).toBe(1);
    if (onPostgresJs(serverA)) {
      // The listening connection is cut (a database restart, a network blip); postgres.js listens again on a new one.
      const again = new Promise<void>((resolve) => (onListenAgain = resolve));
      await serverA.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'listen%' and pid <> pg_backend_pid()`,
      );
      await again;
    } else {
      for (const replay of replays) replay();
    }
    await onB.read();
    expect(onB.loads()).toBe(2);
  });
});

describe('the notices', () => {
  const origin = 'AAAAAAAAAAAAAAAA';

  it('carry every tag once, each notice under 8000 bytes, and are read back by another process only', () => {
    const tags = Array.from({ length: 2000 }, (_, i) => `stocks:${i}`);
    const notices = tagNotices(origin, [...tags, ...tags]);
    expect(notices.length).toBeGreaterThan(1);
    const read = notices.map((payload) => readTagNotice('BBBBBBBBBBBBBBBB', payload));
    expect(read.flatMap((notice) => (notice.kind === 'tags' ? notice.tags : []))).toEqual(tags);
    for (const payload of notices) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_NOTICE_BYTES);
    expect(readTagNotice(origin, notices[0]!)).toEqual({ kind: 'own' });
  });

  it('turn a tag too long for one notice, everything, and a notice it cannot read into dropping everything', () => {
    expect(tagNotices(origin, ['channel:' + '字'.repeat(3000)])).toEqual([`${origin}*`]);
    expect(tagNotices(origin, null)).toEqual([`${origin}*`]);
    expect(readTagNotice('BBBBBBBBBBBBBBBB', `${origin}*`)).toEqual({ kind: 'all' });
    expect(readTagNotice('BBBBBBBBBBBBBBBB', `${origin}{"v":2}`)).toEqual({ kind: 'all' });
  });
});
