import { AFTER_LOGIN_DEFAULT, isSameSitePath, loginHref, safeRedirect, searchOf } from './redirect';

// Red-team finding 5: the check ran on the raw value while the normalised value was returned, so a path such as
// `/.//evil.example/phish` came back as `//evil.example/phish` and the browser left the site after logging in.

const ORIGIN = 'http://aurora.localhost';
const DEFAULT = Symbol('default');

/** Where the browser goes with `window.location.replace(result)` from the login page. */
function landsOn(result: string): URL {
  return new URL(result, `${ORIGIN}/login?redirect=x`);
}

/** Every answer is either the default or a path a browser keeps on this origin. */
function expectSafe(result: string): void {
  expect(result.startsWith('/')).toBe(true);
  expect(result.startsWith('//')).toBe(false);
  expect(result.startsWith('/\\')).toBe(false);
  expect(result).not.toMatch(/[\u0000-\u0020\u007f-\uffff\\]/);
  expect(isSameSitePath(result)).toBe(true);
  const url = landsOn(result);
  expect(url.origin).toBe(ORIGIN);
  expect(url.pathname).not.toMatch(/^\/login(?:\/|$)/i);
  // What the browser shows is what we returned: no second normalisation on its side.
  expect(`${url.pathname}${url.search}${url.hash}`).toBe(result);
}

const long = `/mine/${'a'.repeat(2000)}`;

const PAYLOADS: Array<[label: string, value: string | string[] | null | undefined, expected: string | typeof DEFAULT]> = [
  // Same-site paths are kept (normalised).
  ['a plain path', '/mine/box', '/mine/box'],
  ['a query', '/pay/3?from=share', '/pay/3?from=share'],
  ['a fragment', '/goods/detail/4#odds', '/goods/detail/4#odds'],
  ['dot segments inside the site', '/mine/./records/../box', '/mine/box'],
  ['an encoded slash stays one segment', '/%2F/evil.example', '/%2F/evil.example'],
  ['an encoded backslash stays one segment', '/%5Cevil.example', '/%5Cevil.example'],
  ['fullwidth slashes after a slash are escaped', '/／／evil.example', '/%EF%BC%8F%EF%BC%8Fevil.example'],
  ['a space is escaped', '/mine/ x', '/mine/%20x'],
  ['three dots are a name', '/.../evil.example', '/.../evil.example'],
  ['an @ in the path is a path', '/@evil.example', '/@evil.example'],
  ['slashes in the query are a query', '/mine?next=//evil.example', '/mine?next=//evil.example'],
  // The finding: normalising turns these into `//host`.
  ['/.//', '/.//evil.example/phish', DEFAULT],
  ['/..//', '/..//evil.example/phish', DEFAULT],
  ['a dot segment after a name', '/mine/..//evil.example', DEFAULT],
  ['encoded dot', '/%2e//evil.example', DEFAULT],
  ['encoded dots', '/%2E%2E//evil.example', DEFAULT],
  ['half-encoded dots', '/.%2e//evil.example', DEFAULT],
  ['encoded dots after a name', '/mine/%2e%2e//evil.example', DEFAULT],
  ['dots after the login page', '/login/..//evil.example', DEFAULT],
  // Not a path of this site.
  ['protocol-relative', '//evil.example/phish', DEFAULT],
  ['three slashes', '///evil.example', DEFAULT],
  ['slash backslash', '/\\evil.example', DEFAULT],
  ['backslash slash', '\\/evil.example', DEFAULT],
  ['two backslashes', '\\\\evil.example', DEFAULT],
  ['a backslash later', '/mine\\..\\..\\evil.example', DEFAULT],
  ['a tab between the slashes', '/\t/evil.example', DEFAULT],
  ['a newline between the slashes', '/\n/evil.example', DEFAULT],
  ['a carriage return between the slashes', '/\r/evil.example', DEFAULT],
  ['a NUL', '/mine\u0000', DEFAULT],
  ['DEL', '/mine\u007f', DEFAULT],
  ['javascript:', 'javascript:alert(1)', DEFAULT],
  ['javascript: with a slash', '/javascript:alert(1)', '/javascript:alert(1)'],
  ['data:', 'data:text/html,<script>alert(1)</script>', DEFAULT],
  ['http:evil', 'http:evil.example', DEFAULT],
  ['http:/evil', 'http:/evil.example', DEFAULT],
  ['an absolute URL', 'https://evil.example/', DEFAULT],
  ['an absolute URL with our host as user', 'http://aurora.localhost@evil.example/', DEFAULT],
  ['@ after two slashes', '//aurora.localhost@evil.example', DEFAULT],
  ['fullwidth slashes first', '／／evil.example', DEFAULT],
  ['a host name without a slash', 'evil.example', DEFAULT],
  ['a relative path', 'mine', DEFAULT],
  ['the login page', '/login', DEFAULT],
  ['the login page with a query', '/login?redirect=/mine', DEFAULT],
  ['the login page, other case', '/LOGIN', DEFAULT],
  ['the login page by dot segments', '/mine/../login', DEFAULT],
  ['the login page by encoded dots', '/mine/%2e%2e/login', DEFAULT],
  ['the login page encoded', '/%6Cogin', DEFAULT],
  ['very long', long, DEFAULT],
  ['empty', '', DEFAULT],
  ['missing', undefined, DEFAULT],
  ['null', null, DEFAULT],
  ['repeated: the first counts', ['/mine/records', '//evil.example'], '/mine/records'],
  ['repeated: a bad first is refused', ['/.//evil.example', '/mine/records'], DEFAULT],
  ['an empty array', [], DEFAULT],
];

describe('where login sends the buyer back to (finding 5)', () => {
  it.each(PAYLOADS)('%s: %j', (_label, value, expected) => {
    const result = safeRedirect(value);
    expectSafe(result);
    expect(landsOn(result).origin).toBe(ORIGIN);
    expect(result).toBe(expected === DEFAULT ? AFTER_LOGIN_DEFAULT : expected);
    // The login form checks again before navigating: a checked value passes unchanged.
    expect(safeRedirect(result)).toBe(result);
  });

  it('has a table of at least 30 payloads', () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(30);
  });

  it('returns a safe path for any string: every printable ASCII pair after /, ./ and ../', () => {
    const chars = Array.from({ length: 0x7f - 0x09 }, (_, i) => String.fromCharCode(0x09 + i));
    for (const prefix of ['/', '/./', '/../', '/%2e/', '/mine/../']) {
      for (const a of chars) {
        for (const b of chars) {
          const result = safeRedirect(`${prefix}${a}${b}evil.example`);
          if (!isSameSitePath(result) || landsOn(result).origin !== ORIGIN)
            throw new Error(`${JSON.stringify(`${prefix}${a}${b}`)} → ${result}`);
        }
      }
    }
  });

  it('takes only a path of the site as same-site', () => {
    expect(isSameSitePath('/mine')).toBe(true);
    for (const path of ['', 'mine', '//evil.example', '/\\evil.example', '/./mine', '/a b', '/mine\t', '/é', 'https://evil.example/']) {
      expect(isSameSitePath(path)).toBe(false);
    }
  });
});

describe('the log-in link of a page keeps its query (issue 30: the chain-up link dropped it)', () => {
  it('writes the page back as the buyer found it, and login brings them back there', () => {
    const here = `/chain${searchOf({ from: 'share', x: 'y z', tag: ['a', 'b'], none: undefined })}`;
    expect(here).toBe('/chain?from=share&x=y+z&tag=a&tag=b');
    const href = loginHref(here);
    expect(href).toBe('/login?redirect=%2Fchain%3Ffrom%3Dshare%26x%3Dy%2Bz%26tag%3Da%26tag%3Db');
    expect(safeRedirect(new URL(href, 'http://chain.localhost').searchParams.get('redirect'))).toBe(here);
  });

  it('adds nothing when there is no query', () => {
    expect(loginHref(`/chain${searchOf({})}`)).toBe('/login?redirect=%2Fchain');
  });
});
