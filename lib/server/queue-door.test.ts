import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseTrustedProxies, rewriteForwardingHeaders, CLIENT_IP_HEADER } from '@/lib/security/forwarded';
import { bodyLimitOf } from '@/lib/server/dispatcher';
import {
  answerAtTheDoor,
  doorBodyLimit,
  installQueueDoor,
  MAX_MARKET_BODY_BYTES,
  MAX_QUEUE_READ_BODY_BYTES,
  queueDoorPath,
  type DoorCall,
  type DoorSink,
} from '@/lib/server/queue-door';

// A waiting room's position reads at the entry server's door (issue 35), through a real HTTP server wired as server.ts
// wires it: the read is answered by the app's installed reader (the API's dispatcher) without going through the
// framework; everything else, and every call before the reader is installed, goes to the framework as before.

const POSITION = '/api/market/api/queue/position';

let server: Server;
/** What the reader was asked, in order. */
let asked: DoorCall[];

function startServer(): Promise<void> {
  asked = [];
  const trusted = parseTrustedProxies(undefined);
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    rewriteForwardingHeaders(req.headers, req.socket.remoteAddress, trusted, 'http');
    const path = queueDoorPath(req);
    if (path) return answerAtTheDoor(req, res, path);
    res.end('framework');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}

beforeEach(async () => {
  await startServer();
  installQueueDoor(async (call) => {
    asked.push(call);
    return { status: 200, body: JSON.stringify({ code: 200, message: 'ok', data: { saleId: JSON.parse(call.body).saleId } }) };
  });
});
afterEach(
  () =>
    new Promise<void>((resolve) => {
      installQueueDoor(null);
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

type Answer = { status: number; body: string; headers: Record<string, string | string[] | undefined> };

function call(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        localAddress: '127.0.0.7',
        method,
        path,
        headers: { 'content-type': 'application/json', authorization: 'Bearer buyer-token', ...headers },
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

it("answers a buyer's position read at the door with the reader's envelope, the buyer's headers and address passed on", async () => {
  const answer = await call('POST', POSITION, '{"saleId":"17"}', { 'accept-language': 'zh-CN' });
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe('application/json');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(JSON.parse(answer.body)).toEqual({ code: 200, message: 'ok', data: { saleId: '17' } });
  expect(asked).toHaveLength(1);
  expect(asked[0]!.path).toBe('/market/api/queue/position');
  expect(asked[0]!.headers.authorization).toBe('Bearer buyer-token');
  expect(asked[0]!.headers['accept-language']).toBe('zh-CN');
  expect(asked[0]!.headers[CLIENT_IP_HEADER]).toBe('127.0.0.7');
});

it('takes every spelling of the path the app would take, and nothing else', async () => {
  await call('POST', '/api/market/api/queue/./position?x=1', '{"saleId":"1"}');
  await call('POST', '/api/market/api/queue%2Fposition', '{"saleId":"2"}');
  expect(asked.map((c) => JSON.parse(c.body).saleId)).toEqual(['1', '2']);
  expect((await call('GET', POSITION)).body).toBe('framework');
  expect(asked).toHaveLength(2);
  await call('POST', '/api/market/api/queue/join', '{"saleId":"4"}');
  expect(asked.map((c) => c.path)).toEqual(['/market/api/queue/position', '/market/api/queue/position', '/market/api/queue/join']);
});

it("answers the market API's other calls at the door too (issue 34), and leaves the routes of their own to the framework", async () => {
  for (const path of ['saleRecord/payState', 'order/create', 'pay/create', 'pay/sandbox/complete', 'lottery/register']) {
    expect((await call('POST', `/api/market/api/${path}`, '{"saleId":"5"}')).status).toBe(200);
  }
  expect(asked.map((c) => c.path)).toEqual([
    '/market/api/saleRecord/payState',
    '/market/api/order/create',
    '/market/api/pay/create',
    '/market/api/pay/sandbox/complete',
    '/market/api/lottery/register',
  ]);
  // The avatar upload (multipart, its own route), other methods, and the API's other sections go on as before.
  for (const [method, path] of [
    ['POST', '/api/market/api/profile/avatar'],
    ['POST', '/api/market/api/profile/./avatar'],
    ['PUT', '/api/market/api/order/create'],
    ['POST', '/api/ops/api/sale/priority/whitelist'],
    ['POST', '/api/operator/session'],
    ['POST', '/api/pay/notify/wechat'],
    ['POST', '/api/market/apis/order/create'],
  ] as const) {
    expect([method, path, (await call(method, path, '{"saleId":"6"}')).body]).toEqual([method, path, 'framework']);
  }
  expect(asked).toHaveLength(5);
});

it("reads a market call's body up to the dispatcher's own limit, a waiting room's call up to its small one", async () => {
  expect(MAX_MARKET_BODY_BYTES).toBe(bodyLimitOf('/market/api/order/create'));
  expect(doorBodyLimit('/market/api/order/create')).toBe(MAX_MARKET_BODY_BYTES);
  expect(doorBodyLimit('/market/api/queue/position')).toBe(MAX_QUEUE_READ_BODY_BYTES);
  const padded = JSON.stringify({ saleId: '7', note: 'x'.repeat(MAX_QUEUE_READ_BODY_BYTES) });
  expect((await call('POST', '/api/market/api/order/create', padded)).status).toBe(200);
  const over = await call('POST', '/api/market/api/order/create', 'x'.repeat(MAX_MARKET_BODY_BYTES + 1));
  expect(over.status).toBe(413);
  expect(JSON.parse(over.body).message).toBe(`body: must be ${MAX_MARKET_BODY_BYTES} bytes or less`);
  expect(asked).toHaveLength(1);
});

it('sends the read to the framework until the app has installed its reader', async () => {
  installQueueDoor(null);
  expect((await call('POST', POSITION, '{"saleId":"1"}')).body).toBe('framework');
});

it('refuses a body over the limit with 413 naming the body, without asking the reader', async () => {
  const answer = await call('POST', POSITION, 'x'.repeat(MAX_QUEUE_READ_BODY_BYTES + 1));
  expect(answer.status).toBe(413);
  expect(JSON.parse(answer.body).message).toBe(`body: must be ${MAX_QUEUE_READ_BODY_BYTES} bytes or less`);
  expect(asked).toHaveLength(0);
});

it('answers a reader that fails with a plain 500 envelope, not a hung call', async () => {
  installQueueDoor(async () => {
    throw new Error('the database is gone');
  });
  const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
  const answer = await call('POST', POSITION, '{"saleId":"1"}');
  expect(answer.status).toBe(500);
  expect(JSON.parse(answer.body).code).toBe(500);
  errors.mockRestore();
});

describe('a watch (queue/watch)', () => {
  const WATCH = '/api/market/api/queue/watch';
  const first = JSON.stringify({ code: 200, message: 'ok', data: { status: 'queued' } });

  it('keeps the answer open as a stream of lines: the answer first, then each push, until the buyer leaves', async () => {
    const sinks: DoorSink[] = [];
    let closed = 0;
    installQueueDoor(async (call) => {
      asked.push(call);
      return {
        status: 200,
        body: first,
        stream: (sink) => {
          sinks.push(sink);
          return () => closed++;
        },
      };
    });
    const lines: string[] = [];
    let buffer = '';
    const req = request({
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      method: 'POST',
      path: WATCH,
      headers: { 'content-type': 'application/json', authorization: 'Bearer buyer-token' },
      agent: false,
    });
    const headers = new Promise<IncomingMessage>((resolve) => req.on('response', resolve));
    req.end('{"saleId":"9"}');
    const res = await headers;
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const got = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (lines.length >= n ? resolve() : setTimeout(check, 5));
        check();
      });
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      lines.push(...parts);
    });
    await got(1);
    expect(lines).toEqual([first]);
    sinks[0]!.write('{"code":200,"message":"ok","data":{"status":"soldOut"}}');
    await got(2);
    expect(JSON.parse(lines[1]!).data.status).toBe('soldOut');
    expect(closed).toBe(0);
    // The buyer leaves (the page closed): the watch is closed with the connection.
    res.destroy();
    await new Promise<void>((resolve) => {
      const check = () => (closed === 1 ? resolve() : setTimeout(check, 5));
      check();
    });
    expect(asked.map((c) => c.path)).toEqual(['/market/api/queue/watch']);
  });

  it('sends the answer as a plain one when no watch can open', async () => {
    installQueueDoor(async () => ({ status: 200, body: first, stream: () => null }));
    const answer = await call('POST', WATCH, '{"saleId":"9"}');
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer.body)).toEqual(JSON.parse(first));
  });
});
