import http from 'node:http';

/**
 * The benchmarks' HTTP (scripts/bench-drop.ts and its modes): keep-alive connections from loopback addresses of their
 * own, one per phone, and answers timed and read whole.
 */

/**
 * A connection (lane): the server it talks to (lanes are spread over the processes in turn) and the loopback address
 * it comes from. Each lane is one phone, so each has an address of its own (127.1.x.y), as buyers arrive: the
 * server's per-client limits (the buy lane's places per address, issue 29) stay on and count each buyer as one.
 */
export type Lane = { port: number; from: string };

export const laneAt = (lane: number, port: number, processes: number): Lane => ({
  port: port + (lane % processes),
  from: `127.1.${Math.floor(lane / 250)}.${(lane % 250) + 1}`,
});

export type Answer = { status: number; json: unknown; ms: number; retryAfterMs: number; network?: string; location?: string };

/**
 * A request function over keep-alive connections, as a phone's browser keeps them. An idle one is closed here after
 * 4 s, before the server closes it at 5 s (Node's keepAliveTimeout): reusing a connection at the moment the server
 * closes it is a reset. Requests go to `defaultPort` unless a lane or another port is named; the Host is the demo
 * channel AURORA's.
 */
export function httpRequester(defaultPort: number, maxSockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets, timeout: 4000 });
  function request(
    method: 'GET' | 'POST',
    urlPath: string,
    body?: unknown,
    token?: string,
    to: Lane | number = defaultPort,
    extraHeaders: Record<string, string> = {},
  ): Promise<Answer> {
    const { port, from } = typeof to === 'number' ? { port: to, from: '127.0.0.1' } : to;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { host: `aurora.localhost:${port}`, ...extraHeaders };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    if (token) headers.authorization = token;
    const started = performance.now();
    return new Promise((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, localAddress: from, method, path: urlPath, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - started;
          let json: unknown = null;
          // Pages (the journey's documents and flight answers) are read, not parsed.
          if (!/^text\/(html|x-component)/.test(res.headers['content-type'] ?? '')) {
            try {
              json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              json = null;
            }
          }
          const retryAfter = Number(res.headers['retry-after']);
          resolve({
            status: res.statusCode ?? 0,
            json,
            ms,
            retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 1000,
            location: res.headers.location,
          });
        });
      });
      // A reset or refused connection is an answer too (status 0): what a buyer's phone shows as a network error.
      req.on('error', (error: NodeJS.ErrnoException) =>
        resolve({ status: 0, json: null, ms: performance.now() - started, retryAfterMs: 1000, network: error.code ?? error.message }),
      );
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }
  // `close()` ends the idle connections, so the process can exit.
  return Object.assign(request, { close: () => agent.destroy() });
}
