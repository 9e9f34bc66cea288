/**
 * @jest-environment node
 * @jest-environment-options {"customExportConditions": ["react-server", "node", "node-addons"]}
 */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { ReactNode } from 'react';
import { and, asc, eq } from 'drizzle-orm';
import { encode } from 'next-auth/jwt';
import { createTestDb } from '@/test/db';
import { seed } from '@/lib/demo/seed';
import { makeSale } from '@/test/buying';
import type { Db } from '@/lib/db/client';
import { campaignOffers, campaigns, channels } from '@/lib/db/schema';
import { findOrCreateUser } from '@/lib/auth/users';
import { createSession } from '@/lib/auth/sessions';
import { maskPhone } from '@/lib/auth/mask';
import { authSecret } from '@/lib/security/secret';
import { createOrder } from '@/lib/order/service';
import { loadPageChannel, pageScope, type PageParams } from './channel';
import { readSale } from './cached-reads';
import { loadPageOdds, loadPageSale, pageSale } from './sale';
import { pagePayOptions } from './pay';
import { loadPageOrder } from './order';
import { loadGiftCampaignsForPage, loadGiftForPage } from './gift';
import { loadExchangeOfferForPage } from './exchange';

// Issue 30: a page's layout, metadata, viewport and page each ask their loaders for what they show, and one request
// must read each thing once. React's `cache`, through which the loaders share a read (lib/page/loader.ts), exists only
// in React's server build (the `react-server` condition above, as Next bundles server components) and keeps values
// only inside a server request. So each request here is rendered by React's own server renderer (Next's copy, the one
// that renders the pages), its parts as server components of one render, and the database statements it runs are
// counted.

// What Next gives server components for next/navigation (its client hooks need React's client build).
jest.mock('next/navigation', () => jest.requireActual<object>('next/dist/client/components/navigation.react-server'));

/** The cookies of the request being rendered (next/headers reads them for the page's session). */
const mockCookies = new Map<string, string>();
jest.mock('next/headers', () => ({
  cookies: async () => ({
    get: (name: string) => (mockCookies.has(name) ? { name, value: mockCookies.get(name) } : undefined),
    has: (name: string) => mockCookies.has(name),
  }),
}));

// The cross-request cache (lib/cache/store.ts) stands aside: its entries last 750 ms, and every buy drops its sale's,
// so during a drop it often misses between a request's metadata and its page. Here every cached read goes to the
// database, and what one request shares is shared by its own loaders or not at all.
jest.mock('@/lib/cache/store', () => ({
  ...jest.requireActual<object>('@/lib/cache/store'),
  cachedRead: (_db: object, _key: string, _tags: readonly string[], load: () => Promise<unknown>) => load(),
}));

type FlightServer = {
  renderToPipeableStream(
    model: ReactNode,
    clientManifest: object,
    options: { onError(error: unknown): void },
  ): { pipe(destination: Writable): void };
};
// Next's own copy of React's server renderer; it ships without types.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS module Next vendors, not a package of ours
const flight = require('next/dist/compiled/react-server-dom-webpack/server.node') as FlightServer;

/** The statements of the request being rendered: SQL and arguments, times left out (each loader takes its own `now`). */
let recording: string[] | null = null;
const logger = {
  logQuery(query: string, params: unknown[]) {
    const args = params.map((p) => (p instanceof Date || (typeof p === 'string' && /^\d{4}-\d\d-\d\dT\d\d:/.test(p)) ? '<time>' : p));
    recording?.push(`${query} ${JSON.stringify(args)}`);
  },
};

const now = new Date();
/** getDb() answers this database to the pages' loaders. */
const store = globalThis as unknown as { storefrontDb?: Db };
let db: Db;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ db, close } = await createTestDb({ logger }));
  await seed(db, now);
  store.storefrontDb = db;
});
afterAll(async () => {
  delete store.storefrontDb;
  await close();
});

/** One part of a page's request (the layout, a metadata or viewport function, the page) as a server component. */
async function Part({ load }: { load: () => Promise<unknown> }) {
  await load();
  return null;
}

/**
 * Renders the parts of one request as Next does, concurrently inside one React server request, and answers the
 * statements they ran. Each part gets its own params promise, as each segment function does.
 */
async function request(parts: Array<() => Promise<unknown>>): Promise<string[]> {
  const errors: unknown[] = [];
  recording = [];
  try {
    await new Promise<void>((resolve) => {
      const tree = (
        <>
          {parts.map((load, i) => (
            <Part key={i} load={load} />
          ))}
        </>
      );
      flight
        .renderToPipeableStream(tree, {}, { onError: (error) => errors.push(error) })
        .pipe(new Writable({ write: (_chunk, _encoding, done) => done(), final: (done) => (resolve(), done()) }));
    });
    if (errors.length > 0) throw errors[0];
    return recording;
  } finally {
    recording = null;
  }
}

/** The statements that ran more than once. */
function repeated(statements: string[]): string[] {
  return [...new Set(statements.filter((s, i) => statements.indexOf(s) !== i))];
}

/** The channel layout's three functions (app/[channel]/[locale]/layout.tsx): metadata, viewport, the layout. */
function layout(params: () => Promise<PageParams>): Array<() => Promise<unknown>> {
  return [() => loadPageChannel(params()), () => loadPageChannel(params()), () => loadPageChannel(params())];
}

/** The params of a page, anew for each caller as Next hands them to each segment function. */
function paramsOf<P extends PageParams>(value: P): () => Promise<P> {
  return () => Promise.resolve({ ...value });
}

async function firstOffer(channelKey: string, kind: 'gift' | 'exchange') {
  const [row] = await db
    .select({ campaignId: campaigns.id, offerId: campaignOffers.id })
    .from(campaignOffers)
    .innerJoin(campaigns, eq(campaigns.id, campaignOffers.campaignId))
    .innerJoin(channels, eq(channels.id, campaigns.channelId))
    .where(and(eq(channels.key, channelKey), eq(campaigns.kind, kind)))
    .orderBy(asc(campaignOffers.id))
    .limit(1);
  if (!row) throw new Error(`the seed has no ${kind} offer on ${channelKey}`);
  return { id: String(row.campaignId), exchange_id: String(row.offerId) };
}

/** A buyer logged in on `channelKey`: the session cookie the storefront would have set, in this request's cookies. */
async function logIn(channelKey: string, phone: string): Promise<{ userId: number; channelId: number }> {
  const [channel] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, channelKey));
  const user = await findOrCreateUser(db, phone, now);
  const { token } = await createSession(db, { userId: user.id, channelId: channel!.id, now, ip: null });
  const cookie = await encode({
    token: { sub: user.uuid, apiToken: token, channel: channelKey, phone: maskPhone(phone) },
    secret: authSecret(),
  });
  mockCookies.set('next-auth.session-token', cookie);
  return { userId: user.id, channelId: channel!.id };
}

afterEach(() => mockCookies.clear());

/**
 * Renders one request of a page: the layout's parts and the page's, and checks that it read `table` (the case reads
 * what it is about) and ran no statement twice.
 */
async function expectEachReadOnce(params: () => Promise<PageParams>, page: Array<() => Promise<unknown>>, table: string) {
  const statements = await request([...layout(params), ...page]);
  expect(statements.join('\n')).toContain(`from "${table}"`);
  expect(repeated(statements)).toEqual([]);
}

describe('one request reads each thing once, however many of its parts ask', () => {
  it('(a read that is not shared is seen twice: what the cases below count)', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'loader-unshared', amount: 5, limitPerUser: 1, now });
    const read = () => readSale(pageScope({ id: channelId }), String(saleId));
    expect(repeated(await request([read, read]))).toHaveLength(1);
  });

  it('the home page: the channel, for the layout and the page', async () => {
    const params = paramsOf({ channel: 'AURORA', locale: 'en' });
    await expectEachReadOnce(params, [() => loadPageChannel(params())], 'channels');
  });

  it('the goods page: the sale and its odds, for its metadata and the page', async () => {
    const { saleId } = await makeSale(db, { code: 'loader-goods', amount: 5, limitPerUser: 1, now, isBlindBox: true });
    const params = paramsOf({ channel: 'AURORA', locale: 'en', saleId: String(saleId) });
    const page = async () => {
      const { channel, sale } = await loadPageSale(params());
      await loadPageOdds(channel, sale);
    };
    await expectEachReadOnce(params, [() => loadPageSale(params()), page], 'blind_box_prizes');
  });

  it('the home page opened on one sale (/detail/:id): the sale, for its metadata and the page', async () => {
    const { saleId } = await makeSale(db, { code: 'loader-detail', amount: 5, limitPerUser: 1, now });
    const params = paramsOf({ channel: 'AURORA', locale: 'en', id: String(saleId) });
    const load = async () => pageSale(await loadPageChannel(params()), (await params()).id);
    await expectEachReadOnce(params, [load, load], 'sales');
  });

  // issue 34: the pay page reads no session (the proxy's guard ran; the buyer's part is read in the browser).
  it('the pay page: the sale and the ways to pay', async () => {
    const { saleId } = await makeSale(db, { code: 'loader-pay', amount: 5, limitPerUser: 1, now });
    const params = paramsOf({ channel: 'AURORA', locale: 'en', saleId: String(saleId) });
    const page = async () => {
      const channel = await loadPageChannel(params());
      await pageSale(channel, String(saleId));
      await pagePayOptions(channel);
    };
    await expectEachReadOnce(params, [() => loadPageChannel(params()), page], 'sales');
  });

  it("the pay result of a buyer's order: the session and the order", async () => {
    const sale = await makeSale(db, { code: 'loader-result', amount: 5, limitPerUser: 1, now });
    const buyer = await logIn('AURORA', '13800005102');
    const order = await createOrder(
      { db, now, ...buyer },
      { saleId: sale.saleId, quantity: 1, idempotencyKey: 'loader-result-1' },
      300_000,
    );
    const params = paramsOf({ channel: 'AURORA', locale: 'en' });
    const page = async () => loadPageOrder(await loadPageChannel(params()), `/pay/fail?orderNo=${order.orderNo}`, order.orderNo);
    await expectEachReadOnce(params, [() => loadPageChannel(params()), page], 'orders');
  });

  it('the gift list: the campaigns', async () => {
    const params = paramsOf({ channel: 'GIFT', locale: 'zh-CN' });
    await expectEachReadOnce(params, [() => loadPageChannel(params()), () => loadGiftCampaignsForPage(params())], 'campaigns');
  });

  it.each([
    ['a visitor: the gift', null, 'campaign_offers'],
    ['a logged-in buyer: the session, the gift and what the buyer may receive', '13800005103', 'offer_quotas'],
  ])('a gift, to %s, for its metadata and the page', async (_, phone, table) => {
    if (phone) await logIn('GIFT', phone);
    const params = paramsOf({ channel: 'GIFT', locale: 'zh-CN', ...(await firstOffer('GIFT', 'gift')) });
    await expectEachReadOnce(params, [() => loadGiftForPage(params()), () => loadGiftForPage(params())], table);
  });

  it('an exchange offer, to a logged-in buyer: the session, the offer and what the buyer holds for it', async () => {
    await logIn('SWAP', '13800005104');
    const params = paramsOf({ channel: 'SWAP', locale: 'en', ...(await firstOffer('SWAP', 'exchange')) });
    await expectEachReadOnce(params, [() => loadExchangeOfferForPage(params()), () => loadExchangeOfferForPage(params())], 'auth_sessions');
  });
});

describe('what is not there goes to /404, as every unknown thing of the store does (spec §2)', () => {
  const to404 = { digest: expect.stringMatching(/^NEXT_REDIRECT;[a-z]+;\/404;/) };

  it('a gift of another channel, an id that is not one, an unknown offer', async () => {
    const gift = await firstOffer('GIFT', 'gift');
    await expect(loadGiftForPage(paramsOf({ channel: 'AURORA', locale: 'en', ...gift })())).rejects.toMatchObject(to404);
    await expect(loadGiftForPage(paramsOf({ channel: 'GIFT', locale: 'en', ...gift, id: '0x1' })())).rejects.toMatchObject(to404);
    await expect(loadGiftForPage(paramsOf({ channel: 'GIFT', locale: 'en', ...gift, exchange_id: '999999' })())).rejects.toMatchObject(
      to404,
    );
  });

  it('an exchange offer of another channel, a sale the channel does not have', async () => {
    const offer = await firstOffer('SWAP', 'exchange');
    await expect(loadExchangeOfferForPage(paramsOf({ channel: 'GIFT', locale: 'en', ...offer })())).rejects.toMatchObject(to404);
    await expect(loadPageSale(paramsOf({ channel: 'AURORA', locale: 'en', saleId: '2147483648' })())).rejects.toMatchObject(to404);
  });
});

describe('the pages', () => {
  it('make no loaders of their own: every per-request cache is a lib/page loader', () => {
    const root = path.resolve(__dirname, '../..');
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    const own = files(path.join(root, 'app'))
      .filter((f) => /\.tsx?$/.test(f) && /import\s*\{[^}]*\bcache\b[^}]*\}\s*from\s*'react'/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(root, f));
    expect(own).toEqual([]);
  });
});
