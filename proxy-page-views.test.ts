import { NextRequest } from 'next/server';
import { seededTestDb } from '@/test/db';
import { eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { channelPageViews, channels } from '@/lib/db/schema';
import { pageViewRecorder } from '@/lib/channel/page-views';
import { isRenderRequest, RENDER_HEADER } from '@/lib/page/rendered';
import { proxy } from './proxy';

// Where today's page views are counted (issue 31, "Channels"): at the proxy, where every store page request enters, so
// the pages the rendered-page cache answers count too; nothing else that reaches the proxy does.

const mockDbRef: { db?: Db } = {};
jest.mock('@/lib/db/client', () => ({ ...jest.requireActual('@/lib/db/client'), getDb: () => mockDbRef.db }));

const db = seededTestDb(new Date('2026-11-26T08:00:00Z'));
beforeAll(() => {
  mockDbRef.db = db;
});
afterAll(() => {
  mockDbRef.db = undefined;
});

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
// Not asking for HTML, so the proxy does not try to render through a server this test has not started.
const PAGE = { 'user-agent': PHONE, 'sec-fetch-dest': 'document', accept: '*/*' };

async function viewsOf(host: string, path: string, headers: Record<string, string>, method = 'GET'): Promise<number> {
  const counter = pageViewRecorder(() => db);
  const before = counter.pending();
  await proxy(new NextRequest(`http://${host}${path}`, { method, headers: { host, ...headers } }));
  return counter.pending() - before;
}

it('counts a person opening a store page, and the router fetching the next one', async () => {
  expect(await viewsOf('aurora.localhost:3000', '/', PAGE)).toBe(1);
  expect(await viewsOf('aurora.localhost:3000', '/goods/detail/1', PAGE)).toBe(1);
  expect(await viewsOf('aurora.localhost:3000', '/mine', { 'user-agent': PHONE, rsc: '1', 'sec-fetch-dest': 'empty' })).toBe(1);
});

/** This process's render secret, as the proxy's own render request carries it (lib/page/rendered.ts). */
function renderSecret(): string {
  isRenderRequest(new Headers());
  return (globalThis as unknown as { storefrontRenderSecret: string }).storefrontRenderSecret;
}

it('counts no prefetch, bot, HEAD, own render, redirect, unknown store, or console page', async () => {
  const none = {
    prefetch: await viewsOf('aurora.localhost:3000', '/', { ...PAGE, 'next-router-prefetch': '1', rsc: '1' }),
    bot: await viewsOf('aurora.localhost:3000', '/', { ...PAGE, 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0)' }),
    head: await viewsOf('aurora.localhost:3000', '/', PAGE, 'HEAD'),
    render: await viewsOf('aurora.localhost:3000', '/', { ...PAGE, [RENDER_HEADER]: renderSecret() }),
    redirect: await viewsOf('AURORA.localhost:3000', '/', PAGE),
    // The page cache answers a sale the channel does not have with a redirect to /404, which counts when it is opened.
    cacheRedirect: await viewsOf('aurora.localhost:3000', '/goods/detail/999999', { ...PAGE, accept: 'text/html' }),
    unknownStore: await viewsOf('nosuch.localhost:3000', '/', PAGE),
    console: await viewsOf('ops.localhost:3000', '/sign-in', PAGE),
  };
  expect(none).toEqual({ prefetch: 0, bot: 0, head: 0, render: 0, redirect: 0, cacheRedirect: 0, unknownStore: 0, console: 0 });
});

it("writes the counts to the day's table when the process shuts down (server.ts runs the hooks)", async () => {
  const hooks = (globalThis as unknown as { storefrontShutdownHooks?: (() => Promise<void>)[] }).storefrontShutdownHooks ?? [];
  expect(hooks.length).toBeGreaterThan(0);
  await Promise.all(hooks.map((hook) => hook()));
  expect(pageViewRecorder(() => db).pending()).toBe(0);
  const [row] = await db
    .select({ views: channelPageViews.views })
    .from(channelPageViews)
    .innerJoin(channels, eq(channels.id, channelPageViews.channelId))
    .where(eq(channels.key, 'AURORA'));
  expect(row?.views).toBe(3);
});
