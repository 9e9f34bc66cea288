import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { channels, sales } from '@/lib/db/schema';
import { matchRoute } from '@/lib/channel/routes';
import { planSharedPage } from '@/lib/page/shared-page';
import { readRenderedPage, type RenderedPage } from '@/lib/page/rendered';
import { planFlight } from '@/lib/page/flight';

// issue 36 (docs/sharing.md): a share link's `from` is never part of a page-cache key. Two sharers' links to one sale
// are one cached page, rendered once, and the page never holds the code (it is rendered from the plain path).

const now = new Date('2026-11-22T08:00:00Z');
const db = seededTestDb(now);

let aurora: { id: number; key: string };
let saleId = '';

beforeAll(async () => {
  const [row] = await db.select({ id: channels.id, key: channels.key }).from(channels).where(eq(channels.key, 'AURORA'));
  aurora = row!;
  saleId = String((await db.select({ id: sales.id }).from(sales).where(eq(sales.channelId, aurora.id)).limit(1))[0]!.id);
});

const plan = (query: string) =>
  planSharedPage(
    { db, now, channelId: aurora.id, channelKey: aurora.key },
    matchRoute(`/goods/detail/${saleId}`)!,
    'en',
    new URLSearchParams(query),
  );

it('keys the goods page alike whatever `from` a link carries, and renders it once for two sharers', async () => {
  const a = await plan('from=aaaaaaaaaaaaaaaa');
  const b = await plan('from=bbbbbbbbbbbbbbbb');
  const forged = await plan('from=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E');
  const plain = await plan('');
  expect(a).toEqual(plain);
  expect(b).toEqual(plain);
  expect(forged).toEqual(plain);
  if (plain.kind !== 'cache') throw new Error('the goods page is cached');
  expect(plain.renderPath).toBe(`/goods/detail/${saleId}`);

  let renders = 0;
  const render = async (): Promise<RenderedPage> => {
    renders += 1;
    return { kind: 'page', body: '<html>goods</html>', contentType: 'text/html', nonce: null };
  };
  const tags = [`share-test:${saleId}`];
  for (const p of [a, b, forged]) {
    if (p.kind !== 'cache') throw new Error('cached');
    expect(await readRenderedPage(db, p.key, tags, render)).toMatchObject({ kind: 'page' });
  }
  expect(renders).toBe(1);
});

it('leaves a router fetch of a link with `from` to Next rather than keep an answer per code', async () => {
  const page = await plan('from=aaaaaaaaaaaaaaaa');
  const flight = { tree: null, prefetch: null, segmentPrefetch: null, nextUrl: null };
  const target = { match: matchRoute(`/goods/detail/${saleId}`)!, channelKey: 'AURORA', locale: 'en' };
  const asked = planFlight(page, flight as Parameters<typeof planFlight>[1], `/goods/detail/${saleId}?from=aaaaaaaaaaaaaaaa`, target);
  expect(asked.kind).toBe('next');
  const plainFetch = planFlight(page, flight as Parameters<typeof planFlight>[1], `/goods/detail/${saleId}`, target);
  expect(plainFetch).toMatchObject({ kind: 'cache' });
  if (plainFetch.kind === 'cache') expect(plainFetch.key).not.toContain('from');
});
