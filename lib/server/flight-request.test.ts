import { computeCacheBustingSearchParam } from 'next/dist/shared/lib/router/utils/cache-busting-search-param';
import { FLIGHT_HEADER, markFlightRequest, readFlightRequest } from './flight-request';

// Issue 34: only the entry server says a request is the router's fetch, and only when its `_rsc` is the hash of its
// router headers, as Next checks it; anything else reaches the proxy unmarked.

const TREE = encodeURIComponent(JSON.stringify(['', {}, null, 'metadata-only']));

async function marked(req: { method: string; url: string; headers: Record<string, string | string[]> }) {
  await markFlightRequest(req);
  const value = req.headers[FLIGHT_HEADER];
  return typeof value === 'string' ? readFlightRequest(new Headers({ [FLIGHT_HEADER]: value })) : null;
}

it('marks a router fetch whose _rsc matches its headers, with what the proxy needs', async () => {
  const hash = await computeCacheBustingSearchParam('1', undefined, TREE, '/AURORA/en');
  const flight = await marked({
    method: 'GET',
    url: `/goods/detail/1?_rsc=${hash}`,
    headers: { rsc: '1', 'next-router-prefetch': '1', 'next-router-state-tree': TREE, 'next-url': '/AURORA/en' },
  });
  expect(flight).toEqual({ tree: TREE, prefetch: '1', segmentPrefetch: null, nextUrl: '/AURORA/en', rsc: hash });
});

it('leaves unmarked a wrong or missing hash, another method, a repeated header and a dev refresh', async () => {
  const hash = await computeCacheBustingSearchParam(undefined, undefined, TREE, undefined);
  const base = { rsc: '1', 'next-router-state-tree': TREE };
  expect(await marked({ method: 'GET', url: '/?_rsc=wrong', headers: { ...base } })).toBeNull();
  expect(await marked({ method: 'GET', url: '/', headers: { ...base } })).toBeNull();
  expect(await marked({ method: 'POST', url: `/?_rsc=${hash}`, headers: { ...base } })).toBeNull();
  expect(await marked({ method: 'GET', url: `/?_rsc=${hash}`, headers: { ...base, 'next-url': ['/a', '/b'] } })).toBeNull();
  expect(await marked({ method: 'GET', url: `/?_rsc=${hash}`, headers: { ...base, 'next-hmr-refresh': '1' } })).toBeNull();
  // The same request, as it should be: marked.
  expect(await marked({ method: 'GET', url: `/?_rsc=${hash}`, headers: { ...base } })).not.toBeNull();
});

it('drops a client’s own marker from every request, and the proxy reads nothing from a forged or broken one', async () => {
  const forged = Buffer.from(JSON.stringify({ rsc: 'x', tree: TREE })).toString('base64url');
  expect(await marked({ method: 'GET', url: '/', headers: { [FLIGHT_HEADER]: forged } })).toBeNull();
  expect(readFlightRequest(new Headers({ [FLIGHT_HEADER]: 'not json' }))).toBeNull();
  expect(readFlightRequest(new Headers())).toBeNull();
});
