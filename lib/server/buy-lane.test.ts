import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BUY_LANE_PATHS, createBuyLane, takesTheLane, type BuyLane } from '@/lib/server/buy-lane';
import { registry } from '@/lib/server/registry';

// The buy lane (issue 16; docs/orders.md, "The buy lane"), through a real HTTP server wired as server.ts wires it: buy
// calls enter the app a few at a time in arrival order, the rest of the site does not wait behind them, and a full
// house is answered busy at once.

const BUY = '/api/market/api/order/create';

type Held = { id: string; res: ServerResponse };

let server: Server;
let lane: BuyLane;
/** Buy calls the "app" has started, in order, held until the test answers them. */
let started: Held[];

function startServer(limits: { running: number; inFlight: number }): Promise<void> {
  lane = createBuyLane(limits);
  started = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const app = () => {
      if (takesTheLane(req)) started.push({ id: String(req.headers['x-tap']), res });
      else res.end('page');
    };
    if (takesTheLane(req)) lane.admit(req, res, app);
    else app();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}

afterEach(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

type Answer = { status: number; body: string; headers: Record<string, string | string[] | undefined> };

function call(method: string, path: string, tap = '', abort?: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        method,
        path,
        headers: { 'x-tap': tap },
        agent: false,
        signal: abort,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

it('lets two buy calls in at once and the others in the order they came, as places free up', async () => {
  await startServer({ running: 2, inFlight: 100 });
  const answers: Promise<Answer>[] = [];
  for (const tap of ['a', 'b', 'c', 'd', 'e']) {
    answers.push(call('POST', BUY, tap));
    // Arrival order is the order the server reads them in.
    await until(() => lane.counts().running + lane.counts().waiting === answers.length);
  }
  expect(started.map((s) => s.id)).toEqual(['a', 'b']);
  expect(lane.counts()).toEqual({ running: 2, waiting: 3 });

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
  expect(lane.counts()).toEqual({ running: 0, waiting: 0 });
});

it('answers busy at once (HTTP 503, code 1001, Retry-After) beyond BUY_MAX_IN_FLIGHT, running and waiting together', async () => {
  await startServer({ running: 1, inFlight: 3 });
  const first = [call('POST', BUY, 'a'), call('POST', BUY, 'b'), call('POST', BUY, 'c')];
  await until(() => lane.counts().running + lane.counts().waiting === 3);

  const busy = await call('POST', BUY, 'd');
  expect(busy.status).toBe(503);
  expect(JSON.parse(busy.body)).toEqual({ code: 1001, message: expect.stringMatching(/busy/), data: null });
  expect(busy.headers['retry-after']).toBe('1');
  expect(busy.headers['x-content-type-options']).toBe('nosniff');
  expect(started.map((s) => s.id)).toEqual(['a']);

  for (let i = 0; i < 3; i++) {
    await until(() => started.length === i + 1);
    started[i]!.res.end('ok');
  }
  expect((await Promise.all(first)).map((a) => a.status)).toEqual([200, 200, 200]);
  // The line is gone: the same tap is served.
  const again = call('POST', BUY, 'd');
  await until(() => started.length === 4);
  started[3]!.res.end('ok');
  expect((await again).status).toBe(200);
});

it('does not make pages and other calls wait behind buy calls', async () => {
  await startServer({ running: 1, inFlight: 100 });
  const buys = [call('POST', BUY, 'a'), call('POST', BUY, 'b')];
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
  await startServer({ running: 1, inFlight: 100 });
  const a = call('POST', BUY, 'a');
  await until(() => lane.counts().running === 1);
  const gone = new AbortController();
  const b = call('POST', BUY, 'b', gone.signal).catch((error: Error) => error);
  await until(() => lane.counts().waiting === 1);
  const c = call('POST', BUY, 'c');
  await until(() => lane.counts().waiting === 2);
  gone.abort();
  expect(await b).toMatchObject({ name: 'AbortError' });
  // Give the server the time to see the hang-up.
  await new Promise((r) => setTimeout(r, 50));

  started[0]!.res.end('ok');
  await until(() => started.length === 2);
  expect(started.map((s) => s.id)).toEqual(['a', 'c']);
  started[1]!.res.end('ok');
  await Promise.all([a, c]);
  expect(lane.counts()).toEqual({ running: 0, waiting: 0 });
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
