import 'server-only';
import http from 'node:http';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client';
import { namedCache } from '../cache/store';
import { routerHeaders, type FlightRequest } from './flight-headers';
import { pageReadOptions, renderRequestHeaders, RenderFailed } from './rendered';
import type { SharedPagePlan, StandIn } from './shared-page';
import type { RouteMatch } from '../channel/routes';

/**
 * Flight answers, cached (issue 34; docs/caching.md, "Flight answers"). An in-app navigation or prefetch of a shared
 * route (home, goods detail, /404) is the router's fetch of the page's RSC payload; Next renders it per request. Like
 * the rendered pages (lib/page/rendered.ts), it is rendered once through this same server, without cookies, and kept
 * under the page's tags; each later answer gets a fresh nonce in place of the render's.
 *
 * The answer depends on the page (channel, language, route and parameters, parsed: the page's own key from
 * lib/page/shared-page.ts), the router state tree the router sends (what it already holds: Next renders from where it
 * differs), and the prefetch kind. Not on `Next-Url` while no route intercepts (Next's Vary does not name it; an answer
 * whose Vary does is never kept), nor on cookies (shared routes read no session; the render sends none).
 */
export type FlightAnswer = {
  body: string;
  /** Next's headers that the router reads (Vary, the rewritten path, the stale time). */
  headers: Record<string, string>;
  nonce: string | null;
};

/** Router state trees longer than this are Next's to answer (a real one is under 1.5 kB; issue 34). */
export const MAX_TREE_LENGTH = 4096;
/**
 * How many router states (with prefetch kinds) one page keeps answers for. A page is reached from a handful of depths
 * (another goods page, home, a list) and prefetched two ways; a stream of made-up trees fills these slots at most, and
 * then goes to Next per request (as before this cache), never pushing a page's known answers out.
 */
export const MAX_VARIANTS_PER_PAGE = 12;
/** 13 kB answers: 1,000 stay under 15 MB per process. */
export const MAX_FLIGHT_ENTRIES = 1000;

/** The headers of Next's answer that the router reads; everything else is set as for any page. */
const KEPT_HEADERS = ['vary', 'x-nextjs-rewritten-path', 'x-nextjs-rewritten-query', 'x-nextjs-stale-time', 'x-nextjs-postponed'];

/** lib/security/headers.ts `newNonce`: 16 random bytes in base64. */
const NONCE_LENGTH = 24;

const SEGMENT_PREFETCH = /^\/[A-Za-z0-9_$.\-/()[\]@%]{0,256}$/;

export type FlightPlan = { kind: 'cache'; key: string; renderPath: string; standIn?: StandIn } | { kind: 'next'; reason: string };

/**
 * Whether the router fetch `flight` of the shared page `page` (its plan) may be answered from the cache, and under
 * which key. `requestPath` is the path and query the router asked for (without `_rsc`): only the page's own spelling
 * is cached, since the answer names the URL the router then shows and keys its segments by the query. A page with a
 * stand-in (the result page's order, the cashier's payment: lib/page/shared-page.ts `StandIn`) is rendered once with
 * it, and answered with the request's number in its place (`withValue`).
 */
export function planFlight(
  page: SharedPagePlan,
  flight: FlightRequest,
  requestPath: string,
  target: { match: RouteMatch; channelKey: string; locale: string },
): FlightPlan {
  const { channelKey, locale } = target;
  if (page.kind !== 'cache') return { kind: 'next', reason: 'the page redirects' };
  if (requestPath !== (page.standIn?.path ?? page.renderPath)) return { kind: 'next', reason: 'another spelling of the page' };
  if (flight.segmentPrefetch !== null && !SEGMENT_PREFETCH.test(flight.segmentPrefetch)) return { kind: 'next', reason: 'segment' };
  if (flight.tree !== null && !plausibleTree(flight.tree, channelKey, locale)) return { kind: 'next', reason: 'router state' };
  const tree = flight.tree === null ? null : treeUpToTarget(flight.tree, routeSegments(target.match, channelKey, locale));
  const variant = JSON.stringify([flight.prefetch, flight.segmentPrefetch, tree]);
  if (page.standIn) return { kind: 'cache', key: `${page.key}|${variant}`, renderPath: page.standIn.renderPath, standIn: page.standIn };
  return { kind: 'cache', key: `${page.key}|${variant}`, renderPath: page.renderPath };
}

/**
 * `text` (a cached answer, rendered with `standIn.standIn`) with the request's number in the stand-in's place. Both are
 * of one length and one alphabet (digits, a leading letter), so a flight payload's declared byte lengths stay right,
 * and the number was checked against its pattern before it came here (lib/page/shared-page.ts).
 */
export function withValue(text: string, standIn: Pick<StandIn, 'standIn' | 'value'>): string {
  if (standIn.value.length !== standIn.standIn.length) throw new Error('a number of another length would break the payload');
  return text.split(standIn.standIn).join(standIn.value);
}

/** A segment of the app's tree as the router names it: a folder's name, or a dynamic one's parameter and value. */
export type TargetSegment = string | readonly [name: string, value: string];

/**
 * The segments of the page `match` names, from the root: the channel's and the language's dynamic segments
 * (app/[channel]/[locale]), then the route's pattern, a `:name` part being the folder `[name]` with the request's value
 * (lib/channel/routes.test.ts checks every shared route's pattern against the app's folders).
 */
export function routeSegments(match: RouteMatch, channelKey: string, locale: string): TargetSegment[] {
  const parts = match.route.pattern.split('/').filter(Boolean);
  return [
    '',
    ['channel', channelKey],
    ['locale', locale],
    ...parts.map((part): TargetSegment => (part.startsWith(':') ? [part.slice(1), match.params[part.slice(1)] ?? ''] : part)),
  ];
}

/** What the router's tree holds where it differs from the page asked for: nothing Next reads (issue 34). */
const DIVERGED = '…';

/**
 * The router state tree `tree` (URI-encoded JSON, as sent) as far as it matters to Next's answer for the page whose
 * segments are `target`: Next renders from the first segment where the router's tree and the page differ, so what the
 * tree holds below that segment (the page the buyer comes from: a payment's cashier, another sale's goods page) does
 * not change the answer and is cut, and every buyer coming from a page of one shape shares one cached answer (issue 34:
 * the result page after the cashier, whose tree names each buyer's payment). A tree that does not parse is kept whole.
 */
export function treeUpToTarget(tree: string, target: readonly TargetSegment[]): string {
  let root: unknown;
  try {
    root = JSON.parse(decodeURIComponent(tree));
  } catch {
    return tree;
  }
  const cut = (node: unknown, depth: number): unknown => {
    if (!Array.isArray(node)) return node;
    const want = target[depth];
    if (want === undefined || !sameSegment(node[0], want)) return DIVERGED;
    const routes = node[1] as Record<string, unknown> | undefined;
    if (!routes || typeof routes !== 'object' || routes.children === undefined || depth + 1 >= target.length) return node;
    return [node[0], { ...routes, children: cut(routes.children, depth + 1) }, ...node.slice(2)];
  };
  return JSON.stringify(cut(root, 0));
}

function sameSegment(segment: unknown, want: TargetSegment): boolean {
  if (typeof want === 'string') return segment === want;
  return Array.isArray(segment) && segment[0] === want[0] && segment[1] === want[1];
}

/**
 * A router state tree as Next's router sends it: URI-encoded JSON, an array from the root segment (''), and, where it
 * names the channel and language segments, this channel's and this language's (a tree of another channel is a made-up
 * one: it would only take a slot).
 */
export function plausibleTree(tree: string, channelKey: string, locale: string): boolean {
  if (tree.length > MAX_TREE_LENGTH) return false;
  let value: unknown;
  try {
    value = JSON.parse(decodeURIComponent(tree));
  } catch {
    return false;
  }
  if (!Array.isArray(value) || value[0] !== '') return false;
  const json = JSON.stringify(value);
  for (const [, name, param] of json.matchAll(/\["(channel|locale)","([^"]*)"/g)) {
    if (name === 'channel' && param !== channelKey) return false;
    if (name === 'locale' && param !== locale) return false;
  }
  return true;
}

const registry = globalThis as unknown as { storefrontFlightVariants?: WeakMap<object, LRUCache<string, Set<string>>> };

/**
 * Admits `key`'s router state to the cache of its page, first come: true when it is one of the page's kept states
 * (or a slot was free). Pages are bounded too (least recently used first out), as the page cache's entries are.
 */
export function admitVariant(db: object, pageKey: string, key: string): boolean {
  registry.storefrontFlightVariants ??= new WeakMap();
  let pages = registry.storefrontFlightVariants.get(db);
  if (!pages) {
    pages = new LRUCache<string, Set<string>>({ max: 2000 });
    registry.storefrontFlightVariants.set(db, pages);
  }
  let variants = pages.get(pageKey);
  if (!variants) {
    variants = new Set();
    pages.set(pageKey, variants);
  }
  if (variants.has(key)) return true;
  if (variants.size >= MAX_VARIANTS_PER_PAGE) return false;
  variants.add(key);
  return true;
}

/** The flight cache of `db`: on the store's tag clock, so the page's tags and the fan-out invalidate it (lib/cache/store.ts). */
export function flightCache(db: object) {
  return namedCache(db, 'flight', { maxEntries: MAX_FLIGHT_ENTRIES });
}

/** The cached answer under `key`, rendered by `render` on a miss; timings as the rendered pages (docs/caching.md). */
export async function readFlight(
  db: Db,
  key: string,
  entryTags: readonly string[],
  render: () => Promise<FlightAnswer | undefined>,
): Promise<FlightAnswer | undefined> {
  return (await flightCache(db).read(key, pageReadOptions(entryTags), render)) as FlightAnswer | undefined;
}

/**
 * The router fetch `flight` of `path` rendered by Next through this same server, past the proxy's caches, as a
 * visitor without cookies on `host` would get it. Kept only when Next answered 200 `text/x-component` without a
 * cookie and without varying on `Next-Url`; a server error or a time-out rejects (RenderFailed), so the last good
 * answer stands in, as for pages.
 */
export function renderFlightThroughServer(
  origin: URL,
  path: string,
  flight: FlightRequest,
  headers: { host: string; acceptLanguage: string | null },
): Promise<FlightAnswer | undefined> {
  const target = `${path}${path.includes('?') ? '&' : '?'}_rsc=${encodeURIComponent(flight.rsc)}`;
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: origin.hostname,
        port: origin.port,
        method: 'GET',
        path: target,
        headers: {
          host: headers.host,
          ...(headers.acceptLanguage ? { 'accept-language': headers.acceptLanguage } : {}),
          'accept-encoding': 'identity',
          ...routerHeaders(flight),
          ...renderRequestHeaders(),
        },
        timeout: 10_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error) => reject(new RenderFailed(`${path} (flight): ${error.message}`)));
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 500) return reject(new RenderFailed(`${path} (flight): HTTP ${status}`));
          const contentType = response.headers['content-type'] ?? '';
          const vary = String(response.headers.vary ?? '');
          if (status !== 200 || !contentType.startsWith('text/x-component') || response.headers['set-cookie'] || /next-url/i.test(vary)) {
            return resolve(undefined);
          }
          const kept: Record<string, string> = { 'content-type': contentType };
          for (const name of KEPT_HEADERS) {
            const value = response.headers[name];
            if (typeof value === 'string') kept[name] = value;
          }
          const csp = response.headers['content-security-policy'];
          const nonce = (Array.isArray(csp) ? csp[0] : csp)?.match(/'nonce-([^']+)'/)?.[1] ?? null;
          // Only a nonce as the proxy makes them can be swapped in place (flightWithNonce); anything else is not kept.
          if (nonce !== null && nonce.length !== NONCE_LENGTH) return resolve(undefined);
          resolve({ body: Buffer.concat(chunks).toString('utf8'), headers: kept, nonce });
        });
      },
    );
    request.on('timeout', () => request.destroy(new RenderFailed(`${path} (flight): no answer within 10 s`)));
    request.on('error', (error) => reject(error instanceof RenderFailed ? error : new RenderFailed(`${path} (flight): ${error.message}`)));
    request.end();
  });
}

/**
 * The cached body with `nonce` in place of the render's. Nonces are all 24 characters (lib/security/headers.ts
 * `newNonce`), so the byte lengths the payload's text rows declare stay right.
 */
export function flightWithNonce(answer: FlightAnswer, nonce: string): string {
  if (!answer.nonce) return answer.body;
  if (answer.nonce.length !== nonce.length) throw new Error('a nonce of another length would break the payload');
  return answer.body.split(answer.nonce).join(nonce);
}
