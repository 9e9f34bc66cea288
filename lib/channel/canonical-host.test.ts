import { canonicalHostRedirect } from './canonical-host';
import { channelKeyForHost } from './key';

// Issue 29, finding 5: every spelling of a channel's host that the key rule folds into the channel is sent to its one
// host, so none of them is a cache entry, a render, a cookie jar or a link preview of its own.

const DEMO = 'http://aurora.localhost:3000';
const LIVE = 'https://aurora.shop.example';

describe('canonicalHostRedirect', () => {
  it('keeps the canonical host, with the default port spelt out or not', () => {
    expect(canonicalHostRedirect('aurora.localhost:3000', DEMO, '/goods/detail/1')).toBeNull();
    expect(canonicalHostRedirect('aurora.shop.example', LIVE, '/')).toBeNull();
    expect(canonicalHostRedirect('aurora.shop.example:443', LIVE, '/')).toBeNull();
  });

  it.each([
    // Every spelling that reaches AURORA by the key rule, and then some.
    ['AURORA.localhost:3000', DEMO],
    ['Aurora.Localhost:3000', DEMO],
    ['aurora.localhost.:3000', DEMO],
    ['a.urora.localhost:3000', DEMO],
    ['auroralocal.host:3000', DEMO],
    ['aurora.localhost:3001', DEMO],
    ['aurora.localhost', DEMO],
    ['localhost:3000', DEMO],
    ['aurora.shop.example.', LIVE],
    ['aurora.shop.example:8443', LIVE],
    ['AURORA.SHOP.EXAMPLE', LIVE],
    ['a.urora.shop.example', LIVE],
    // Not a host name at all: userinfo, a path, an IPv6 literal, nothing.
    ['aurora.localhost:3000@evil.example', DEMO],
    ['aurora.localhost:3000/x', DEMO],
    ['[::1]:3000', DEMO],
    ['', DEMO],
  ])('sends %s to the channel’s own host, path and query kept', (host, origin) => {
    expect(canonicalHostRedirect(host, origin, '/goods/detail/1?from=share')).toBe(`${origin}/goods/detail/1?from=share`);
  });

  it('the spellings above do reach the channel by the key rule (what makes them worth redirecting)', () => {
    for (const host of ['AURORA.localhost:3000', 'aurora.localhost.:3000', 'a.urora.localhost:3000', 'aurora.localhost:3001']) {
      expect(channelKeyForHost(host, 'localhost')).toBe('AURORA');
    }
    expect(channelKeyForHost('localhost:3000', 'localhost', 'AURORA')).toBe('AURORA');
  });
});
