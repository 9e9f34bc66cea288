import { createServer, request, type ClientRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BUY_LANE_PATHS, createBuyLane, installBuyGate, takesTheLane, type BuyLane, type BuyLaneLimits } from '@/lib/server/buy-lane';
import { parseTrustedProxies, rewriteForwardingHeaders } from '@/lib/security/forwarded';
import { registry } from '@/lib/server/registry';

// The buy lane (issue 16, issue 29; docs/orders.md, "The buy lane"), through a real HTTP server wired as server.ts
// wires it (forwarding headers resolved first, then the lane): buy calls enter the app a few at a time in arrival
// order, the rest of the site does not wait behind them, a full house is answered busy at once, a call's body is read
// whole before it takes or waits for a place, one address cannot fill the line, and a buy of a sale that has not
// opened is answered at the door. Buyers come from their own loopback addresses (127.0.0.0/8), as real buyers do.

const BUY = '/api/market/api/order/create';

type Held = { id: string; body: string; res: ServerResponse };

let server: Server;
let lane: BuyLane;
/** Buy calls the "app" has started, in order, with the body it read, held until the test answers them. */
let started: Held[];

const LIMITS: BuyLaneLimits = { running: 2, inFlight: 100, perClient: 100, bodyTimeoutMs: 5_000, maxWaitMs: 60_000 };

function startServer(limits: Partial<BuyLaneLimits>, options: { trustedProxies?: string; app?: (held: Held) => void } = {}): Promise<void> {
  lane = createBuyLane({ ...LIMITS, ...limits });
  started = [];
  const trusted = parseTrustedProxies(options.trustedProxies);
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    rewriteForwardingHeaders(req.headers, req.socket.remoteAddress, trusted, 'http');
    // The "app" reads the body as Next does (data events until end), so what it reads is what the lane replayed.
    const app = (read: IncomingMessage) => {
      if (!takesTheLane(read)) return void res.end('page');
      let body = '';
      read.setEncoding('utf8');
      read.on('data', (chunk: string) => (body += chunk));
      read.on('end', () => {
        const held = { id: String(read.headers['x-tap']), body, res };
        started.push(held);
        options.app?.(held);
      });
    };
    if (takesTheLane(req)) lane.admit(req, res, app);
    else app(req);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}

afterEach(
  () =>
    new Promise<void>((resolve) => {
      installBuyGate(null);
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

type Answer = { status: number; body: string; headers: Record<string, string | string[] | undefined> };

type CallOptions = { tap?: string; body?: string; from?: string; headers?: Record<string, string>; abort?: AbortSignal };

/** Sends a request; `body: null` leaves it open (the caller writes the body, slowly, through `sending`). */
function send(
  method: string,
  path: string,
  options: CallOptions & { keepOpen?: boolean } = {},
): { answer: Promise<Answer>; req: ClientRequest } {
  let req!: ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    req = request(
      {
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        localAddress: options.from ?? '127.0.0.1',
        method,
        path,
        headers: { 'x-tap': options.tap ?? '', 'content-type': 'application/json', ...options.headers },
        agent: false,
        signal: options.abort,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
  if (!options.keepOpen) req.end(method === 'POST' ? (options.body ?? '{}') : undefined);
  return { answer, req };
}

const call = (method: string, path: string, options: CallOptions = {}) => send(method, path, options).answer;

const until = async (check: () => boolean) => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

const inLane = () => lane.counts().reading + lane.counts().running + lane.counts().waiting;

it('lets two buy calls in at once and the others in the order they came, as places free up', async () => {
  await startServer({ running: 2 });
  const answers: Promise<Answer>[] = [];
  for (const tap of ['a', 'b', 'c', 'd', 'e']) {
    answers.push(call('POST', BUY, { tap }));
    // Arrival order is the order the server reads them in.
    await until(() => lane.counts().running + lane.counts().waiting === answers.length);
  }
  expect(started.map((s) => s.id)).toEqual(['a', 'b']);
  expect(lane.counts()).toEqual({ reading: 0, running: 2, waiting: 3 });

  started[1]!.res.end('b done');
  await until(() => started.length === 3);
  expect(started.map((s) => s.id)).toEqual(['a', 'b', 'c']);
  started[0]!.res.end('a done');
  started[2]!.res.end('c done');
  await until(() => started.length === 5);
  expect(started.map((s) => s.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  started[3]!.res.end('d done');
  started[4]!.res.end('e done');
  expect((await Promise.all(answers)).map((a) => a.body)).toEqual(['a done', 'b done', 'c done', 'd done', 'e done']);
  expect(lane.counts()).toEqual({ reading: 0, running: 0, waiting: 0 });
});

it('hands the app the body it read at the door, byte for byte, however it arrived', async () => {
  await startServer({ running: 1 });
  const body = JSON.stringify({ saleId: '7', quantity: 1, idempotencyKey: 'k'.repeat(40), note: '中文 ✓' });
  const { answer, req } = send('POST', BUY, { tap: 'slow-but-whole', keepOpen: true });
  const bytes = Buffer.from(body);
  // In three pieces, a moment apart: the app sees none of it until the last has come.
  req.write(bytes.subarray(0, 5));
  await until(() => lane.counts().reading === 1);
  req.write(bytes.subarray(5, 20));
  expect(started).toHaveLength(0);
  req.end(bytes.subarray(20));
  await until(() => started.length === 1);
  expect(started[0]!.body).toBe(body);
  started[0]!.res.end('ok');
  expect((await answer).body).toBe('ok');
});

it("keeps no place for a client that sends its body slowly: a buyer's buy is answered before any of them has finished sending", async () => {
  await startServer({ running: 2, bodyTimeoutMs: 60_000 });
  // Eight slow clients from eight addresses: headers, one byte of body, then nothing.
  const slow = Array.from({ length: 8 }, (_, i) => send('POST', BUY, { tap: `slow${i}`, from: `127.0.1.${i + 1}`, keepOpen: true }));
  for (const { req } of slow) req.write('{');
  await until(() => lane.counts().reading === 8);
  expect(lane.counts()).toEqual({ reading: 8, running: 0, waiting: 0 });

  const buyer = call('POST', BUY, { tap: 'buyer', from: '127.0.2.1' });
  await until(() => started.length === 1);
  expect(started[0]!.id).toBe('buyer');
  started[0]!.res.end('order');
  expect((await buyer).body).toBe('order');
  // Every slow client is still sending.
  expect(lane.counts().reading).toBe(8);
  for (const { req } of slow) req.destroy();
  await Promise.allSettled(slow.map((s) => s.answer));
});

it('answers 408 and closes the connection when the body does not arrive within the deadline, holding no place meanwhile', async () => {
  await startServer({ running: 1, bodyTimeoutMs: 100 });
  const { answer, req } = send('POST', BUY, { tap: 'stalled', keepOpen: true });
  req.write('{"saleId"');
  const timedOut = await answer;
  expect(timedOut.status).toBe(408);
  expect(JSON.parse(timedOut.body)).toEqual({ code: 400, message: 'body: did not arrive within 100 ms', data: null });
  expect(timedOut.headers.connection).toBe('close');
  expect(timedOut.headers['x-content-type-options']).toBe('nosniff');
  expect(started).toHaveLength(0);
  await until(() => inLane() === 0);
});

it('refuses a body over the limit without reading it (413)', async () => {
  await startServer({});
  const big = await call('POST', BUY, { tap: 'big', body: JSON.stringify({ saleId: '1', pad: 'x'.repeat(20_000) }) }).catch(
    // The server may close before the client has written it all.
    (error: Error) => error,
  );
  if (big instanceof Error) expect(big.message).toMatch(/EPIPE|ECONNRESET|socket hang up/);
  else expect(big.status).toBe(413);
  expect(started).toHaveLength(0);
  await until(() => inLane() === 0);
});

it('answers busy at once (HTTP 503, code 1001, Retry-After) beyond BUY_MAX_IN_FLIGHT, running and waiting together', async () => {
  await startServer({ running: 1, inFlight: 3 });
  const first = [call('POST', BUY, { tap: 'a' }), call('POST', BUY, { tap: 'b' }), call('POST', BUY, { tap: 'c' })];
  await until(() => lane.counts().running + lane.counts().waiting === 3);

  const busy = await call('POST', BUY, { tap: 'd' });
  expect(busy.status).toBe(503);
  expect(JSON.parse(busy.body)).toEqual({ code: 1001, message: expect.stringMatching(/^Too many buyers at the moment/), data: null });
  expect(busy.headers['retry-after']).toBe('1');
  expect(busy.headers['x-content-type-options']).toBe('nosniff');
  expect(started.map((s) => s.id)).toEqual(['a']);

  for (let i = 0; i < 3; i++) {
    await until(() => started.length === i + 1);
    started[i]!.res.end('ok');
  }
  expect((await Promise.all(first)).map((a) => a.status)).toEqual([200, 200, 200]);
  // The line is gone: the same tap is served.
  const again = call('POST', BUY, { tap: 'd' });
  await until(() => started.length === 4);
  started[3]!.res.end('ok');
  expect((await again).status).toBe(200);
});

it('caps the calls of one client address in the lane, so one machine cannot fill the line, while other buyers still queue', async () => {
  await startServer({ running: 1, perClient: 3 });
  const holder = call('POST', BUY, { tap: 'holder', from: '127.0.3.1' });
  await until(() => started.length === 1);
  // One address: three calls in the lane (waiting), the fourth and fifth answered busy at once.
  const mine = ['m1', 'm2', 'm3'].map((tap) => call('POST', BUY, { tap, from: '127.0.3.9' }));
  await until(() => lane.counts().waiting === 3);
  const over = await Promise.all(['m4', 'm5'].map((tap) => call('POST', BUY, { tap, from: '127.0.3.9' })));
  expect(over.map((a) => a.status)).toEqual([503, 503]);
  // Another buyer is not refused: they wait their turn.
  const other = call('POST', BUY, { tap: 'other', from: '127.0.3.10' });
  await until(() => lane.counts().waiting === 4);

  for (let i = 0; i < 5; i++) {
    await until(() => started.length === i + 1);
    started[i]!.res.end('ok');
  }
  expect(started.map((s) => s.id)).toEqual(['holder', 'm1', 'm2', 'm3', 'other']);
  await Promise.all([holder, ...mine, other]);
  // Places free up as calls end: the address may call again.
  const later = call('POST', BUY, { tap: 'm6', from: '127.0.3.9' });
  await until(() => started.length === 6);
  started[5]!.res.end('ok');
  expect((await later).status).toBe(200);
});

it('counts an IPv6 /64 as one client (behind a trusted proxy that says which address it saw)', async () => {
  await startServer({ running: 1, perClient: 2 }, { trustedProxies: '127.0.0.1' });
  const holder = call('POST', BUY, { tap: 'holder', headers: { 'x-forwarded-for': '2001:db8:aa:1::1' } });
  await until(() => started.length === 1);
  // Three addresses of one /64 (the holder's included): one client.
  const second = call('POST', BUY, { tap: 'second', headers: { 'x-forwarded-for': '2001:db8:aa:1::2' } });
  await until(() => lane.counts().waiting === 1);
  const third = await call('POST', BUY, { tap: 'third', headers: { 'x-forwarded-for': '2001:db8:aa:1:ffff::3' } });
  expect(third.status).toBe(503);
  // The next /64 is another client.
  const neighbour = call('POST', BUY, { tap: 'neighbour', headers: { 'x-forwarded-for': '2001:db8:aa:2::1' } });
  await until(() => lane.counts().waiting === 2);
  for (let i = 0; i < 3; i++) {
    await until(() => started.length === i + 1);
    started[i]!.res.end('ok');
  }
  expect(started.map((s) => s.id)).toEqual(['holder', 'second', 'neighbour']);
  await Promise.all([holder, second, neighbour]);
});

it('answers busy a call that waited BUY_MAX_WAIT_MS without a place, and serves the rest in order', async () => {
  await startServer({ running: 1, maxWaitMs: 100 });
  const holder = call('POST', BUY, { tap: 'holder' });
  await until(() => started.length === 1);
  const waited = await call('POST', BUY, { tap: 'waited' });
  expect(waited.status).toBe(503);
  expect(JSON.parse(waited.body)).toMatchObject({ code: 1001 });
  expect(lane.counts().waiting).toBe(0);
  started[0]!.res.end('ok');
  await holder;
  expect(started.map((s) => s.id)).toEqual(['holder']);
});

it("answers the gate's answer at once, with no place taken and nothing parked; other calls go in as before", async () => {
  await startServer({ running: 1 });
  installBuyGate(async ({ body }) =>
    (JSON.parse(body) as { saleId?: string }).saleId === '9'
      ? { status: 200, body: JSON.stringify({ code: 409, message: 'this sale has not opened yet', data: { reason: 'notOpen' } }) }
      : null,
  );
  const holder = call('POST', BUY, { tap: 'holder', body: '{"saleId":"1"}' });
  await until(() => started.length === 1);
  const queued = call('POST', BUY, { tap: 'queued', body: '{"saleId":"1"}' });
  await until(() => lane.counts().waiting === 1);

  const early = await call('POST', BUY, { tap: 'early', body: '{"saleId":"9"}', headers: { 'accept-language': 'en' } });
  expect(early.status).toBe(200);
  expect(JSON.parse(early.body)).toEqual({ code: 409, message: 'this sale has not opened yet', data: { reason: 'notOpen' } });
  expect(early.headers['x-content-type-options']).toBe('nosniff');
  expect(lane.counts()).toEqual({ reading: 0, running: 1, waiting: 1 });

  started[0]!.res.end('ok');
  await until(() => started.length === 2);
  started[1]!.res.end('ok');
  await Promise.all([holder, queued]);
  expect(started.map((s) => s.id)).toEqual(['holder', 'queued']);
});

it('lets a call in when the gate fails (the buy answers it the same)', async () => {
  await startServer({ running: 1 });
  installBuyGate(() => Promise.reject(new Error('the cache is gone')));
  const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
  const answer = call('POST', BUY, { tap: 'a' });
  await until(() => started.length === 1);
  started[0]!.res.end('ok');
  expect((await answer).body).toBe('ok');
  expect(errors).toHaveBeenCalledWith(expect.stringContaining('[buy-lane] the gate failed'), expect.any(Error));
  errors.mockRestore();
});

it('a drop: calls sent before the opening, slow bodies and a queue among them, take nothing from the buyers who tap at the opening', async () => {
  // The attack of issue 29, finding 2, played against a sale of 4 copies: before the opening the attacker holds slow
  // bodies open and sends 12 whole buy calls; then, at the opening, 4 buyers tap. The "app" is the buy as the real one
  // answers it: not open before the opening, then a copy each while there are copies, then sold out.
  let open = false;
  let copies = 4;
  const notOpen = JSON.stringify({ code: 409, message: 'this sale has not opened yet', data: { reason: 'notOpen' } });
  installBuyGate(async () => (open ? null : { status: 200, body: notOpen }));
  await startServer(
    { running: 2, bodyTimeoutMs: 300 },
    {
      app: (held) => {
        if (!open) held.res.end(notOpen);
        else if (copies > 0) {
          copies--;
          held.res.end(`copy for ${held.id}`);
        } else held.res.end('sold out');
      },
    },
  );

  const slow = Array.from({ length: 4 }, (_, i) => send('POST', BUY, { tap: `slow${i}`, from: `127.0.4.${i + 1}`, keepOpen: true }));
  for (const { req } of slow) req.write('{"saleId":');
  const early = await Promise.all(Array.from({ length: 12 }, (_, i) => call('POST', BUY, { tap: `early${i}`, from: `127.0.5.${i + 1}` })));
  // Every early call is answered "not open yet" at once: nothing of the attacker waits in the line for the opening.
  expect(early.map((a) => a.body)).toEqual(Array(12).fill(notOpen));
  expect(lane.counts()).toEqual({ reading: 4, running: 0, waiting: 0 });
  // The slow bodies cannot be held until the opening either.
  expect((await Promise.all(slow.map((s) => s.answer))).map((a) => a.status)).toEqual([408, 408, 408, 408]);

  open = true;
  const buyers = await Promise.all(['b1', 'b2', 'b3', 'b4'].map((tap, i) => call('POST', BUY, { tap, from: `127.0.6.${i + 1}` })));
  expect(buyers.map((a) => a.body).sort()).toEqual(['copy for b1', 'copy for b2', 'copy for b3', 'copy for b4']);
  expect(started.map((s) => s.id).sort()).toEqual(['b1', 'b2', 'b3', 'b4']);
});

it('does not make pages and other calls wait behind buy calls', async () => {
  await startServer({ running: 1 });
  const buys = [call('POST', BUY, { tap: 'a' }), call('POST', BUY, { tap: 'b' })];
  await until(() => lane.counts().waiting === 1);
  expect((await call('GET', '/detail/1')).body).toBe('page');
  expect((await call('POST', '/api/market/api/order/list')).body).toBe('page');
  expect((await call('GET', BUY)).body).toBe('page');
  started[0]!.res.end('ok');
  await until(() => started.length === 2);
  started[1]!.res.end('ok');
  await Promise.all(buys);
});

it('skips a waiting buyer who hung up, and serves the next', async () => {
  await startServer({ running: 1 });
  const a = call('POST', BUY, { tap: 'a' });
  await until(() => lane.counts().running === 1);
  const gone = new AbortController();
  const b = call('POST', BUY, { tap: 'b', abort: gone.signal }).catch((error: Error) => error);
  await until(() => lane.counts().waiting === 1);
  const c = call('POST', BUY, { tap: 'c' });
  await until(() => lane.counts().waiting === 2);
  gone.abort();
  expect(await b).toMatchObject({ name: 'AbortError' });

  // The server sees the hang-up: the buyer leaves the line at once, before any place frees up.
  await until(() => lane.counts().waiting === 1);
  started[0]!.res.end('ok');
  await until(() => started.length === 2);
  expect(started.map((s) => s.id)).toEqual(['a', 'c']);
  started[1]!.res.end('ok');
  await Promise.all([a, c]);
  await until(() => inLane() === 0);
});

it('takes buy calls only: POST to the buy path, however it is spelled', () => {
  expect(takesTheLane({ method: 'POST', url: BUY })).toBe(true);
  expect(takesTheLane({ method: 'POST', url: `${BUY}?x=1` })).toBe(true);
  expect(takesTheLane({ method: 'GET', url: BUY })).toBe(false);
  expect(takesTheLane({ method: 'POST', url: '/api/market/api/order/cancel' })).toBe(false);
  expect(takesTheLane({ method: 'POST', url: `${BUY}/x` })).toBe(false);
  // Every spelling the app still reads as the buy takes the lane too (a fragment, dot segments, escaped characters).
  expect(takesTheLane({ method: 'POST', url: `${BUY}#x` })).toBe(true);
  expect(takesTheLane({ method: 'POST', url: '/api/market/api/order/./create' })).toBe(true);
  expect(takesTheLane({ method: 'POST', url: '/api/market/api/order%2Fcreate' })).toBe(true);
  expect(takesTheLane({ method: 'POST', url: '/api/market/api/order/%63reate' })).toBe(true);
  expect(takesTheLane({ method: 'POST', url: '/api/market/api/order/create%' })).toBe(false);
});

it('covers exactly the API calls marked `shed` (the buy)', () => {
  const shed = Object.entries(registry)
    .filter(([, proc]) => (proc as { shed?: boolean }).shed)
    .map(([path]) => `/api${path}`);
  expect([...BUY_LANE_PATHS].sort()).toEqual(shed.sort());
});
