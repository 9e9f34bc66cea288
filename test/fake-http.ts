import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export type FakeRequest = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };
export type FakeAnswer = { status: number; body: string } | 'hang';

/**
 * A real HTTP server on 127.0.0.1 (a free port) standing in for an outside API: each request is read whole and handed
 * to `answer`; 'hang' never answers (for time limits). Used by the SMS carrier tests, and (on a fixed port, over TLS) by
 * scripts/deploy-fakes.ts.
 */
/** Where a fake listens: a free port over plain HTTP by default; the deployment check gives a fixed port and TLS. */
export type FakeListen = { port?: number; tls?: { key: string; cert: string } };

/** Starts `handler` on 127.0.0.1 as `listen` says; answers the server and its origin (http(s)://127.0.0.1:port). */
export async function listenOnLoopback(
  handler: http.RequestListener,
  listen: FakeListen = {},
): Promise<{ server: http.Server; origin: string }> {
  const server = listen.tls ? https.createServer(listen.tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return { server, origin: `${listen.tls ? 'https' : 'http'}://127.0.0.1:${port}` };
}

export async function startFakeHttp(
  answer: (request: FakeRequest) => FakeAnswer,
  listen: FakeListen = {},
): Promise<{
  origin: string;
  requests: FakeRequest[];
  close: () => Promise<void>;
}> {
  const requests: FakeRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      const reply = answer(request);
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json;charset=utf-8' }).end(reply.body);
    });
  };
  const { server, origin } = await listenOnLoopback(handler, listen);
  return {
    origin,
    requests,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An origin where nothing listens (a server started and closed again): connections are refused. */
export async function deadOrigin(): Promise<string> {
  const fake = await startFakeHttp(() => ({ status: 200, body: '{}' }));
  await fake.close();
  return fake.origin;
}
