import 'server-only';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client';
import { cachesOf, CACHE_TTL_MS, PAGE_STALE_MS, STALE_IF_ERROR_MS, tags, type ReadOptions } from '../cache/store';
import type { RouteMatch } from '../channel/routes';
import { VISITOR_HEADER, type Visitor } from './visitor';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dropStyleCopies } from './inline-style';
import { propertiesOf, subsetInlineStyle, wordsOf, type PageWords } from './style-subset';

/**
 * Rendered public pages, cached (docs/caching.md). A page every visitor sees alike (routes marked `shared`) is
 * rendered once by Next through this same server and kept under the tags of the data it shows; the proxy answers
 * the next visitors from here, each with a fresh CSP nonce: the render's nonce never leaves the server, and every
 * answer carries its own, as if rendered for it (docs/decisions.md). What is kept is Next's page as it wrote it, its
 * stylesheet inline (next.config.ts, `inlineCss`; docs/caching.md, "Painted from the page alone"), written once
 * (lib/page/inline-style.ts) and cut to what the page can show (lib/page/style-subset.ts).
 */
export type RenderedPage =
  { kind: 'page'; body: string; contentType: string; nonce: string | null } | { kind: 'redirect'; status: number; location: string };

/** The header by which the proxy knows its own render request, which it must pass to Next rather than answer. */
export const RENDER_HEADER = 'x-storefront-render';

const process_ = globalThis as unknown as { storefrontRenderSecret?: string };
/** Per process: only this server can ask for a render past the cache. */
function renderSecret(): string {
  process_.storefrontRenderSecret ??= randomBytes(24).toString('base64url');
  return process_.storefrontRenderSecret;
}

/** The header that sends a request past the proxy's caches to Next (a render for a cache: pages, flight answers). */
export function renderRequestHeaders(): Record<string, string> {
  return { [RENDER_HEADER]: renderSecret() };
}

export function isRenderRequest(headers: Headers): boolean {
  return headers.get(RENDER_HEADER) === renderSecret();
}

/**
 * Whether the cache may answer: a browser's page load (a GET of a shared route, asking for HTML, and not a fetch from
 * script). Next removes its router headers (`RSC`, `Next-Router-State-Tree`, the prefetch headers) and the `_rsc`
 * search parameter before the proxy runs, so the router's RSC fetches and prefetches, which Next answers with other
 * bodies for the same URL, are told apart by what the browser adds: fetch() accepts any type and sends
 * `Sec-Fetch-Dest: empty`, a page load `Accept: text/html,...` and `Sec-Fetch-Dest: document`. A client sending
 * neither Sec-Fetch header (older browsers, link-preview bots) is served from the cache only when it asks for HTML.
 */
export function servesFromCache(method: string, headers: Headers, match: RouteMatch): boolean {
  if (method !== 'GET' || !match.route.shared || isRenderRequest(headers)) return false;
  const dest = headers.get('sec-fetch-dest');
  if (dest !== null && dest !== 'document') return false;
  return /\btext\/html\b/i.test(headers.get('accept') ?? '');
}

/**
 * The tags of a shared page: its channel, and the look of what it shows. A stock move invalidates the look too
 * (`stockMoved`), so copies left are exact in the process that sold; other processes: docs/caching.md.
 */
export function pageTags(channel: { id: number; key: string }, match: RouteMatch): string[] {
  switch (match.route.name) {
    // issue 35: the goods page of a lottery sale shows its window and draw, which its setup and draw change.
    case 'goodsDetail':
      return [tags.channel(channel.key), tags.sale(match.params.saleId ?? ''), tags.saleTerms(match.params.saleId ?? '')];
    // issue 34: the pay page shows the sale's terms, price and copies left, as the goods page does; issue 35: and
    // whether it goes through a waiting room, which its setup changes.
    case 'pay':
      return [tags.channel(channel.key), tags.sale(match.params.saleId ?? ''), tags.saleTerms(match.params.saleId ?? '')];
    case 'home':
      return [tags.channel(channel.key), tags.sales(channel.id)];
    // issue 34: /mine shows the channel's look, labels and settings (its entries, the real-name row's place), nothing
    // of a sale: the channel's tag, as the default below; the buyer's counts are the call's, never the page's.
    default:
      return [tags.channel(channel.key)];
  }
}

/**
 * How a page or a flight answer is kept: its time to live and grace, the last good one standing in while renders fail
 * (issue 29), and the last one answered while a render after an invalidation is on its way (issue 34: in a drop's
 * selling seconds each buy invalidates the goods and pay pages; every reader used to wait for a render begun after the
 * last buy, and a render a buy overtook was never kept, so hundreds of renders went through Next and none was kept).
 * A page read after a write with no render going waits for its render, so it shows the write.
 */
export function pageReadOptions(entryTags: readonly string[]): ReadOptions {
  return { tags: entryTags, ttlMs: CACHE_TTL_MS, staleMs: PAGE_STALE_MS, errorMs: STALE_IF_ERROR_MS, behind: true };
}

/**
 * The cached page under `key`, rendered by `render` when missing or invalidated. When the render fails (the database
 * down: Next answers 500), the last good render is answered for up to STALE_IF_ERROR_MS (issue 29).
 */
export async function readRenderedPage(
  db: Db,
  key: string,
  entryTags: readonly string[],
  render: () => Promise<RenderedPage | undefined>,
): Promise<RenderedPage | undefined> {
  return (await cachesOf(db).pages.read(key, pageReadOptions(entryTags), render)) as RenderedPage | undefined;
}

/** A render that failed: Next answered a server error, or nothing in time. */
export class RenderFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderFailed';
  }
}

/**
 * Renders `path` through this same server (Next, past the proxy's cache), as a visitor without cookies on `host`
 * would get it. A 200 page or a redirect is kept; anything else that Next answered (a 404) is not, and the caller
 * lets the request go to Next as usual. A server error, a time-out or a broken connection rejects (RenderFailed), so
 * the cache can answer the last good render instead. Node's fetch cannot send a Host header, hence http.request.
 */
export function renderThroughServer(
  origin: URL,
  path: string,
  headers: { host: string; acceptLanguage: string | null; visitor?: Visitor },
): Promise<RenderedPage | undefined> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: origin.hostname,
        port: origin.port,
        method: 'GET',
        path,
        headers: {
          host: headers.host,
          ...(headers.acceptLanguage ? { 'accept-language': headers.acceptLanguage } : {}),
          'accept-encoding': 'identity',
          [RENDER_HEADER]: renderSecret(),
          // The variant of a page that has one per visitor (issue 34: /mine), which the proxy passes on to the page.
          ...(headers.visitor ? { [VISITOR_HEADER]: headers.visitor } : {}),
        },
        timeout: 10_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error) => reject(new RenderFailed(`${path}: ${error.message}`)));
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 500) return reject(new RenderFailed(`${path}: HTTP ${status}`));
          const location = response.headers.location;
          if ((status === 307 || status === 308) && location) return resolve({ kind: 'redirect', status, location });
          const contentType = response.headers['content-type'] ?? '';
          if (status !== 200 || !contentType.startsWith('text/html') || response.headers['set-cookie']) return resolve(undefined);
          const csp = response.headers['content-security-policy'];
          const nonce = (Array.isArray(csp) ? csp[0] : csp)?.match(/'nonce-([^']+)'/)?.[1] ?? null;
          resolve({ kind: 'page', body: keptPage(Buffer.concat(chunks).toString('utf8')), contentType, nonce });
        });
      },
    );
    request.on('timeout', () => request.destroy(new RenderFailed(`${path}: no answer within 10 s`)));
    request.on('error', (error) => reject(error instanceof RenderFailed ? error : new RenderFailed(`${path}: ${error.message}`)));
    request.end();
  });
}

/** A rendered page as the cache keeps it: its stylesheet once, cut to the page in a production build. */
function keptPage(html: string): string {
  const once = dropStyleCopies(html);
  return process.env.NODE_ENV === 'production' ? subsetInlineStyle(once, builtScriptWords) : once;
}

/** The words of each built script, by its address (their names change with their content: kept for the process). */
const scriptWords = new Map<string, PageWords | null>();

/** The words a built script holds (lib/page/style-subset.ts), read from the build folder; null when it cannot be read. */
function builtScriptWords(src: string): PageWords | null {
  const known = scriptWords.get(src);
  if (known !== undefined) return known;
  let words: PageWords | null = null;
  if (src.startsWith('/_next/static/') && !src.includes('..')) {
    try {
      const text = readFileSync(path.join(process.env.NEXT_DIST_DIR ?? '.next', src.slice('/_next/'.length)), 'utf8');
      // Long words (a script's code between two quotes) cannot be class names: not kept.
      words = {
        words: new Set([...wordsOf(text)].filter((word) => word.length <= 100)),
        properties: propertiesOf(text),
        loads: [...new Set(text.match(/\bstatic\/chunks\/[\w.-]+\.js\b/g) ?? [])].map((chunk) => `/_next/${chunk}`),
      };
    } catch {
      words = null;
    }
  }
  scriptWords.set(src, words);
  return words;
}

/** A cached body cut at the render's nonce: an answer joins the pieces with its own (one piece without a nonce). */
export function nonceParts(body: string, nonce: string | null): string[] {
  return nonce ? body.split(nonce) : [body];
}
