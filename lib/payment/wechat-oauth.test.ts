import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleWechatOauth, readWechatOpenid, signedOpenid } from './wechat-oauth';
import { safeReturnPath } from './clients';

// The buyer's WeChat openid for JSAPI payment: WeChat's web OAuth (snsapi_base) round, against a local fake of
// WeChat's code exchange.

const APPID = 'wxd678efh567hg6787';
const SECRET = 'test-official-account-secret-01';
const COOKIE_SECRET = 'test-payment-secret-0123456789abcdef';
const NOW = new Date('2026-11-22T08:00:00Z');
const asked: string[] = [];
let endpoint = '';
const server = http.createServer((req, res) => {
  asked.push(req.url ?? '');
  const url = new URL(req.url ?? '/', 'http://fake');
  const good = url.pathname === '/sns/oauth2/access_token' && url.searchParams.get('secret') === SECRET;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify(
      good && url.searchParams.get('code') === 'good-code'
        ? { access_token: 'at', expires_in: 7200, openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o', scope: 'snsapi_base' }
        : { errcode: 40029, errmsg: 'invalid code' },
    ),
  );
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const config = (secure = true) => ({
  appid: APPID,
  secret: SECRET,
  origin: secure ? 'https://aurora.shop.example' : 'http://aurora.localhost:3000',
  secure,
  endpoint,
  cookieSecret: COOKIE_SECRET,
  channelKey: 'AURORA',
  now: NOW,
});
const get = (path: string, cookie?: string, secure = true) =>
  handleWechatOauth(new Request(`https://aurora.shop.example${path}`, { headers: cookie ? { cookie } : {} }), config(secure));
/** The buyer's openid as pay/create reads it back from the cookie the round set. */
const openidFrom = (setCookie: string, https = true) =>
  readWechatOpenid(setCookie.split(';')[0]!, { secret: COOKIE_SECRET, appid: APPID, channelKey: 'AURORA', https, now: NOW });
/** What every response carries (lib/security/headers.ts), here from the route itself. */
const securityHeadersOf = (response: Response) => ({
  nosniff: response.headers.get('x-content-type-options'),
  frames: response.headers.get('x-frame-options'),
});

it('sends the buyer to WeChat with the silent scope, then learns the openid and goes back to the pay page', async () => {
  const start = await get('/api/pay/wechat/oauth?return=%2Fpay%2F12');
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get('location')!);
  expect(`${authorize.origin}${authorize.pathname}`).toBe('https://open.weixin.qq.com/connect/oauth2/authorize');
  expect(authorize.hash).toBe('#wechat_redirect');
  expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
    appid: APPID,
    redirect_uri: 'https://aurora.shop.example/api/pay/wechat/oauth',
    response_type: 'code',
    scope: 'snsapi_base',
  });
  const state = authorize.searchParams.get('state')!;
  const stateCookie = start.headers.get('set-cookie')!.split(';')[0]!;
  // `__Host-` (Secure, Path=/, no Domain): a sibling channel host cannot set or shadow it (issue 29).
  expect(start.headers.get('set-cookie')).toMatch(
    /^__Host-wxpay_oauth=[0-9a-f]{32}\.%2Fpay%2F12; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
  );

  const back = await get(`/api/pay/wechat/oauth?code=good-code&state=${state}`, stateCookie);
  expect(back.status).toBe(302);
  expect(back.headers.get('location')).toBe('/pay/12');
  const [openidCookie, cleared] = back.headers.getSetCookie();
  expect(openidCookie).toMatch(
    /^__Host-wxpay_openid=oUpF8uMuAJO_M2pxb1Q9zNjWeS6o\.\d+\.[0-9a-f]{64}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
  );
  expect(cleared).toMatch(/^__Host-wxpay_oauth=; Max-Age=0;/);
  expect(openidFrom(openidCookie!)).toBe('oUpF8uMuAJO_M2pxb1Q9zNjWeS6o');
  expect(asked.at(-1)).toContain(`appid=${APPID}`);
  expect(securityHeadersOf(back)).toEqual({ nosniff: 'nosniff', frames: 'SAMEORIGIN' });
});

it('on plain HTTP (the demo) names its cookies without the prefix and without Secure, which the browser would refuse', async () => {
  const start = await get('/api/pay/wechat/oauth?return=%2Fpay%2F12', undefined, false);
  const stateCookie = start.headers.get('set-cookie')!;
  expect(stateCookie).toMatch(/^wxpay_oauth=[0-9a-f]{32}\.%2Fpay%2F12; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax$/);
  const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
  const back = await get(`/api/pay/wechat/oauth?code=good-code&state=${state}`, stateCookie.split(';')[0], false);
  const openidCookie = back.headers.getSetCookie()[0]!;
  expect(openidCookie).toMatch(
    /^wxpay_openid=oUpF8uMuAJO_M2pxb1Q9zNjWeS6o\.\d+\.[0-9a-f]{64}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/,
  );
  expect(openidFrom(openidCookie, false)).toBe('oUpF8uMuAJO_M2pxb1Q9zNjWeS6o');
  // The prefixed name means nothing over plain HTTP, and the plain name nothing over HTTPS.
  expect(openidFrom(`__Host-${openidCookie}`, false)).toBeNull();
  expect(openidFrom(openidCookie, true)).toBeNull();
});

it("ignores a sibling host's cookie and answers a malformed one with 400 and the security headers, never a 500", async () => {
  const start = await get('/api/pay/wechat/oauth?return=%2Fpay%2F12');
  const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
  const callback = `/api/pay/wechat/oauth?code=good-code&state=${state}`;
  // A sibling channel host can set `wxpay_oauth` for the whole site (Domain=.shop.example), never `__Host-wxpay_oauth`.
  const sibling = `wxpay_oauth=${state}.%2F%2Fevil.example`;
  const malformed = [
    `__Host-wxpay_oauth=${state}.%E0%A4%A`,
    `__Host-wxpay_oauth=${state}.%`,
    '__Host-wxpay_oauth=%%%',
    '__Host-wxpay_oauth',
  ];
  for (const cookie of [sibling, ...malformed]) {
    const answer = await get(callback, cookie);
    expect({ cookie, status: answer.status }).toEqual({ cookie, status: 400 });
    expect(await answer.json()).toEqual({ ok: false, message: 'state: does not match this browser; start again from the pay page' });
    expect(securityHeadersOf(answer)).toEqual({ nosniff: 'nosniff', frames: 'SAMEORIGIN' });
    expect(answer.headers.get('set-cookie')).toBeNull();
  }
  // Beside the sibling's cookie (sent first by the browser or not), this host's own still completes the round.
  const own = start.headers.get('set-cookie')!.split(';')[0]!;
  const back = await get(callback, `${sibling}; ${own}`);
  expect(back.status).toBe(302);
  expect(back.headers.get('location')).toBe('/pay/12');
});

it('reads as no identity an openid cookie that is edited, made for another app or channel, expired or malformed', () => {
  const binding = { secret: COOKIE_SECRET, appid: APPID, channelKey: 'AURORA' };
  const read = (cookie: string, now = NOW) => readWechatOpenid(cookie, { ...binding, https: true, now });
  const good = signedOpenid(binding, 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o', NOW);
  expect(read(`__Host-wxpay_openid=${good}`)).toBe('oUpF8uMuAJO_M2pxb1Q9zNjWeS6o');
  const [openid, expires, mac] = good.split('.') as [string, string, string];
  const bad = [
    `__Host-wxpay_openid=oAttackersOwnOpenid00000000.${expires}.${mac}`,
    `__Host-wxpay_openid=${signedOpenid({ ...binding, appid: 'wx0000000000000000' }, openid, NOW)}`,
    `__Host-wxpay_openid=${signedOpenid({ ...binding, channelKey: 'LUMEN' }, openid, NOW)}`,
    `__Host-wxpay_openid=${signedOpenid({ ...binding, secret: 'another-secret-0123456789abcdef0123' }, openid, NOW)}`,
    `__Host-wxpay_openid=${openid}`,
    '__Host-wxpay_openid=%E0%A4%A',
    '__Host-wxpay_openid=',
    `wxpay_openid=${good}`,
  ];
  for (const cookie of bad) expect({ cookie, openid: read(cookie) }).toEqual({ cookie, openid: null });
  expect(read(`__Host-wxpay_openid=${good}`, new Date(NOW.getTime() + 31 * 86_400_000))).toBeNull();
  // A forged one first does not hide the good one after it.
  expect(read(`__Host-wxpay_openid=${openid}; __Host-wxpay_openid=${good}`)).toBe(openid);
});

it('refuses an answer for another browser (state) and says so when WeChat does not confirm the code', async () => {
  const start = await get('/api/pay/wechat/oauth?return=%2Fpay%2F12');
  const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
  const stateCookie = start.headers.get('set-cookie')!.split(';')[0]!;
  expect((await get(`/api/pay/wechat/oauth?code=good-code&state=${state}`)).status).toBe(400);
  expect((await get(`/api/pay/wechat/oauth?code=good-code&state=other`, stateCookie)).status).toBe(400);
  const bad = await get(`/api/pay/wechat/oauth?code=stale-code&state=${state}`, stateCookie);
  expect(bad.status).toBe(502);
  expect(bad.headers.get('set-cookie')).toBeNull();
});

it('comes back only to a page of this site', () => {
  expect(safeReturnPath('/pay/12')).toBe('/pay/12');
  expect(safeReturnPath('//evil.example/pay')).toBe('/');
  expect(safeReturnPath('/\\evil.example')).toBe('/');
  expect(safeReturnPath('https://evil.example')).toBe('/');
  expect(safeReturnPath(null)).toBe('/');
});
