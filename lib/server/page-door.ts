import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib, { constants, deflateRawSync, gzipSync } from 'node:zlib';
import { acceptsCoding } from './accept-encoding';

/**
 * The page door (issue 34, "a shared link served from memory before the framework's pipeline"; docs/caching.md,
 * "The page door"): the entry server (server.ts) answers a page load or a router fetch of a shared page from the
 * rendered-page and flight caches before Next's routing, when the cache holds an entry for it (fresh, or stale within
 * its grace while it is rendered again). The decision is the
 * proxy's own (lib/page/store-request.ts, through lib/server/page-door-read.ts, installed by the app at start): the
 * same host rules, canonical host, guards, keys, nonce, CSP and security headers. Anything else (a redirect to make, a
 * guard that refuses, a miss, an invalidated entry, an error) goes on to Next and the proxy as before, which read,
 * render and refill the cache.
 *
 * Plain Node: server.ts loads it outside the app's bundle; the app installs its reader on globalThis.
 */

export type PageDoorCall = { method: string; url: string; headers: IncomingMessage['headers'] };
export type PageDoorAnswer = {
  status: number;
  headers: Record<string, string>;
  body: string | null;
  /** A page's text around its nonce (`body` is `pieces.join(nonce)`), the same array for every answer of one render. */
  pieces?: readonly string[];
  nonce?: string;
};
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
export const PROXIED_PATH =
  '/((?!api/|_next/static/|_next/image$|favicon\\.ico$|goods/[a-z0-9-]+\\.svg$|brands/[a-z0-9-]+/[a-z0-9-]+\\.svg$|media/[0-9a-f]{64}\\.webp$).*)';
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

/** Each page's pieces deflated once (raw deflate ending on a sync flush, byte-aligned), with their length. */
const deflatedPieces = new WeakMap<readonly string[], { blocks: Buffer[]; bytes: number }>();
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]);
/** The last block: stored, empty, final. */
const FINAL_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
const crc32 = (zlib as { crc32?: (data: string | Buffer, value?: number) => number }).crc32;

/**
 * A page gzipped from its pieces, each deflated once per render, with the answer's nonce between them as stored blocks:
 * the same bytes a browser inflates as `pieces.join(nonce)`, for the cost of a copy and a CRC-32 instead of deflating
 * 35 kB per answer (0.4–0.7 ms of a core on this machine; every answer's nonce differs, so no answer's gzip can be
 * kept). Null where Node has no zlib.crc32 (before 20.15): the caller gzips the whole body.
 */
export function gzipPieces(pieces: readonly string[], nonce: string): Buffer | null {
  if (!crc32) return null;
  let deflated = deflatedPieces.get(pieces);
  if (!deflated) {
    const blocks = pieces.map((piece) => deflateRawSync(Buffer.from(piece, 'utf8'), { finishFlush: constants.Z_SYNC_FLUSH }));
    deflated = { blocks, bytes: pieces.reduce((n, piece) => n + Buffer.byteLength(piece, 'utf8'), 0) };
    deflatedPieces.set(pieces, deflated);
  }
  const value = Buffer.from(nonce, 'utf8');
  if (value.length > 0xffff) return null;
  const stored = Buffer.concat([
    Buffer.from([0x00, value.length & 0xff, value.length >> 8, ~value.length & 0xff, (~value.length >> 8) & 0xff]),
    value,
  ]);
  const out: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  pieces.forEach((piece, i) => {
    if (i > 0) {
      out.push(stored);
      crc = crc32(value, crc);
    }
    out.push(deflated.blocks[i]!);
    crc = crc32(piece, crc);
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((deflated.bytes + value.length * (pieces.length - 1)) >>> 0, 4);
  out.push(FINAL_BLOCK, trailer);
  return Buffer.concat(out);
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
    if (body.length >= COMPRESS_FROM_BYTES && acceptsCoding(req.headers['accept-encoding'], 'gzip')) {
      body = (answer.pieces && answer.nonce !== undefined ? gzipPieces(answer.pieces, answer.nonce) : null) ?? gzipSync(body);
      headers['content-encoding'] = 'gzip';
    }
  }
  headers['content-length'] = body ? body.length : 0;
  res.writeHead(answer.status, headers);
  res.end(body ?? undefined);
  return true;
}
