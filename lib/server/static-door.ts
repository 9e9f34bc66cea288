import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { acceptsCoding } from './accept-encoding';

/**
 * The static door (issue 34, "the client JavaScript a shared page needs ... cut"; docs/caching.md, "The static door"):
 * the entry server (server.ts) answers Next's built scripts and styles (`/_next/static/…`) from memory, compressed once
 * when the storefront is built (scripts/compress-static.ts): brotli at its best quality for the browsers that take it
 * (every current one, over HTTPS and on localhost), and gzip by zopfli, 3% smaller than zlib's best, for the rest.
 * Next's own static serving gzips every answer again at zlib's default level; a phone on a slow link pays for each
 * byte before the page comes alive (the goods page's scripts: 142.5 kB that way, 122 kB in brotli).
 *
 * What it does not hold (a file built since, a range request, a query, a client that takes neither coding, a name
 * spelt another way) goes on to Next as before. The set is used only when it was made from this build (BUILD_ID).
 *
 * Plain Node: server.ts loads it outside the app's bundle.
 */

/** The folder under Next's build folder that holds the compressed files and their list. */
export const COMPRESSED_DIR = 'compressed-static';
export const COMPRESSED_LIST = 'list.json';
/** What is worth compressing: text. Pictures and fonts under static/media are compressed already. */
export const COMPRESSED_TYPES: Readonly<Record<string, string>> = {
  '.js': 'application/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.json': 'application/json; charset=UTF-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=UTF-8',
};
/** Files under this size are left to Next, as its own compression leaves them. */
export const COMPRESS_FROM_BYTES = 1024;

/** The list written beside the compressed files: the build they belong to and each file, relative to `static/`. */
export type CompressedList = {
  buildId: string;
  files: { path: string; etag: string }[];
  /** The scripts carry V8's compile hint (scripts/compile-hints.ts); a list without it is prepared again. */
  compileHints?: boolean;
};

type Held = { type: string; etag: string; br: Buffer; gzip: Buffer };
const PREFIX = '/_next/static/';
/** Next's own answer for a built file: its name changes with its content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The held files by their path under `/_next/static/`, once loaded (null: none for this build). */
let held: Map<string, Held> | null = null;

/** The etag of a file's content: the same for both codings, told apart by a suffix. */
export function contentTag(content: Buffer): string {
  return createHash('sha256').update(content).digest('base64url').slice(0, 22);
}

/**
 * Loads the compressed files of the build in `distDir` (server.ts, at start). None when they are missing or were made
 * from another build: Next serves everything then, as before. Returns how many are held.
 */
export function loadStaticDoor(distDir: string): number {
  held = null;
  const folder = path.join(distDir, COMPRESSED_DIR);
  const listFile = path.join(folder, COMPRESSED_LIST);
  const buildIdFile = path.join(distDir, 'BUILD_ID');
  if (!existsSync(listFile) || !existsSync(buildIdFile)) return 0;
  let list: CompressedList;
  try {
    list = JSON.parse(readFileSync(listFile, 'utf8')) as CompressedList;
  } catch {
    return 0;
  }
  if (list.buildId !== readFileSync(buildIdFile, 'utf8').trim() || !Array.isArray(list.files)) return 0;
  const files = new Map<string, Held>();
  for (const file of list.files) {
    const type = COMPRESSED_TYPES[path.extname(file.path)];
    const stored = path.join(folder, file.path);
    if (!type || !existsSync(`${stored}.br`) || !existsSync(`${stored}.gz`)) continue;
    files.set(file.path, { type, etag: file.etag, br: readFileSync(`${stored}.br`), gzip: readFileSync(`${stored}.gz`) });
  }
  held = files;
  return files.size;
}

/** Forgets what loadStaticDoor held (tests). */
export function unloadStaticDoor(): void {
  held = null;
}

/**
 * Answers `req` when it asks for a held file in a coding the client takes; false leaves it to Next. A GET or HEAD of
 * the plain path only: no query, no range.
 */
export function answerStaticAtTheDoor(req: IncomingMessage, res: ServerResponse): boolean {
  if (!held || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  const url = req.url ?? '';
  if (!url.startsWith(PREFIX) || req.headers.range !== undefined) return false;
  const file = held.get(url.slice(PREFIX.length));
  if (!file) return false; // also any query, percent-escape or dot segment: not a held name
  const accept = req.headers['accept-encoding'];
  const coding = acceptsCoding(accept, 'br') ? 'br' : acceptsCoding(accept, 'gzip') ? 'gzip' : null;
  if (!coding) return false;
  const body = coding === 'br' ? file.br : file.gzip;
  const etag = `"${file.etag}-${coding}"`;
  res.setHeader('cache-control', IMMUTABLE);
  res.setHeader('content-type', file.type);
  res.setHeader('vary', 'Accept-Encoding');
  res.setHeader('etag', etag);
  if (matches(req.headers['if-none-match'], etag)) {
    res.statusCode = 304;
    res.end();
    return true;
  }
  res.statusCode = 200;
  res.setHeader('content-encoding', coding);
  res.setHeader('content-length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/** Whether If-None-Match names `etag` (weakly, as RFC 9110 §13.1.2 compares for a GET) or is `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
