/**
 * `npm run bench:pages`: how fast the pages a shared link opens are served, against the no-op `/api/ping` in the same
 * run (DESIGN §10; docs/benchmarks.md). Builds if needed, starts the entry server (server.ts, as `npm start`) on a fresh
 * embedded database with the demo seed, then loads each target with BENCH_CONNECTIONS keep-alive connections for
 * BENCH_SECONDS: ping, goods detail, home, /404, ping again. Prints requests per second, p50 and p99, each page's rate
 * as a share of ping's (the mean of the two ping rounds) and its p99 against ping's, with the targets of DESIGN §10.
 * Exits 1 when a page answered with an unexpected status.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildIfNeeded } from './build-if-needed';
import { percentileMs, startServer, stopServer, waitForHealth } from './bench-server';

const PORT = intEnv('BENCH_PORT', 3310);
const CONNECTIONS = intEnv('BENCH_CONNECTIONS', 20);
const SECONDS = intEnv('BENCH_SECONDS', 10);
const HOST = `aurora.localhost:${PORT}`;

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name}: must be a whole number of 1 or more (got "${raw}")`);
    process.exit(2);
  }
  return value;
}

type Target = { name: string; path: string; status: number; minShare?: number; maxP99Ratio?: number };

/** DESIGN §10's targets: share of ping's request rate, p99 as a multiple of ping's p99. */
const PAGES: Target[] = [
  { name: 'goods detail', path: '/goods/detail/1', status: 200, minShare: 0.25, maxP99Ratio: 2.5 },
  { name: 'home', path: '/', status: 200, minShare: 0.25 },
  // The spec's /404 route (spec §2) is a page of its own and answers 200, like the other pages.
  { name: '/404', path: '/404', status: 200, minShare: 0.4 },
];
const PING: Target = { name: 'ping', path: '/api/ping', status: 200 };

const pgliteDir = mkdtempSync(path.join(os.tmpdir(), 'bench-pages-'));
process.env.PGLITE_DIR = pgliteDir;
process.env.DEMO_MODE ??= '1';
process.env.DEFAULT_CHANNEL ??= 'AURORA';

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS + 4 });

function get(urlPath: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: PORT, method: 'GET', path: urlPath, headers: { host: HOST, 'accept-encoding': 'gzip' }, agent },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

type Round = { rate: number; p50: number; p99: number; wrong: number; wrongStatus: number | null };

/** Closed loop: each connection sends its next request when the last one is answered, for SECONDS. */
async function load(target: Target): Promise<Round> {
  const latencies: number[] = [];
  let wrong = 0;
  let wrongStatus: number | null = null;
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const { status, ms } = await get(target.path);
        if (status !== target.status) {
          wrong++;
          wrongStatus = status;
        }
        latencies.push(ms);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    rate: latencies.length / seconds,
    p50: percentileMs(latencies, 50) ?? 0,
    p99: percentileMs(latencies, 99) ?? 0,
    wrong,
    wrongStatus,
  };
}

async function prepare(): Promise<void> {
  const { openDb } = await import('../lib/db/client');
  const { migrate } = await import('../lib/db/migrate');
  const { seed } = await import('../lib/demo/seed');
  const { db, close } = openDb();
  try {
    await migrate(db);
    await seed(db, new Date());
  } finally {
    await close();
  }
}

const fmt = (n: number) => n.toFixed(1);

async function main(): Promise<void> {
  console.log(`bench:pages: ${CONNECTIONS} connections, ${SECONDS} s per target, on ${HOST} (embedded database ${pgliteDir})`);
  buildIfNeeded();
  await prepare();
  const server = startServer(PORT);
  let failed = false;
  try {
    await waitForHealth(() => get('/api/health'), PORT);
    // Warm every route once (first renders compile and fill caches), then measure.
    for (const t of [PING, ...PAGES]) for (let i = 0; i < 5; i++) await get(t.path);
    const pingBefore = await load(PING);
    const pages = [];
    for (const page of PAGES) pages.push({ page, round: await load(page) });
    const pingAfter = await load(PING);
    const pingRate = (pingBefore.rate + pingAfter.rate) / 2;
    const pingP99 = Math.max(pingBefore.p99, pingAfter.p99);
    console.log(`\n| target | req/s | p50 ms | p99 ms | share of ping | target share | p99 / ping p99 | target |`);
    console.log(`|---|---|---|---|---|---|---|---|`);
    console.log(`| ping (mean of 2 rounds) | ${fmt(pingRate)} | ${fmt(pingBefore.p50)} | ${fmt(pingP99)} | 100% | | 1.0 | |`);
    for (const { page, round } of pages) {
      const share = round.rate / pingRate;
      const ratio = round.p99 / pingP99;
      const shareMet = page.minShare === undefined ? '' : `≥ ${page.minShare * 100}% ${share >= page.minShare ? 'met' : 'MISSED'}`;
      const ratioMet = page.maxP99Ratio === undefined ? '' : `≤ ${page.maxP99Ratio} ${ratio <= page.maxP99Ratio ? 'met' : 'MISSED'}`;
      console.log(
        `| ${page.name} | ${fmt(round.rate)} | ${fmt(round.p50)} | ${fmt(round.p99)} | ${fmt(share * 100)}% | ${shareMet} | ${fmt(ratio)} | ${ratioMet} |`,
      );
      if (round.wrong > 0) {
        console.error(`${page.name}: ${round.wrong} answers were not HTTP ${page.status} (e.g. ${round.wrongStatus})`);
        failed = true;
      }
    }
  } finally {
    await stopServer(server);
    rmSync(pgliteDir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

void main().catch((error: unknown) => {
  console.error(error);
  rmSync(pgliteDir, { recursive: true, force: true });
  process.exit(1);
});
