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
export async function startFakeHttp(
  answer: (request: FakeRequest) => FakeAnswer,
  listen: { port?: number; tls?: { key: string; cert: string } } = {},
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
  const server = listen.tls ? https.createServer(listen.tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${listen.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
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
