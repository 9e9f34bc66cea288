import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

/**
 * The page door (issue 34, "a shared link served from memory before the framework's pipeline"; docs/caching.md,
 * "The page door"): the entry server (server.ts) answers a page load or a router fetch of a shared page from the
 * rendered-page and flight caches before Next's routing, when the cache holds a fresh entry for it. The decision is the
 * proxy's own (lib/page/store-request.ts, through lib/server/page-door-read.ts, installed by the app at start): the
 * same host rules, canonical host, guards, keys, nonce, CSP and security headers. Anything else (a redirect to make, a
 * guard that refuses, a miss, a stale entry, an error) goes on to Next and the proxy as before, which read, render and
 * refill the cache.
 *
 * Plain Node: server.ts loads it outside the app's bundle; the app installs its reader on globalThis.
 */

export type PageDoorCall = { method: string; url: string; headers: IncomingMessage['headers'] };
export type PageDoorAnswer = { status: number; headers: Record<string, string>; body: string | null };
export type PageDoorReader = (call: PageDoorCall) => Promise<PageDoorAnswer | null>;

const installed = globalThis as unknown as { storefrontPageDoor?: PageDoorReader };

/** Installs the app's reader (lib/server/page-door-read.ts, from instrumentation.ts). Null removes it. */
export function installPageDoor(reader: PageDoorReader | null): void {
  if (reader) installed.storefrontPageDoor = reader;
  else delete installed.storefrontPageDoor;
}

/**
 * The paths the door looks at: the proxy's (proxy.ts `config.matcher`, kept equal by page-door.test.ts), spelt plainly
 * (letters, digits, `-`, `_`, single slashes, no trailing slash but the root's). A spelling Next would first normalise
 * (a trailing slash, `//`, percent-escapes, dots) goes to Next, which redirects or decodes it as it always has.
 */
export const PROXIED_PATH = '/((?!api/|_next/static/|_next/image$|favicon\\.ico$|goods/[a-z0-9-]+\\.svg$|brands/[a-z0-9-]+/[a-z0-9-]+\\.svg$|media/[0-9a-f]{64}\\.webp$).*)';
const PROXIED = new RegExp(`^${PROXIED_PATH}$`);
const PLAIN_PATH = /^\/(?:[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*)?$/;

/** Whether the door looks at `req`: a GET of a plainly spelt page path, with the app's reader installed. */
export function pageDoorTakes(req: Pick<IncomingMessage, 'method' | 'url'>): boolean {
  if (req.method !== 'GET' || !req.url || !installed.storefrontPageDoor) return false;
  const path = req.url.split('?', 1)[0]!;
  return PLAIN_PATH.test(path) && PROXIED.test(path);
}

/** Bodies under this many bytes go uncompressed, as Next's own compression leaves them. */
const COMPRESS_FROM_BYTES = 1024;

/** Whether the client takes gzip (`Accept-Encoding`, a `q=0` refusing it). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const part of value.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/**
 * Answers `req` from the caches when the app's reader has an answer for it; false (nothing sent) when the request is
 * Next's. The security headers are already on `res` (server.ts `guardEntry`); the answer's own replace them.
 */
export async function answerPageAtTheDoor(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  let answer: PageDoorAnswer | null;
  try {
    answer = await installed.storefrontPageDoor!({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
  } catch (error) {
    console.error('[page-door] the read failed; Next answers', error);
    return false;
  }
  if (!answer || res.headersSent || res.destroyed) return Boolean(answer);
  const headers: Record<string, string | number> = { ...answer.headers };
  let body: Buffer | null = answer.body === null ? null : Buffer.from(answer.body, 'utf8');
  if (body) {
    headers.vary = 'Accept-Encoding';
    if (body.length >= COMPRESS_FROM_BYTES && acceptsGzip(req.headers['accept-encoding'])) {
      body = gzipSync(body);
      headers['content-encoding'] = 'gzip';
    }
  }
  headers['content-length'] = body ? body.length : 0;
  res.writeHead(answer.status, headers);
  res.end(body ?? undefined);
  return true;
}
