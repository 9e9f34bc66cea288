import { encode } from 'next-auth/jwt';
import { readWebSession } from './session-claims';

// The web session's cookie as the proxy, the page door, the pages and the API read it (DESIGN §5): decrypted with the
// deployment's secret, good only on its own channel and until it expires. A cookie read again (every page a signed-in
// buyer opens) is not decrypted again (issue 34), which changes none of that.

const SECRET = 'a-test-secret-a-test-secret-a-test-secret';
const OTHER_SECRET = 'another-test-secret-another-test-secret';
const claims = { sub: 'buyer-uuid', apiToken: 'token-1', channel: 'AURORA', phone: '138****8000' };

it('reads a live cookie of its channel, again and again, and never on another channel', async () => {
  const cookie = await encode({ token: claims, secret: SECRET });
  for (let i = 0; i < 3; i++) {
    expect(await readWebSession(cookie, SECRET, 'AURORA')).toMatchObject({ sub: 'buyer-uuid', apiToken: 'token-1', channel: 'AURORA' });
  }
  expect(await readWebSession(cookie, SECRET, 'LUMEN')).toBeNull();
});

it('refuses the same cookie once it has expired, read before or not', async () => {
  const cookie = await encode({ token: claims, secret: SECRET, maxAge: 60 });
  const read = await readWebSession(cookie, SECRET, 'AURORA');
  expect(read).not.toBeNull();
  expect(await readWebSession(cookie, SECRET, 'AURORA', read!.exp! * 1000 - 1)).not.toBeNull();
  expect(await readWebSession(cookie, SECRET, 'AURORA', read!.exp! * 1000)).toBeNull();
});

it('refuses a cookie under another secret, even one it read before under its own, and a forged one every time', async () => {
  const cookie = await encode({ token: claims, secret: SECRET });
  expect(await readWebSession(cookie, SECRET, 'AURORA')).not.toBeNull();
  expect(await readWebSession(cookie, OTHER_SECRET, 'AURORA')).toBeNull();
  const forged = `${cookie.slice(0, -4)}AAAA`;
  expect(await readWebSession(forged, SECRET, 'AURORA')).toBeNull();
  expect(await readWebSession(forged, SECRET, 'AURORA')).toBeNull();
  expect(await readWebSession('not-a-cookie', SECRET, 'AURORA')).toBeNull();
  expect(await readWebSession('x'.repeat(8193), SECRET, 'AURORA')).toBeNull();
});
