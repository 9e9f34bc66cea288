import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib, { constants, deflateRawSync, gzipSync } from 'node:zlib';
import { acceptsCoding } from './accept-encoding';

/**
 * The page door (issue 34, "a shared link served from memory before the framework's pipeline"; docs/caching.md,
 * "The page door"): the entry server (server.ts) answers a page load or a router fetch of a shared page from the
 * rendered-page and flight caches before Next's routing, rendering what they miss (through Next, once for every reader
 * waiting on it). The decision is the proxy's own (lib/page/store-request.ts, through lib/server/page-door-read.ts,
 * installed by the app at start): the same host rules, canonical host, guards, keys, nonce, CSP and security headers.
 * Anything else (a guard that refuses, another spelling of the host, a page not shared, a render not kept, an error)
 * goes on to Next and the proxy as before.
 *
 * Plain Node: server.ts loads it outside the app's bundle; the app installs its reader on globalThis.
 */

/** `headers` are the request's own: the reader may mark them for the proxy when it leaves the request to Next. */
export type PageDoorCall = { method: string; url: string; headers: IncomingMessage['headers'] };
export type PageDoorAnswer = {
  status: number;
  headers: Record<string, string>;
  body: string | null;
  /**
   * A page's text around its nonce (`body` is `pieces.join(nonce)`, joined when read), the same array for every answer
   * of one render.
   */
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

/**
 * Each page's pieces deflated once (raw deflate ending on a sync flush, byte-aligned), with what an answer's CRC-32 needs
 * of each: its own CRC-32 and the operator that shifts a CRC past its length (zlib's crc32_combine, below). `slot` is
 * the nonce's length in bytes the blocks were deflated for (see deflatePieces).
 */
type DeflatedPieces = { blocks: Buffer[]; crcs: number[]; shifts: number[]; bytes: number; slot: number };
const deflatedPieces = new WeakMap<readonly string[], DeflatedPieces>();
/** Deflate looks back this far (its window): the most of what came before a piece that can shorten it. */
const DEFLATE_WINDOW = 32 * 1024;
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]);
/** The last block: stored, empty, final. */
const FINAL_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
const crc32 = (zlib as { crc32?: (data: string | Buffer, value?: number) => number }).crc32;

// CRC-32 of a concatenation from its parts' CRCs, as zlib's crc32_combine (1.2.12 and later) computes it: the CRC of
// A·B is crc(A) times x^(8·|B|) modulo the CRC's polynomial, plus crc(B). Node has zlib.crc32 but not its combine.
const POLY = 0xedb88320;
/** a · b modulo the polynomial (bit-reflected, as the CRC's registers are). */
function multmodp(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}
/** x^(2^k) modulo the polynomial, k = 0..31. */
const X2N: number[] = [0x40000000];
for (let k = 1; k < 32; k++) X2N.push(multmodp(X2N[k - 1]!, X2N[k - 1]!));
/** x^(8·bytes) modulo the polynomial: the operator that moves a CRC past `bytes` bytes. */
export function crcShift(bytes: number): number {
  let p = 0x80000000;
  for (let n = bytes, k = 3; n > 0; n >>>= 1, k++) if (n & 1) p = multmodp(X2N[k & 31]!, p);
  return p;
}
/** The CRC-32 of A·B from crc(A), crc(B) and crcShift(|B|). */
export function crcCombine(crcA: number, crcB: number, shiftB: number): number {
  return (multmodp(shiftB, crcA) ^ crcB) >>> 0;
}

/**
 * Deflates each piece once, as it will follow what comes before it in every answer: the pieces before it with a nonce
 * of `slot` bytes after each. A piece may refer back to the earlier ones (the router's data repeats the page's text
 * and class names; the page's gzip is a fifth smaller than with each piece on its own), but never to a nonce, which
 * differs in each answer. So what comes before is given to deflate with each nonce as `slot` zero bytes: a page has no
 * zero byte (one that has is deflated piece by piece, as if alone), so no stretch deflate finds to repeat can contain
 * one, while every distance it counts back is the same in an answer, whose nonce has the same length.
 */
function deflatePieces(pieces: readonly string[], slot: number, crc: (data: Buffer) => number): DeflatedPieces {
  const raw = pieces.map((piece) => Buffer.from(piece, 'utf8'));
  const refersBack = raw.every((bytes) => !bytes.includes(0));
  const filler = Buffer.alloc(slot);
  let before = Buffer.alloc(0);
  const blocks = raw.map((bytes) => {
    const block = deflateRawSync(bytes, {
      finishFlush: constants.Z_SYNC_FLUSH,
      ...(refersBack && before.length > 0 ? { dictionary: before } : {}),
    });
    if (refersBack) before = Buffer.concat([before, bytes, filler]).subarray(-DEFLATE_WINDOW);
    return block;
  });
  return {
    blocks,
    crcs: raw.map((bytes) => crc(bytes) >>> 0),
    shifts: raw.map((bytes) => crcShift(bytes.length)),
    bytes: raw.reduce((n, bytes) => n + bytes.length, 0),
    slot,
  };
}

/**
 * A page gzipped from its pieces, each deflated once per render, with the answer's nonce between them as stored blocks:
 * the same bytes a browser inflates as `pieces.join(nonce)`, for the cost of a copy instead of deflating 35 kB per
 * answer (0.4–0.7 ms of a core on this machine; every answer's nonce differs, so no answer's gzip can be kept). Its
 * CRC-32 is combined from the pieces' own, taken once per render, and the nonce's: nothing of the page is encoded or
 * read again per answer. Null where Node has no zlib.crc32 (before 20.15), or when the page is under `minBytes`: the
 * caller sends the body as it is, or gzips it whole.
 */
export function gzipPieces(pieces: readonly string[], nonce: string, minBytes = 0): Buffer | null {
  if (!crc32) return null;
  const value = Buffer.from(nonce, 'utf8');
  let deflated = deflatedPieces.get(pieces);
  if (!deflated || deflated.slot !== value.length) {
    deflated = deflatePieces(pieces, value.length, crc32);
    deflatedPieces.set(pieces, deflated);
  }
  const total = deflated.bytes + value.length * (pieces.length - 1);
  if (value.length > 0xffff || total < minBytes) return null;
  const stored = Buffer.concat([
    Buffer.from([0x00, value.length & 0xff, value.length >> 8, ~value.length & 0xff, (~value.length >> 8) & 0xff]),
    value,
  ]);
  const out: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  pieces.forEach((_piece, i) => {
    if (i > 0) {
      out.push(stored);
      crc = crc32(value, crc);
    }
    out.push(deflated.blocks[i]!);
    crc = crcCombine(crc, deflated.crcs[i]!, deflated.shifts[i]!);
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(total >>> 0, 4);
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
  let body: Buffer | null = null;
  // A cached page comes in its pieces, its whole text joined only when read (`body`): gzipped from the pieces, the
  // page is never joined nor encoded again (gzipPieces).
  const inPieces = answer.pieces !== undefined && answer.nonce !== undefined;
  if (inPieces || answer.body !== null) {
    headers.vary = 'Accept-Encoding';
    const gzip = acceptsCoding(req.headers['accept-encoding'], 'gzip');
    body = gzip && inPieces ? gzipPieces(answer.pieces!, answer.nonce!, COMPRESS_FROM_BYTES) : null;
    if (body) headers['content-encoding'] = 'gzip';
    else {
      body = Buffer.from(answer.body ?? '', 'utf8');
      if (gzip && body.length >= COMPRESS_FROM_BYTES) {
        body = gzipSync(body);
        headers['content-encoding'] = 'gzip';
      }
    }
  }
  headers['content-length'] = body ? body.length : 0;
  res.writeHead(answer.status, headers);
  res.end(body ?? undefined);
  return true;
}
