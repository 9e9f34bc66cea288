/**
 * The storefront's entry server: Next's request handler behind one step that makes forwarding headers trustworthy
 * (lib/security/forwarded.ts; security review, finding 2). `npm start`, `npm run demo`, the benchmarks and the
 * end-to-end server all start here, so a client can never choose the address that rate limits count, the scheme that
 * decides HSTS and Secure cookies, or the host next-auth builds its URLs from. Buy calls enter through the buy lane
 * (lib/server/buy-lane.ts): a few at a time, in arrival order; the market API's calls are answered at the door
 * (lib/server/queue-door.ts), shared pages the caches hold at the page door (lib/server/page-door.ts), and Next's built
 * scripts and styles, compressed once at build time, at the static door (lib/server/static-door.ts).
 *
 *   PORT (default 3000), HOSTNAME (default all interfaces), TRUSTED_PROXIES (none), `--dev` for the dev server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import next from 'next';
import { buyLaneRunning, env } from './lib/env';
import { parseTrustedProxies, rewriteForwardingHeaders, type TrustedProxies } from './lib/security/forwarded';
import { createBuyLane, takesTheLane, type BuyLaneLimits } from './lib/server/buy-lane';
import { clientErrorAnswer, guardEntry } from './lib/server/entry-guard';
import { markFlightRequest } from './lib/server/flight-request';
import { answerAtTheDoor, queueDoorPath } from './lib/server/queue-door';
import { answerPageAtTheDoor, pageDoorTakes } from './lib/server/page-door';
import { answerStaticAtTheDoor, loadStaticDoor } from './lib/server/static-door';

const dev = process.argv.includes('--dev');
// As `next start` / `next dev` would: production settings unless this is the dev server.
(process.env as Record<string, string | undefined>).NODE_ENV ??= dev ? 'development' : 'production';
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME || undefined;
/** Connection attempts the kernel holds while the server is busy (see `listen` below). */
const LISTEN_BACKLOG = 4096;

function trustedProxies(): TrustedProxies {
  try {
    return parseTrustedProxies(process.env.TRUSTED_PROXIES);
  } catch (error) {
    console.error(`Invalid environment:\n  - ${(error as Error).message}`);
    process.exit(1);
  }
}
const trusted = trustedProxies();

function buyLaneLimits(): BuyLaneLimits {
  try {
    const e = env();
    return {
      running: buyLaneRunning(e),
      inFlight: e.BUY_MAX_IN_FLIGHT,
      perClient: e.BUY_MAX_PER_CLIENT,
      bodyTimeoutMs: e.BUY_BODY_TIMEOUT_MS,
      maxWaitMs: e.BUY_MAX_WAIT_MS,
    };
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
// Buy calls enter the app a few at a time, in arrival order (lib/server/buy-lane.ts; docs/orders.md, "The buy lane").
const buyLane = createBuyLane(buyLaneLimits());

// Next's router takes a proxy rewrite for an external URL when its origin differs from the one the router builds from
// this name and the port, and the URLs the proxy sees are on localhost: with another name here (HOSTNAME=127.0.0.1, as
// behind a reverse proxy), Next proxied every rewrite to itself and every page answered 404 over HTTP, 500 behind TLS
// (found by scripts/deploy-check.sh). The name is only Next's; the socket listens on HOSTNAME below.
const app = next({ dev, turbopack: dev, port, hostname: 'localhost' });
const handle = app.getRequestHandler();

app
  .prepare()
  .then(() => {
    // Next's built scripts and styles, compressed once at build time (brotli, zopfli's gzip), answered from memory
    // (lib/server/static-door.ts; issue 34); none held when they were not made from this build, nor by the dev server.
    if (!dev) loadStaticDoor(process.env.NEXT_DIST_DIR ?? '.next');
    const server = createServer((req, res) => {
      rewriteForwardingHeaders(req.headers, req.socket.remoteAddress, trusted, 'http');
      if (guardEntry(req, res) === 'answered') return; // security headers on every answer; 400 for what Next cannot read
      if (answerStaticAtTheDoor(req, res)) return;
      // The router's fetches keep what Next strips before the proxy, for the flight cache (issue 34,
      // lib/server/flight-request.ts); a client's own copy of that header is dropped here, for every request.
      const marking = markFlightRequest(req);
      if (marking) return void marking.then(() => pageOrNext(req, res));
      if (takesTheLane(req)) return buyLane.admit(req, res, (read) => apiOrNext(read, res));
      apiOrNext(req, res);
    });
    // The market API's calls (a waiting room's position reads, every second from every waiting buyer; a drop's pay
    // states, buys and payments) are answered before the framework's pipeline, through the API's dispatcher all the
    // same (lib/server/queue-door.ts; issues 34, 35).
    const apiOrNext = (req: IncomingMessage, res: ServerResponse) => {
      const doorPath = queueDoorPath(req);
      if (doorPath) return answerAtTheDoor(req, res, doorPath);
      pageOrNext(req, res);
    };
    // A shared page the caches hold (a goods link, the pay page, the sold-out page, an in-app navigation to them)
    // is answered before the framework's pipeline, on the proxy's own decision; everything else is Next's
    // (lib/server/page-door.ts; issue 34).
    const pageOrNext = (req: IncomingMessage, res: ServerResponse) => {
      if (!pageDoorTakes(req)) return void handle(req, res);
      void answerPageAtTheDoor(req, res).then((answered) => {
        if (!answered) void handle(req, res);
      });
    };
    // Slow or idle clients must not hold sockets for ever (Node's defaults: 300 s per request, 5 s keep-alive).
    // A request Node's parser refused gets its answer with the security headers too (lib/server/entry-guard.ts).
    server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
      if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
      socket.end(clientErrorAnswer(error));
    });
    server.requestTimeout = 30_000;
    server.headersTimeout = 15_000;
    // A drop's crowd opens connections faster than the event loop accepts them: with Node's default backlog (511) the
    // kernel dropped connection attempts when 10,000 buyers joined a waiting room within 10 s, and a dropped attempt
    // costs the phone a retry 1 s later, then 3 s (bench:drop, queue mode: join p99 7.9 s). The kernel caps it at
    // net.core.somaxconn (4096 on current Linux).
    server.listen({ port, host: hostname, backlog: LISTEN_BACKLOG }, () => {
      console.log(
        `> storefront ready on http://${hostname ?? 'localhost'}:${port}${dev ? ' (dev)' : ''}${trusted.empty ? '' : ' behind trusted proxies'}`,
      );
    });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        server.close();
        // What a process holds in memory for the database (today's page views, lib/channel/page-views.ts) is written
        // before it exits; a hook that hangs (the database gone) holds the exit up 3 s at most.
        const hooks = (globalThis as { storefrontShutdownHooks?: (() => Promise<void>)[] }).storefrontShutdownHooks ?? [];
        void Promise.race([Promise.allSettled(hooks.map((hook) => hook())), new Promise((done) => setTimeout(done, 3_000))]).then(() =>
          process.exit(0),
        );
      });
    }
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
