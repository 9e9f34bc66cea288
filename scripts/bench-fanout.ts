/**
 * `npm run bench:fanout`: how soon a skin change made through one server shows on another (issue 31; docs/benchmarks.md).
 *
 * Runs on a PostgreSQL of its own (the npm script wraps it in scripts/with-postgres.sh: PG_TEST_PORT picks the port).
 * Migrates and seeds it, builds the storefront when its sources changed (scripts/build-if-needed.ts), and starts two
 * production servers (server.ts, as `npm start`, JOBS=off) on 127.0.0.1:BENCH_PORT (server A, default 3511) and
 * BENCH_PORT + 1 (server B). It warms AURORA's home and a goods page on server B, then BENCH_CHANGES times (default
 * 25): changes the channel's `color1` (BENCH_KIND=image: and its banner) through server A (the operator PATCH of the
 * skin, with an owner's API key made for the run), and polls
 * both pages on server B (one request at a time per page, BENCH_POLL_MS apart, default 2), as a browser's page load,
 * until each answers with the new colour. It prints, per page, the time from server A's answer to the PATCH to the
 * first answer of server B with the new skin (p50 and max), and whether the target was met: every change shown on
 * server B within 100 ms. Exits 1 when it was not. BENCH_KIND=domain measures a new custom domain instead (`domainMain`).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { buildIfNeeded } from './build-if-needed';
import { intEnv, percentile, percentileMs, startServer, stopServer, waitForHealth } from './bench-server';

const PORT_A = intEnv('BENCH_PORT', 3511);
const PORT_B = PORT_A + 1;
const CHANGES = intEnv('BENCH_CHANGES', 25);
const POLL_MS = intEnv('BENCH_POLL_MS', 2);
/**
 * What each change is: `colour`, the main colour alone (server B answers its cached pages with the new row's colours,
 * lib/page/page-skin.ts); `image`, the colour and the banner (server B renders both pages again); `domain`, a new
 * custom domain verified (server B serves the store on it).
 */
const KIND = (['image', 'domain', 'session'] as const).find((kind) => kind === process.env.BENCH_KIND) ?? 'colour';
const BANNERS = ['/brands/default/banner.svg', '/brands/aurora/banner.svg'];
const TARGET_MS = 100;
const CHANNEL = 'AURORA';
/** A page still showing the old skin this long after the change: the change is counted as not shown. */
const GIVE_UP_MS = 10_000;

if (!process.env.DATABASE_URL) {
  console.error('bench:fanout runs on PostgreSQL: `npm run bench:fanout` starts one (scripts/with-postgres.sh).');
  process.exit(2);
}
process.env.DEMO_MODE ??= '1';
process.env.DEFAULT_CHANNEL ??= CHANNEL;
process.env.JOBS = 'off';
process.env.HOSTNAME = '127.0.0.1';

const agent = new http.Agent({ keepAlive: true, maxSockets: 16, timeout: 4000 });

type Answer = { status: number; body: string };

function request(
  port: number,
  method: 'GET' | 'PATCH' | 'POST',
  urlPath: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        agent,
        headers: {
          host: `${CHANNEL.toLowerCase()}.localhost:${port}`,
          ...headers,
          ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

/** A browser's page load (what the proxy answers from the rendered-page cache: docs/caching.md). */
const PAGE_LOAD = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-language': 'en',
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
};

/** The skin colour a page shows: its <html> style's `--skin-color1`. */
function shownColor(html: string): string | null {
  return /--skin-color1:\s*(#[0-9a-fA-F]{3,8})/.exec(html)?.[1]?.toLowerCase() ?? null;
}

/**
 * An owner's API key for this run's database (issue 31; the bench has no browser): the owner invited and enrolled
 * through the same service calls as the console (a code computed from the enrolment's secret), the key minted as
 * `npm run ops:key` does. Bench only: the database is the bench's own.
 */
async function benchApiKey(db: import('../lib/db/client').Db): Promise<string> {
  const { createInvitedOperator, readEnrolment, completeEnrolment } = await import('../lib/operator/accounts');
  const { mintApiKey } = await import('../lib/operator/api-keys');
  const { Secret, TOTP } = await import('otpauth');
  const now = new Date();
  const name = `bench.${randomBytes(4).toString('hex')}`;
  const { token } = await createInvitedOperator(db, {
    name,
    role: 'owner',
    now,
    by: { operatorId: null, name: 'bench:fanout', ip: 'command line' },
  });
  const { secret } = (await readEnrolment(db, token, now))!;
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: now.getTime(),
  });
  await completeEnrolment(db, { token, password: randomBytes(18).toString('base64url'), code, now, ip: 'command line' });
  return (await mintApiKey(db, { operator: name, label: 'bench:fanout', now })).key;
}

async function prepare(): Promise<{ saleId: number; apiKey: string }> {
  const { openDb } = await import('../lib/db/client');
  const { migrate } = await import('../lib/db/migrate');
  const { seed } = await import('../lib/demo/seed');
  const { channels, sales } = await import('../lib/db/schema');
  const { eq, asc } = await import('drizzle-orm');
  const { db, close } = openDb();
  try {
    await migrate(db);
    await seed(db, new Date());
    const [sale] = await db
      .select({ id: sales.id })
      .from(sales)
      .innerJoin(channels, eq(channels.id, sales.channelId))
      .where(eq(channels.key, CHANNEL))
      .orderBy(asc(sales.id))
      .limit(1);
    if (!sale) throw new Error(`the seed has no sale on ${CHANNEL}`);
    return { saleId: sale.id, apiKey: await benchApiKey(db) };
  } finally {
    await close();
  }
}

/**
 * Polls `urlPath` on server B until it shows `color`; answers the performance.now() of that answer, or null. A page
 * showing the colour before server A's answer arrived here counts as shown at that answer (0 ms).
 */
async function shownAt(urlPath: string, color: string): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < GIVE_UP_MS) {
    const answer = await request(PORT_B, 'GET', urlPath, PAGE_LOAD);
    if (answer.status === 200 && shownColor(answer.body) === color) return performance.now();
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return null;
}

/** The fake DNS's name for this deployment: a domain's CNAME points there (DOMAIN_TARGET). */
const DOMAIN_TARGET = 'stores.bench.test';

/**
 * BENCH_KIND=domain: BENCH_CHANGES times, a new custom domain of AURORA (added pending, its records set at a DNS server
 * on loopback, test/dns-server.ts, which both servers ask: DNS_RESOLVER) is verified through server A (the console's
 * `/ops/api/domain/verify`, with the owner's API key), while server B is asked for the store's home on that domain (a
 * browser's page load, BENCH_POLL_MS apart) until it serves it. Prints the time from server A's answer to server B's
 * first answer with the store, and whether every domain was served within the target.
 */
async function domainMain(): Promise<boolean> {
  const { startFakeDns } = await import('../test/dns-server');
  const dns = await startFakeDns();
  process.env.DNS_RESOLVER = dns.server;
  process.env.DOMAIN_TARGET = DOMAIN_TARGET;
  console.log(
    `bench:fanout: ${CHANGES} new domains verified through server A (127.0.0.1:${PORT_A}), watched on server B (127.0.0.1:${PORT_B}), ` +
      `both on one PostgreSQL, the DNS at ${dns.server}; page polls ${POLL_MS} ms apart`,
  );
  buildIfNeeded();
  const { apiKey } = await prepare();
  const { openDb } = await import('../lib/db/client');
  const { addDomain, domainSettings } = await import('../lib/channel/domains');
  const { db, close } = openDb();
  const servers = [startServer(PORT_A), startServer(PORT_B)];
  const stopAll = () => Promise.all(servers.map(stopServer));
  process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));
  const served: number[] = [];
  const verifyMs: number[] = [];
  let missed = 0;
  const run = randomBytes(3).toString('hex');
  try {
    await Promise.all([PORT_A, PORT_B].map((port) => waitForHealth(() => request(port, 'GET', '/api/health', {}), port)));
    // Server B warm: AURORA's home from its page cache, as on its key host.
    await request(PORT_B, 'GET', '/', PAGE_LOAD);
    for (let i = 0; i < CHANGES; i++) {
      const host = `shop${i}-${run}.bench.test`;
      const added = await addDomain(db, CHANNEL, host, domainSettings(), new Date());
      for (const record of added.records) {
        if (record.type === 'TXT') dns.zone.txt.set(record.name, [record.value]);
        if (record.type === 'CNAME') dns.zone.cname.set(record.name, record.value);
      }
      const onB = { ...PAGE_LOAD, host: `${host}:${PORT_B}` };
      const before = await request(PORT_B, 'GET', '/', onB);
      if (before.status !== 404) throw new Error(`server B served ${host} before it was verified: HTTP ${before.status}`);
      const watched = (async () => {
        const started = performance.now();
        while (performance.now() - started < GIVE_UP_MS) {
          const answer = await request(PORT_B, 'GET', '/', onB);
          if (answer.status === 200 && answer.body.includes('data-testid="sale-list"')) return performance.now();
          await new Promise((r) => setTimeout(r, POLL_MS));
        }
        return null;
      })();
      const sentAt = performance.now();
      const verify = await request(
        PORT_A,
        'POST',
        '/api/ops/api/domain/verify',
        { host: `ops.localhost:${PORT_A}`, authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        JSON.stringify({ channel: CHANNEL, host }),
      );
      const answeredAt = performance.now();
      if (verify.status !== 200 || (JSON.parse(verify.body) as { data?: { status?: string } }).data?.status !== 'verified') {
        throw new Error(`server A did not verify ${host}: HTTP ${verify.status} ${verify.body}`);
      }
      verifyMs.push(answeredAt - sentAt);
      const at = await watched;
      if (at === null) missed++;
      else served.push(Math.max(0, at - answeredAt));
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await stopAll();
    agent.destroy();
    await close();
    await dns.close();
  }
  const worst = percentileMs(served, 100);
  console.log('');
  console.log('time from server A answering the verification to server B serving the store on the new domain:');
  console.log(
    `  home   p50 ${percentile(served, 50)}  p90 ${percentile(served, 90)}  max ${percentile(served, 100)}  (${served.length} domains)`,
  );
  console.log(
    `  server A's answer to the verification (its DNS questions included): p50 ${percentile(verifyMs, 50)}  max ${percentile(verifyMs, 100)}`,
  );
  if (missed > 0) console.log(`  ${missed} domain(s) still not served ${GIVE_UP_MS / 1000} s after their verification`);
  const met = missed === 0 && worst !== null && worst <= TARGET_MS;
  console.log(`target (issue 31): every new domain served by the other server within ${TARGET_MS} ms: ${met ? 'met' : 'NOT met'}`);
  return met;
}

/**
 * BENCH_KIND=session (issue 34): BENCH_CHANGES buyers, each logged in on AURORA, call a buyer API on server B (which
 * then keeps their session, lib/auth/sessions.ts) and log out through server A, while server B is asked the same call
 * with the same token (BENCH_POLL_MS apart) until it answers "not logged in". Prints the time from server A's answer
 * to the logout to server B's first refusal, and whether every logout was refused there within the target.
 */
async function sessionMain(): Promise<boolean> {
  console.log(
    `bench:fanout: ${CHANGES} logouts through server A (127.0.0.1:${PORT_A}), each session kept by server B (127.0.0.1:${PORT_B}) ` +
      `before, both on one PostgreSQL; polls ${POLL_MS} ms apart`,
  );
  buildIfNeeded();
  await prepare();
  const { openDb } = await import('../lib/db/client');
  const { makeBenchBuyers } = await import('./bench-buyer');
  const { db, close } = openDb();
  const buyers = await makeBenchBuyers(db, { channelKey: CHANNEL, count: CHANGES, run: randomBytes(3).toString('hex'), now: new Date() });
  // A third listener on the database, as the servers' own: when a logout's notice reaches a process (the fan-out's part
  // of the time; the rest is server B answering the poll that follows, on a machine that may be busy).
  const postgres = (await import('postgres')).default;
  const { TAG_NOTICE_CHANNEL } = await import('../lib/cache/notices');
  const { sessionTag } = await import('../lib/auth/sessions');
  const { sha256 } = await import('../lib/security/crypto');
  const listening = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  const noticeAt = new Map<string, number>();
  await listening.listen(TAG_NOTICE_CHANNEL, (payload) => {
    for (const buyer of buyers) {
      if (!noticeAt.has(buyer.token) && payload.includes(JSON.stringify(sessionTag(sha256(buyer.token))))) {
        noticeAt.set(buyer.token, performance.now());
      }
    }
  });
  const heard: number[] = [];
  const servers = [startServer(PORT_A), startServer(PORT_B)];
  const stopAll = () => Promise.all(servers.map(stopServer));
  process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));
  const call = (port: number, path: string, token: string) =>
    request(port, 'POST', `/api${path}`, { authorization: token, 'content-type': 'application/json' }, '{}').then(
      (answer) => (JSON.parse(answer.body) as { code: number }).code,
    );
  const profile = '/market/api/userAttribute/queryByUserUuid';
  const refused: number[] = [];
  let missed = 0;
  try {
    await Promise.all([PORT_A, PORT_B].map((port) => waitForHealth(() => request(port, 'GET', '/api/health', {}), port)));
    for (const buyer of buyers) {
      // Server B reads the session once and keeps it; its next calls are answered from memory.
      for (let i = 0; i < 2; i++) {
        const code = await call(PORT_B, profile, buyer.token);
        if (code !== 200) throw new Error(`server B refused a live session: code ${code}`);
      }
      let stop = false;
      const watched = (async () => {
        const started = performance.now();
        while (!stop && performance.now() - started < GIVE_UP_MS) {
          if ((await call(PORT_B, profile, buyer.token)) === 401) return performance.now();
          await new Promise((r) => setTimeout(r, POLL_MS));
        }
        return null;
      })();
      const logout = await call(PORT_A, '/auth/api/auth/logout', buyer.token);
      const answeredAt = performance.now();
      if (logout !== 200) {
        stop = true;
        throw new Error(`server A did not log out: code ${logout}`);
      }
      const at = await watched;
      if (at === null) missed++;
      else refused.push(Math.max(0, at - answeredAt));
      await new Promise((r) => setTimeout(r, 100));
      const heardAt = noticeAt.get(buyer.token);
      if (heardAt !== undefined) heard.push(heardAt - answeredAt);
    }
  } finally {
    await stopAll();
    agent.destroy();
    await listening.end();
    await close();
  }
  const worst = percentileMs(refused, 100);
  console.log('');
  console.log('time from server A answering the logout to server B refusing the session it kept:');
  console.log(
    `  p50 ${percentile(refused, 50)}  p90 ${percentile(refused, 90)}  max ${percentile(refused, 100)}  (${refused.length} logouts)`,
  );
  console.log(
    `  the logout's notice heard by a third listener, from server A's answer (negative: before it): p50 ${percentile(heard, 50)}  max ${percentile(heard, 100)}`,
  );
  if (missed > 0) console.log(`  ${missed} session(s) still answered ${GIVE_UP_MS / 1000} s after their logout`);
  const met = missed === 0 && worst !== null && worst <= TARGET_MS;
  console.log(`target (issue 34): every logout refused by the other server within ${TARGET_MS} ms: ${met ? 'met' : 'NOT met'}`);
  return met;
}

async function main() {
  if (KIND === 'domain') process.exit((await domainMain()) ? 0 : 1);
  if (KIND === 'session') process.exit((await sessionMain()) ? 0 : 1);
  console.log(
    `bench:fanout: ${CHANGES} skin changes through server A (127.0.0.1:${PORT_A}), watched on server B (127.0.0.1:${PORT_B}), ` +
      `both on one PostgreSQL; page polls ${POLL_MS} ms apart`,
  );
  buildIfNeeded();
  const { saleId, apiKey } = await prepare();
  // A third listener on the database, as the servers' own: when the change's notice reaches a process (the fan-out's
  // part of the time; the rest is server B reading the channel's row again and answering from its page cache with it).
  const postgres = (await import('postgres')).default;
  const { TAG_NOTICE_CHANNEL } = await import('../lib/cache/notices');
  const listening = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  const noticesAt: number[] = [];
  await listening.listen(TAG_NOTICE_CHANNEL, (payload) => {
    // A colour change names the channel's row alone (tags.channelColours); any other skin change, the channel.
    if ([`channel:${CHANNEL}`, `channel-colours:${CHANNEL}`].some((tag) => payload.includes(JSON.stringify(tag)))) {
      noticesAt.push(performance.now());
    }
  });
  const pages = { home: '/', goods: `/goods/detail/${saleId}` };
  const servers = [startServer(PORT_A), startServer(PORT_B)];
  const stopAll = () => Promise.all(servers.map(stopServer));
  process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));
  const times: Record<keyof typeof pages, number[]> = { home: [], goods: [] };
  /** Both pages: from the PATCH sent (server A's write and answer included). */
  const fromSent: number[] = [];
  /** Server A's answer to the PATCH. */
  const patchMs: number[] = [];
  /** Server B rendering the page past its page cache. */
  const renderMs: Record<keyof typeof pages, number[]> = { home: [], goods: [] };
  /** From the PATCH sent to its notice heard by a listener in this process. */
  const heard: number[] = [];
  let missed = 0;
  try {
    await Promise.all([PORT_A, PORT_B].map((port) => waitForHealth(() => request(port, 'GET', '/api/health', {}), port)));
    for (const path of Object.values(pages)) {
      const warm = await request(PORT_B, 'GET', path, PAGE_LOAD);
      if (warm.status !== 200 || !shownColor(warm.body)) throw new Error(`server B answered ${path} with HTTP ${warm.status} and no skin`);
    }
    for (let i = 0; i < CHANGES; i++) {
      // A colour of its own per change (and per run), so an old page can never pass for the new one.
      const color = `#${randomBytes(3).toString('hex')}`;
      // Both pages are in server B's cache and answered from it before the change.
      for (const path of Object.values(pages)) await request(PORT_B, 'GET', path, PAGE_LOAD);
      const watched = (Object.keys(pages) as (keyof typeof pages)[]).map(async (name) => ({ name, at: await shownAt(pages[name], color) }));
      const sentAt = performance.now();
      const patch = await request(
        PORT_A,
        'PATCH',
        `/api/operator/channels/${CHANNEL}/skin`,
        { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        JSON.stringify(KIND === 'image' ? { color1: color, bannerImg: BANNERS[i % 2] } : { color1: color }),
      );
      const answeredAt = performance.now();
      if (patch.status !== 200) throw new Error(`server A refused the skin change: HTTP ${patch.status} ${patch.body}`);
      for (const { name, at } of await Promise.all(watched)) {
        if (at === null) {
          missed++;
          continue;
        }
        times[name].push(Math.max(0, at - answeredAt));
        fromSent.push(at - sentAt);
      }
      patchMs.push(answeredAt - sentAt);
      const heardAt = noticesAt.find((at) => at >= sentAt);
      if (heardAt !== undefined) heard.push(heardAt - sentAt);
      // Let server B's next render settle before the next change.
      await new Promise((r) => setTimeout(r, 200));
    }
    // For comparison: server B rendering each page anew, as Next does past the page cache (a fetch from script is
    // never answered from it), one at a time. After a change, the first page view on B waits for such a render.
    for (const name of Object.keys(pages) as (keyof typeof pages)[]) {
      for (let i = 0; i < 10; i++) {
        const started = performance.now();
        const answer = await request(PORT_B, 'GET', pages[name], { ...PAGE_LOAD, 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' });
        if (answer.status === 200) renderMs[name].push(performance.now() - started);
      }
    }
  } finally {
    await stopAll();
    agent.destroy();
    await listening.end();
  }
  const all = [...times.home, ...times.goods];
  const worst = percentileMs(all, 100);
  console.log('');
  console.log(
    `time from server A answering the skin change (${KIND === 'image' ? 'colour and banner' : 'colour'}) to server B serving the new skin:`,
  );
  for (const name of Object.keys(times) as (keyof typeof times)[]) {
    console.log(
      `  ${name.padEnd(6)} p50 ${percentile(times[name], 50)}  p90 ${percentile(times[name], 90)}  max ${percentile(times[name], 100)}  (${times[name].length} changes)`,
    );
  }
  console.log(`  both pages, from the PATCH sent: p50 ${percentile(fromSent, 50)}  max ${percentile(fromSent, 100)}`);
  console.log(`  server A's answer to the PATCH: p50 ${percentile(patchMs, 50)}  max ${percentile(patchMs, 100)}`);
  console.log(
    `  the change's notice heard by another process, from the PATCH sent: p50 ${percentile(heard, 50)}  max ${percentile(heard, 100)}`,
  );
  for (const name of Object.keys(renderMs) as (keyof typeof renderMs)[]) {
    console.log(
      `  for comparison, server B rendering ${name} anew (not from its page cache): p50 ${percentile(renderMs[name], 50)}  max ${percentile(renderMs[name], 100)}`,
    );
  }
  if (missed > 0) console.log(`  ${missed} page(s) still showed the old skin ${GIVE_UP_MS / 1000} s after a change`);
  const met = missed === 0 && worst !== null && worst <= TARGET_MS;
  console.log(`target (issue 31): every change shown on the other server within ${TARGET_MS} ms: ${met ? 'met' : 'NOT met'}`);
  process.exit(met ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
