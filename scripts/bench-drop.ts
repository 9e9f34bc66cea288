/**
 * `npm run bench:drop`: a limited drop against the running storefront over HTTP (docs/benchmarks.md).
 *
 * Prepares a database (a fresh embedded one under a temporary folder, or the PostgreSQL of DATABASE_URL) with the
 * demo seed, one bench sale of BENCH_ITEMS copies at 1 per buyer, and BENCH_BUYERS buyers with live sessions; starts
 * the entry server (server.ts, as `npm start`); lets buyers wait on the goods page, logged in (one profile and one sale
 * read per connection, as the page makes them); lets every buyer tap buy at once (BENCH_CONCURRENCY connections), retrying a busy answer (HTTP 503,
 * load shedding) with the same idempotency key as the pay page does; some buyers tap twice with one key (a retried
 * request) or with two keys (a double tap); a no-op call (GET /api/ping) runs throughout, on one lane. A connection
 * that fails (reset, refused) counts as an error, and the buyer taps again with the same key. Then the no-op phase:
 * as many GET /api/ping calls as the drop's answered buy calls, over as many connections, on the same server. Then it
 * stops the server, reads the database and prints orders created, oversell, per-user violations, duplicates, the
 * latencies and the targets (issue 16: drop wall time ≤ 2 × the no-op phase's, buy p99 ≤ 3 × its p99, busy answers
 * ≤ 10% of buy calls). Exits 1 when anything was oversold, doubled or lost, or a target was missed.
 *
 * BENCH_PROCESSES=N (PostgreSQL only) starts N server processes on ports BENCH_PORT… with JOBS=off, and one
 * `npm run worker` for the jobs; the connections are spread over the servers in turn, for the drop and the no-op phase.
 *
 * BENCH_MODE=lottery, the lottery mode (issue 35; scripts/bench-lottery.ts): registrations, the draw, the purchase rounds.
 * BENCH_MODE=queue, the waiting room's mode (issue 35; scripts/bench-queue.ts): joins before the opening, position
 * reads at the page's pace, the admitted buyers' orders.
 *
 * BENCH_JOURNEY=1, the journey mode (issue 34; scripts/bench-journey.ts): each buyer, logged in (the session cookie a
 * phone carries, scripts/bench-buyer.ts), loads the goods page and the pay page as documents, makes the pay page's
 * own-data call, taps Pay (order/create), pays at the sandbox cashier as the demo's browser does (pay/create, the
 * cashier page, its pay call) and lands on the result page; a refused buyer reads the sellout page. Then as many
 * GET /api/ping as the journey made requests. Prints each step's count, p50/p99 and busy answers, the targets of
 * issue 34 (wall ≤ 2.5 × no-op, each step's p99 ≤ 3 × no-op p99, busy ≤ 5%, every step answered as expected) and the
 * audit, which adds: every paid order paid exactly once, and as many paid orders as the cashier said paid.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfNeeded } from './build-if-needed';
import { makeBenchApiBuyers, makeBenchBuyers } from './bench-buyer';
import { buyerJourney, JourneyTally, journeyTargets, stepLines, type Kind, type Send } from './bench-journey';
import { intEnv, percentile, percentileMs, startJobsWorker, startServer, stopServer, waitForHealth } from './bench-server';
import { httpRequester, laneAt, type Lane } from './bench-http';
import { lotteryBench } from './bench-lottery';
import { queueBench } from './bench-queue';

const BUYERS = Math.min(intEnv('BENCH_BUYERS', 10_000), 999_999);
const ITEMS = intEnv('BENCH_ITEMS', 500);
const PORT = intEnv('BENCH_PORT', 3200);
/** Server processes on one PostgreSQL (ports PORT, PORT + 1, …), with JOBS=off and one `npm run worker`. */
const PROCESSES = intEnv('BENCH_PROCESSES', 1);
/** The journey mode (issue 34): the whole drop day of each buyer, not order/create alone. */
const JOURNEY = process.env.BENCH_JOURNEY === '1';
/**
 * BENCH_MODE=lottery (issue 35): a lottery sale's registration, draw and purchase rounds (scripts/bench-lottery.ts);
 * BENCH_MODE=queue: a sale through a waiting room, its opening (scripts/bench-queue.ts).
 */
const MODE = process.env.BENCH_MODE ?? 'drop';
if (!['drop', 'lottery', 'queue'].includes(MODE)) {
  console.error(`BENCH_MODE: '${MODE}' is not a mode; use 'lottery' or 'queue', or leave it unset for the drop`);
  process.exit(2);
}
/**
 * A connection (lane): the server it talks to (lanes are spread over the processes in turn) and the loopback address
 * it comes from. Each lane is one phone, so each has an address of its own (127.1.x.y), as buyers arrive: the
 * server's per-client limits (the buy lane's places per address, issue 29) stay on and count each buyer as one.
 */
const laneOf = (lane: number): Lane => laneAt(lane, PORT, PROCESSES);
const CONCURRENCY = intEnv('BENCH_CONCURRENCY', 256);
const CHANNEL = 'AURORA';
/** One buyer in RETRY_EVERY sends its create twice with the same key; one in DOUBLE_EVERY twice with two keys. */
const RETRY_EVERY = 20;
const DOUBLE_EVERY = 25;

/** A buyer: the API token, and in the journey mode the Cookie header of their web session (scripts/bench-buyer.ts). */
type Buyer = { userId: number; token: string; cookie?: string };
type Prepared = { saleId: number; buyers: Buyer[] };

const usingPostgres = Boolean(process.env.DATABASE_URL);
if (PROCESSES > 1 && !usingPostgres) {
  console.error(
    'BENCH_PROCESSES: more than one server process needs DATABASE_URL (a PostgreSQL they share); the embedded database belongs to one process.',
  );
  process.exit(2);
}
const pgliteDir = usingPostgres ? null : mkdtempSync(path.join(os.tmpdir(), 'bench-drop-'));
if (pgliteDir) process.env.PGLITE_DIR = pgliteDir;
process.env.DEMO_MODE ??= '1';
process.env.DEFAULT_CHANNEL ??= CHANNEL;
process.env.PORT = String(PORT);

async function prepare(): Promise<Prepared> {
  const { openDb } = await import('../lib/db/client');
  const { migrate } = await import('../lib/db/migrate');
  const { seed } = await import('../lib/demo/seed');
  const { makeSale } = await import('../test/buying');
  const { db, close } = openDb();
  try {
    await migrate(db);
    const now = new Date();
    await seed(db, now);
    const run = randomBytes(3).toString('hex');
    const { saleId, channelId } = await makeSale(db, { code: `BENCH-${run}`, amount: ITEMS, limitPerUser: 1, now });
    // The journey's buyers browse the store's pages, so they carry the web session cookie too (issue 34).
    if (JOURNEY) return { saleId, buyers: await makeBenchBuyers(db, { channelKey: CHANNEL, count: BUYERS, run, now }) };
    const buyers = await makeBenchApiBuyers(db, { channelId, count: BUYERS, run, prefix: 'bench', now });
    return { saleId, buyers };
  } finally {
    await close();
  }
}

const request = httpRequester(PORT, CONCURRENCY + 8);

/**
 * Opens CONCURRENCY connections and leaves them idle, before each phase: both phases then run over as many warm
 * connections. A saturated Node process accepts about one new connection per turn of its event loop, so a connection
 * opened mid-phase waits seconds for its first answer (docs/benchmarks.md); that is the cost of connecting, not of
 * the call measured.
 */
async function warmConnections(): Promise<void> {
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, lane) => request('GET', '/api/ping', undefined, undefined, laneOf(lane))));
}

/**
 * Before the sale opens, buyers wait on its goods page, logged in: on each lane one of them loads their profile and the
 * sale's detail, as the page does (two reads; nothing is bought). So the drop starts on a server that has been serving
 * its buyers, not on one that has run no API call yet; the first claim still runs cold (docs/benchmarks.md).
 */
async function waitOnTheGoodsPage(saleId: number, buyers: Buyer[]): Promise<void> {
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, buyers.length) }, async (_, lane) => {
      const buyer = buyers[buyers.length - 1 - lane]!;
      for (const [urlPath, body] of [
        ['/api/market/api/userAttribute/queryByUserUuid', {}],
        ['/api/market/api/saleRecord/detail/v2', { id: String(saleId) }],
      ] as const) {
        const answer = await request('POST', urlPath, body, buyer.token, laneOf(lane));
        if (answer.network || answer.status !== 200) stats.failures.push(`goods page: ${answer.network ?? `HTTP ${answer.status}`}`);
      }
    }),
  );
}

const waitForServer = (port: number) => waitForHealth(() => request('GET', '/api/health', undefined, undefined, port), port);

type Envelope = { code?: number; data?: { orderNo?: string; reason?: string } | null; message?: string };

const stats = {
  buyMs: [] as number[],
  shedMs: [] as number[],
  pingMs: [] as number[],
  shed: 0,
  ordersSeen: new Set<string>(),
  refused: new Map<string, number>(),
  failures: [] as string[],
  retriedKeyMismatch: 0,
  /** Journey mode: navigations the server sent again with another `_rsc` (our router tree was not the browser's). */
  rscRedirects: 0,
};

/** One create call, retried on a busy answer with the same key, as the pay page does. Returns the order number or null. */
async function create(saleId: number, buyer: Buyer, key: string, lane: Lane): Promise<string | null> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const { status, json, ms, retryAfterMs, network } = await request(
      'POST',
      '/api/market/api/order/create',
      { saleId, quantity: 1, idempotencyKey: key },
      buyer.token,
      lane,
    );
    const envelope = (json ?? {}) as Envelope;
    if (network) {
      // The connection failed (reset, refused): an error a buyer would see. Their client taps again with the key.
      stats.failures.push(`network: ${network}`);
      await new Promise((r) => setTimeout(r, 200 + Math.random() * 300));
      continue;
    }
    if (status === 503 || status === 429) {
      stats.shed++;
      stats.shedMs.push(ms);
      // As a buyer does on the busy toast: tap again after the server's Retry-After (1 s), give or take.
      await new Promise((r) => setTimeout(r, retryAfterMs + Math.random() * 500));
      continue;
    }
    stats.buyMs.push(ms);
    if (status === 200 && envelope.code === 200 && envelope.data?.orderNo) return envelope.data.orderNo;
    if (status === 200 && envelope.code === 409) {
      const reason = envelope.data?.reason ?? 'other';
      stats.refused.set(reason, (stats.refused.get(reason) ?? 0) + 1);
      return null;
    }
    stats.failures.push(`HTTP ${status} ${JSON.stringify(json).slice(0, 200)}`);
    return null;
  }
  stats.failures.push('still busy after 600 attempts');
  return null;
}

async function buy(saleId: number, buyer: Buyer, index: number, lane: Lane): Promise<void> {
  const key = randomBytes(12).toString('base64url');
  if (index % DOUBLE_EVERY === 0) {
    // A double tap that made two keys: the per-user limit must hold across both.
    const orders = await Promise.all([
      create(saleId, buyer, key, lane),
      create(saleId, buyer, randomBytes(12).toString('base64url'), lane),
    ]);
    for (const o of orders) if (o) stats.ordersSeen.add(o);
    return;
  }
  const orderNo = await create(saleId, buyer, key, lane);
  if (orderNo) stats.ordersSeen.add(orderNo);
  if (orderNo && index % RETRY_EVERY === 0) {
    // The same tap retried (a lost answer): must give the same order back.
    const again = await create(saleId, buyer, key, lane);
    if (again !== orderNo) stats.retriedKeyMismatch++;
  }
}

async function drop(saleId: number, buyers: Buyer[]): Promise<number> {
  let next = 0;
  let done = false;
  const started = performance.now();
  const workers = Array.from({ length: CONCURRENCY }, async (_, lane) => {
    while (next < buyers.length) {
      const index = next++;
      await buy(saleId, buyers[index]!, index, laneOf(lane));
    }
  });
  // The no-op call, measured under the same load: one lane, 50 calls a second at most, so it measures, not loads.
  const pinger = (async () => {
    while (!done) {
      stats.pingMs.push((await request('GET', '/api/ping')).ms);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await Promise.all(workers);
  done = true;
  await pinger;
  return performance.now() - started;
}

/**
 * The no-op phase: as many GET /api/ping calls as the drop's answered buy calls, over the same number of connections
 * against the same servers. What the drop is measured against: the cost of that many calls that do nothing.
 */
async function noopPhase(calls: number): Promise<{ wall: number; ms: number[] }> {
  const ms: number[] = [];
  let sent = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, lane) => {
      while (sent < calls) {
        sent++;
        const answer = await request('GET', '/api/ping', undefined, undefined, laneOf(lane));
        if (answer.network || answer.status !== 200) stats.failures.push(`no-op: ${answer.network ?? `HTTP ${answer.status}`}`);
        ms.push(answer.ms);
      }
    }),
  );
  return { wall: performance.now() - started, ms };
}

/** What Chromium on a phone sends when a link is opened (as scripts/bench-pages.ts's PAGE_LOAD_HEADERS). */
const PAGE_LOAD_HEADERS = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
  'user-agent': 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
};
const USER_AGENT = PAGE_LOAD_HEADERS['user-agent'];

/**
 * The router state tree the app router sends with a navigation from the page at `from` (Next's
 * `Next-Router-State-Tree`, as Chromium sent it on 2026-11-29): the layouts and the page the buyer has, from the root
 * through the channel's and the language's segments to the page's; Next renders from where it differs from the page
 * asked for. With it, `Next-Url` (the page's path inside the app) and `_rsc`, the hash of both.
 */
async function routerHeadersFrom(from: string): Promise<{ tree: string; nextUrl: string; rsc: string }> {
  const { matchRoute } = await import('../lib/channel/routes');
  const { computeCacheBustingSearchParam } = await import('next/dist/shared/lib/router/utils/cache-busting-search-param');
  const [pathname = '/'] = from.split('?');
  const match = matchRoute(pathname);
  if (!match) throw new Error(`no route for ${from}`);
  let node: unknown = ['__PAGE__', {}, null, null, 0];
  for (const part of match.route.pattern.split('/').filter(Boolean).reverse()) {
    const segment = part.startsWith(':') ? [part.slice(1), match.params[part.slice(1)], 'd', null] : part;
    node = [segment, { children: node }, null, null, 0];
  }
  node = [['locale', 'en', 'd', null], { children: node }, null, null, 16];
  node = [['channel', CHANNEL, 'd', null], { children: node }, null, null, 16];
  const tree = encodeURIComponent(JSON.stringify(['', { children: node }, null, null, 16]));
  const nextUrl = `/${CHANNEL}/en${pathname === '/' ? '' : pathname}`;
  return { tree, nextUrl, rsc: await computeCacheBustingSearchParam(undefined, undefined, tree, nextUrl) };
}

/**
 * The journey's HTTP (issue 34): a document load as a phone opens a link, the app router's flight fetch for an
 * in-app navigation (router.push / router.replace after a tap; `_rsc` as Next's client computes it, and its redirect
 * followed if the server asks for another), or an API call as the store's client sends it (token, cookie, Origin).
 */
function journeySend(buyer: Buyer, lane: Lane): Send {
  const origin = `http://aurora.localhost:${lane.port}`;
  const cookie: Record<string, string> = buyer.cookie ? { cookie: buyer.cookie } : {};
  const headersOf = (kind: Kind): Record<string, string> => {
    if (kind === 'document') return { ...PAGE_LOAD_HEADERS, 'accept-encoding': 'gzip', ...cookie };
    if (kind === 'api')
      return {
        accept: 'application/json',
        origin,
        'sec-fetch-site': 'same-origin',
        'sec-fetch-mode': 'cors',
        'user-agent': USER_AGENT,
        ...cookie,
      };
    return {
      accept: '*/*',
      rsc: '1',
      'accept-encoding': 'gzip',
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'cors',
      'sec-fetch-dest': 'empty',
      'user-agent': USER_AGENT,
      ...cookie,
    };
  };
  return async ({ kind, method, path: urlPath, body, from }) => {
    const headers = headersOf(kind);
    if (kind !== 'navigation') return request(method, urlPath, body, kind === 'api' ? buyer.token : undefined, lane, headers);
    const router = await routerHeadersFrom(from ?? '/');
    headers['next-router-state-tree'] = router.tree;
    headers['next-url'] = router.nextUrl;
    const url = `${urlPath}${urlPath.includes('?') ? '&' : '?'}_rsc=${router.rsc}`;
    const first = await request('GET', url, undefined, undefined, lane, headers);
    if (first.status !== 307 || !first.location?.includes('_rsc=')) return first;
    stats.rscRedirects++;
    const then = await request('GET', first.location, undefined, undefined, lane, headers);
    return { ...then, ms: first.ms + then.ms };
  };
}

/**
 * The journey mode's drop: every buyer takes the whole journey (scripts/bench-journey.ts), BENCH_CONCURRENCY at a
 * time on warm connections, with the same retried taps and double taps as the buy-only mode.
 */
async function journeyDrop(saleId: number, buyers: Buyer[], tally: JourneyTally): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, laneNo) => {
      const lane = laneOf(laneNo);
      while (next < buyers.length) {
        const index = next++;
        const buyer = buyers[index]!;
        await buyerJourney(journeySend(buyer, lane), tally, {
          saleId,
          key: randomBytes(12).toString('base64url'),
          secondKey: index % DOUBLE_EVERY === 0 ? randomBytes(12).toString('base64url') : undefined,
          retryTap: index % RETRY_EVERY === 0,
        });
      }
    }),
  );
  return performance.now() - started;
}

/** The no-op phase of the journey mode: `calls` GET /api/ping over as many connections as the journey used. */
async function journeyNoop(calls: number): Promise<{ wallMs: number; ms: number[] }> {
  const { wall, ms } = await noopPhase(calls);
  return { wallMs: wall, ms };
}

type Audit = { sold: number; left: number; orders: number; overLimit: number; duplicateKeys: number };

/**
 * The journey's payments: orders of the sale paid (status 1), payments settled paid per order (more than one is a
 * doubled payment), paid orders without a paid payment, and unpaid orders left (every buyer with an order paid).
 */
async function auditPayments(saleId: number): Promise<{ paidOrders: number; doubled: number; paidWithout: number; unpaid: number }> {
  const { sql } = await import('drizzle-orm');
  const { openDb } = await import('../lib/db/client');
  const { db, close } = openDb();
  try {
    const result = (await db.execute(sql`
      select
        count(*) filter (where o.status_trade = 1) as paid_orders,
        count(*) filter (where p.n > 1) as doubled,
        count(*) filter (where o.status_trade = 1 and coalesce(p.n, 0) = 0) as paid_without,
        count(*) filter (where o.status_trade = 0) as unpaid
      from orders o
      left join (select order_id, count(*) as n from payments where status = 1 group by order_id) p on p.order_id = o.id
      where o.sale_id = ${saleId}`)) as unknown as { rows?: Record<string, string | number>[] } | Record<string, string | number>[];
    const row = (Array.isArray(result) ? result : (result.rows ?? []))[0]!;
    return {
      paidOrders: Number(row.paid_orders),
      doubled: Number(row.doubled),
      paidWithout: Number(row.paid_without),
      unpaid: Number(row.unpaid),
    };
  } finally {
    await close();
  }
}

async function audit(saleId: number): Promise<Audit> {
  const { sql } = await import('drizzle-orm');
  const { openDb } = await import('../lib/db/client');
  const { db, close } = openDb();
  try {
    const rows = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => {
      const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
      return Array.isArray(result) ? result : (result.rows ?? []);
    };
    // Copies held by orders that still hold stock: unpaid (0) and paid (1); cancelled and closed ones gave it back.
    const [held] = await rows<{ sold: string | number; orders: string | number }>(
      sql`select coalesce(sum(quantity), 0) as sold, count(*) as orders from orders where sale_id = ${saleId} and status_trade in (0, 1)`,
    );
    const [sale] = await rows<{ left: number }>(sql`select amount_available as left from sales where id = ${saleId}`);
    const [overLimit] = await rows<{ n: string | number }>(
      sql`select count(*) as n from (select user_id from orders where sale_id = ${saleId} and status_trade in (0, 1) group by user_id having sum(quantity) > 1) t`,
    );
    const [dupes] = await rows<{ n: string | number }>(
      sql`select count(*) as n from (select user_id, idempotency_key from orders where sale_id = ${saleId} group by 1, 2 having count(*) > 1) t`,
    );
    return {
      sold: Number(held!.sold),
      orders: Number(held!.orders),
      left: Number(sale!.left),
      overLimit: Number(overLimit!.n),
      duplicateKeys: Number(dupes!.n),
    };
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  console.log(
    `bench:drop${JOURNEY ? ' (journey mode)' : ''}: ${BUYERS} buyers, ${ITEMS} items (1 per buyer), ${CONCURRENCY} connections, on ${usingPostgres ? 'PostgreSQL (DATABASE_URL)' : `the embedded database (${pgliteDir})`}` +
      (PROCESSES > 1 ? `, ${PROCESSES} server processes (JOBS=off, ports ${PORT}–${PORT + PROCESSES - 1}) and npm run worker` : ''),
  );
  buildIfNeeded();
  if (MODE === 'lottery') return lotteryBench({ port: PORT, processes: PROCESSES, concurrency: CONCURRENCY, items: ITEMS, pgliteDir });
  if (MODE === 'queue')
    return queueBench({ port: PORT, processes: PROCESSES, concurrency: CONCURRENCY, buyers: BUYERS, items: ITEMS, pgliteDir });
  const t = performance.now();
  const { saleId, buyers } = await prepare();
  console.log(`prepared sale ${saleId} and ${buyers.length} buyers with sessions in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // More than one server process: the jobs run once, in `npm run worker` (docs/benchmarks.md, "Scale-out").
  if (PROCESSES > 1) process.env.JOBS = 'off';
  const servers = Array.from({ length: PROCESSES }, (_, i) => startServer(PORT + i));
  if (PROCESSES > 1) servers.push(startJobsWorker());
  const stopAll = () => Promise.all(servers.map((server) => stopServer(server)));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      void stopAll().finally(() => process.exit(130));
    });
  }
  let wall = 0;
  let noop = { wall: 0, ms: [] as number[] };
  const tally = new JourneyTally();
  try {
    for (let i = 0; i < PROCESSES; i++) {
      const port = PORT + i;
      await waitForServer(port);
      // Warm-up: the first calls load the route modules; neither buys anything.
      for (let j = 0; j < 20; j++) {
        await request('GET', '/api/ping', undefined, undefined, port);
        await request('POST', '/api/market/api/order/list', { pageNum: 1, pageSize: 1 }, buyers[j % buyers.length]!.token, port);
      }
    }
    await warmConnections();
    if (JOURNEY) {
      await warmJourneyPages(saleId, buyers);
      wall = await journeyDrop(saleId, buyers, tally);
      await warmConnections();
      const { wallMs, ms } = await journeyNoop(tally.requests);
      noop = { wall: wallMs, ms };
    } else {
      await waitOnTheGoodsPage(saleId, buyers);
      wall = await drop(saleId, buyers);
      await warmConnections();
      noop = await noopPhase(stats.buyMs.length);
    }
  } finally {
    await stopAll();
    request.close();
  }
  if (JOURNEY) return reportJourney(saleId, tally, wall, noop);

  const result = await audit(saleId);
  const oversell = Math.max(0, result.sold - ITEMS) + Math.max(0, -result.left);
  const lost = ITEMS - result.sold - result.left;
  const duplicates = result.duplicateKeys + stats.retriedKeyMismatch + Math.max(0, result.orders - stats.ordersSeen.size);
  const refused = [...stats.refused.entries()].map(([reason, n]) => `${reason} ${n}`).join(', ') || 'none';
  const lines: [string, string][] = [
    ['orders created', String(result.orders)],
    ['copies sold / left', `${result.sold} / ${result.left} of ${ITEMS}`],
    ['oversell', String(oversell)],
    ['copies lost (neither sold nor left)', String(lost)],
    ['per-user violations', String(result.overLimit)],
    ['duplicates', String(duplicates)],
    ['refused (business answers)', refused],
    ['busy answers (HTTP 503, retried)', String(stats.shed)],
    ['errors', String(stats.failures.length)],
    ['drop wall time', `${(wall / 1000).toFixed(2)} s`],
    ['no-op phase wall time', `${(noop.wall / 1000).toFixed(2)} s  (${noop.ms.length} calls of GET /api/ping, ${CONCURRENCY} connections)`],
    ['buy call p50 / p99', `${percentile(stats.buyMs, 50)} / ${percentile(stats.buyMs, 99)}  (${stats.buyMs.length} calls)`],
    ['busy answer p50 / p99', `${percentile(stats.shedMs, 50)} / ${percentile(stats.shedMs, 99)}  (${stats.shedMs.length} calls)`],
    ['no-op phase call p50 / p99', `${percentile(noop.ms, 50)} / ${percentile(noop.ms, 99)}`],
    [
      'no-op during the drop p50 / p99',
      `${percentile(stats.pingMs, 50)} / ${percentile(stats.pingMs, 99)}  (${stats.pingMs.length} calls, one lane)`,
    ],
  ];
  const width = Math.max(...lines.map(([k]) => k.length));
  for (const [k, v] of lines) console.log(`  ${k.padEnd(width)}  ${v}`);
  for (const f of stats.failures.slice(0, 5)) console.log(`  error: ${f}`);

  if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  const expectedSold = Math.min(ITEMS, BUYERS);
  const correct =
    oversell === 0 &&
    lost === 0 &&
    result.overLimit === 0 &&
    duplicates === 0 &&
    stats.failures.length === 0 &&
    result.sold === expectedSold;
  const noopP99 = percentileMs(noop.ms, 99) ?? 0;
  const buyP99 = percentileMs(stats.buyMs, 99) ?? 0;
  const busyShare = stats.buyMs.length ? stats.shed / stats.buyMs.length : 0;
  // Targets (issue 16, docs/benchmarks.md): the drop costs little more than as many calls that do nothing.
  const targets: [string, string, boolean][] = [
    ['drop wall time ≤ 2 × no-op phase', `${(wall / noop.wall).toFixed(2)} ×`, wall <= 2 * noop.wall],
    ['buy p99 ≤ 3 × no-op phase p99', `${(buyP99 / noopP99).toFixed(2)} ×`, buyP99 <= 3 * noopP99],
    ['busy answers ≤ 10% of buy calls', `${(busyShare * 100).toFixed(1)}%`, busyShare <= 0.1],
    [`${expectedSold} sold; no oversell, loss, violation, duplicate or error`, correct ? 'yes' : 'no', correct],
  ];
  console.log('  targets:');
  const targetWidth = Math.max(...targets.map(([k]) => k.length));
  for (const [name, figure, met] of targets)
    console.log(`    ${name.padEnd(targetWidth)}  ${figure.padStart(8)}  ${met ? 'met' : 'MISSED'}`);
  if (!correct) {
    console.error(
      `bench:drop: FAILED (expected ${expectedSold} copies sold with no oversell, loss, per-user violation, duplicate or error)`,
    );
    process.exit(1);
  }
  if (targets.some(([, , met]) => !met)) {
    console.error('bench:drop: a target was missed');
    process.exit(1);
  }
}

/**
 * Before the journey: on each process, the pages and calls of the journey load their code (the first render of a route
 * loads its modules), from buyers who only look (nothing is bought).
 */
async function warmJourneyPages(saleId: number, buyers: Buyer[]): Promise<void> {
  for (let i = 0; i < PROCESSES; i++) {
    const lane = laneOf(i);
    const buyer = buyers[buyers.length - 1 - i]!;
    const send = journeySend(buyer, lane);
    for (let j = 0; j < 5; j++) {
      await send({ step: 'goods page', kind: 'document', method: 'GET', path: `/goods/detail/${saleId}` });
      await send({ step: 'pay page', kind: 'document', method: 'GET', path: `/pay/${saleId}` });
      await send({ step: 'sellout page', kind: 'navigation', method: 'GET', path: '/sellout', from: `/pay/${saleId}` });
    }
  }
}

async function reportJourney(saleId: number, tally: JourneyTally, wall: number, noop: { wall: number; ms: number[] }): Promise<void> {
  const result = await audit(saleId);
  const payments = await auditPayments(saleId);
  const oversell = Math.max(0, result.sold - ITEMS) + Math.max(0, -result.left);
  const lost = ITEMS - result.sold - result.left;
  const duplicates = result.duplicateKeys + tally.retriedKeyMismatch + Math.max(0, result.orders - tally.orders.size);
  const paidSeen = [...tally.paid.values()];
  const paidTwice = payments.doubled + paidSeen.filter((n) => n > 1).length;
  const refused = [...tally.refused.entries()].map(([reason, n]) => `${reason} ${n}`).join(', ') || 'none';
  const lines: [string, string][] = [
    ['orders created', String(result.orders)],
    ['copies sold / left', `${result.sold} / ${result.left} of ${ITEMS}`],
    ['oversell', String(oversell)],
    ['copies lost (neither sold nor left)', String(lost)],
    ['per-user violations', String(result.overLimit)],
    ['duplicates', String(duplicates)],
    ['orders paid (database / cashier said paid)', `${payments.paidOrders} / ${paidSeen.length}`],
    ['paid twice / paid without a payment / left unpaid', `${paidTwice} / ${payments.paidWithout} / ${payments.unpaid}`],
    ['refused (business answers)', refused],
    ['journey requests', `${tally.requests} (busy ${[...tally.busy.values()].reduce((a, b) => a + b, 0)}, failed ${tally.failures})`],
    ['navigations redirected for _rsc', String(stats.rscRedirects)],
    ['journey wall time', `${(wall / 1000).toFixed(2)} s`],
    ['no-op phase wall time', `${(noop.wall / 1000).toFixed(2)} s  (${noop.ms.length} calls of GET /api/ping, ${CONCURRENCY} connections)`],
    ['no-op phase call p50 / p99', `${percentile(noop.ms, 50)} / ${percentile(noop.ms, 99)}`],
  ];
  const width = Math.max(...lines.map(([k]) => k.length));
  for (const [k, v] of lines) console.log(`  ${k.padEnd(width)}  ${v}`);
  console.log('  steps:');
  const steps = stepLines(tally);
  const stepWidth = Math.max(...steps.map(([k]) => k.length));
  for (const [k, v] of steps) console.log(`    ${k.padEnd(stepWidth)}  ${v}`);
  for (const f of stats.failures.slice(0, 5)) console.log(`  error: ${f}`);

  if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  const expectedSold = Math.min(ITEMS, BUYERS);
  const correct =
    oversell === 0 &&
    lost === 0 &&
    result.overLimit === 0 &&
    duplicates === 0 &&
    stats.failures.length === 0 &&
    result.sold === expectedSold &&
    paidTwice === 0 &&
    payments.paidWithout === 0 &&
    payments.paidOrders === paidSeen.length;
  const targets = journeyTargets(tally, wall, { wallMs: noop.wall, ms: noop.ms });
  targets.push({
    name: `${expectedSold} sold; no oversell, loss, violation, duplicate; every paid order paid once`,
    figure: correct ? 'yes' : 'no',
    met: correct,
  });
  console.log('  targets (issue 34):');
  const targetWidth = Math.max(...targets.map((t) => t.name.length));
  for (const t of targets) console.log(`    ${t.name.padEnd(targetWidth)}  ${t.figure.padStart(10)}  ${t.met ? 'met' : 'MISSED'}`);
  if (!correct) {
    console.error('bench:drop: FAILED (the audit found oversell, loss, a per-user violation, a duplicate or a payment not made once)');
    process.exit(1);
  }
  if (targets.some((t) => !t.met)) {
    console.error('bench:drop: a target was missed');
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  process.exit(1);
});
