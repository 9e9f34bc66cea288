import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleWechatOauth } from './wechat-oauth';
import { safeReturnPath } from './clients';

// The buyer's WeChat openid for JSAPI payment: WeChat's web OAuth (snsapi_base) round, against a local fake of
// WeChat's code exchange.

const APPID = 'wxd678efh567hg6787';
const SECRET = 'test-official-account-secret-01';
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

const config = () => ({ appid: APPID, secret: SECRET, origin: 'https://aurora.shop.example', secure: true, endpoint });
const get = (path: string, cookie?: string) =>
  handleWechatOauth(new Request(`https://aurora.shop.example${path}`, { headers: cookie ? { cookie } : {} }), config());

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
  expect(start.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax; Secure/);

  const back = await get(`/api/pay/wechat/oauth?code=good-code&state=${state}`, stateCookie);
  expect(back.status).toBe(302);
  expect(back.headers.get('location')).toBe('/pay/12');
  expect(back.headers.getSetCookie()[0]).toMatch(/^wxpay_openid=oUpF8uMuAJO_M2pxb1Q9zNjWeS6o; Max-Age=2592000; Path=\/; HttpOnly/);
  expect(asked.at(-1)).toContain(`appid=${APPID}`);
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
