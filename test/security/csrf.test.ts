import { encode } from 'next-auth/jwt';
import { authSecret } from '@/lib/security/secret';
import { securityHarness } from './support';

// Security review, finding 9: the cookie-authenticated API took any content type and did not check Origin; channel hosts
// are sibling subdomains (one site), so SameSite=Lax does not separate them.

const h = securityHarness();
let cookie: string;
let token: string;

beforeAll(async () => {
  ({ token } = await h.buyer('13700000009'));
  const jwt = await encode({ token: { sub: 'u', apiToken: token, channel: 'AURORA', phone: '137****0009' }, secret: authSecret() });
  cookie = `next-auth.session-token=${jwt}`;
});

const profile = (headers: Record<string, string>) =>
  h.call('/market/api/userAttribute/queryByUserUuid', {}, { host: 'aurora.localhost:3000', headers });

describe('cookie-authenticated calls (finding 9)', () => {
  it('works from the store’s own pages', async () => {
    expect((await profile({ cookie, origin: 'http://aurora.localhost:3000', 'sec-fetch-site': 'same-origin' })).body.code).toBe(200);
    // No Origin and no Sec-Fetch-Site: not a browser page, so no one else's cookie can be riding along.
    expect((await profile({ cookie })).body.code).toBe(200);
  });

  it.each([
    ['a sibling channel host', { origin: 'http://gift.localhost:3000', 'sec-fetch-site': 'same-site' }],
    ['a sibling host, Origin only', { origin: 'http://gift.localhost:3000' }],
    ['another site', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
    ['an opaque origin', { origin: 'null' }],
    ['a same-site fetch without Origin', { 'sec-fetch-site': 'same-site' }],
  ])('is refused from %s with 403', async (_name, headers) => {
    const res = await profile({ cookie, ...headers });
    expect(res.body).toMatchObject({ code: 403, message: expect.stringMatching(/^origin: /) });
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', ''])(
    'needs JSON, not %j',
    async (type) => {
      const res = await profile({ cookie, 'content-type': type, origin: 'http://aurora.localhost:3000' });
      expect(res.body).toMatchObject({ code: 400, message: 'content-type: must be application/json for a call with the session cookie' });
    },
  );

  it('leaves calls with an explicit Authorization header alone', async () => {
    const res = await profile({ authorization: token, 'content-type': 'text/plain', origin: 'https://evil.example' });
    expect(res.body.code).toBe(200);
  });

  it('leaves anonymous calls (no cookie) alone', async () => {
    const res = await h.call(
      '/market/api/channel/querySaleRecord',
      {},
      { headers: { 'content-type': 'text/plain', origin: 'https://evil.example' } },
    );
    expect(res.body.code).toBe(200);
  });
});
