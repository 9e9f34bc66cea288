import type http from 'node:http';
import { listenOnLoopback, type FakeListen } from './fake-http';

/**
 * A local fake of WeChat's official-account API (issue 36; lib/wechat/ticket.ts) on 127.0.0.1: `/cgi-bin/token`
 * checks the app id and its AppSecret and issues an access_token, which voids the account's last one (as WeChat does);
 * `/cgi-bin/ticket/getticket` checks the token and issues a jsapi_ticket. Refusals as WeChat writes them
 * (`{errcode, errmsg}`, HTTP 200). It counts each kind of fetch, and may answer slowly (concurrency tests).
 */

export const MP_APP_ID = 'wx1234567890abcdef';
export const MP_SECRET = 'fake-official-account-secret-0001';

export type FakeWechatMp = {
  origin: string;
  /** Fetches answered (refused ones too), per path. */
  counts: { token: number; ticket: number };
  /** The last jsapi_ticket issued, per app id. */
  tickets: Map<string, string>;
  /** Makes the next token fetch answer this errcode (e.g. 45009: the day's limit). */
  refuseNextToken: (errcode: number, errmsg: string) => void;
  /** Voids every issued token (as a token fetched elsewhere would): the next ticket fetch meets 40001. */
  voidTokens: () => void;
  close: () => Promise<void>;
};

export async function startFakeWechatMp(
  options: { accounts?: Record<string, string>; expiresIn?: number; delayMs?: number; listen?: FakeListen } = {},
): Promise<FakeWechatMp> {
  const accounts = options.accounts ?? { [MP_APP_ID]: MP_SECRET };
  const expiresIn = options.expiresIn ?? 7200;
  const counts = { token: 0, ticket: 0 };
  const tokens = new Map<string, string>(); // token -> app id
  const tickets = new Map<string, string>();
  let refusal: { errcode: number; errmsg: string } | null = null;
  let serial = 0;
  const json = (body: unknown) => ({ status: 200, body: JSON.stringify(body) });

  const answer = (request: { method: string; url: string }) => {
    const url = new URL(request.url, 'http://fake');
    if (request.method !== 'GET') return json({ errcode: 43001, errmsg: 'require GET method' });
    if (url.pathname === '/cgi-bin/token') {
      counts.token += 1;
      if (refusal) {
        const answer = refusal;
        refusal = null;
        return json(answer);
      }
      const appid = url.searchParams.get('appid') ?? '';
      if (url.searchParams.get('grant_type') !== 'client_credential') return json({ errcode: 40002, errmsg: 'invalid grant_type' });
      if (!(appid in accounts)) return json({ errcode: 40013, errmsg: 'invalid appid' });
      if (url.searchParams.get('secret') !== accounts[appid]) return json({ errcode: 40125, errmsg: 'invalid appsecret' });
      for (const [token, owner] of tokens) if (owner === appid) tokens.delete(token);
      const token = `ACCESS_TOKEN_${appid}_${(serial += 1)}`;
      tokens.set(token, appid);
      return json({ access_token: token, expires_in: expiresIn });
    }
    if (url.pathname === '/cgi-bin/ticket/getticket') {
      counts.ticket += 1;
      const appid = tokens.get(url.searchParams.get('access_token') ?? '');
      if (!appid) return json({ errcode: 40001, errmsg: 'invalid credential, access_token is invalid or not latest' });
      if (url.searchParams.get('type') !== 'jsapi') return json({ errcode: 40097, errmsg: 'invalid args' });
      const ticket = `JSAPI_TICKET_${appid}_${(serial += 1)}`;
      tickets.set(appid, ticket);
      return json({ errcode: 0, errmsg: 'ok', ticket, expires_in: expiresIn });
    }
    return { status: 404, body: '' };
  };
  const handler: http.RequestListener = (req, res) => {
    req.resume();
    req.on('end', () => {
      // Read the request when it arrives; answer after the delay (a slow WeChat lets concurrent asks overlap).
      const reply = answer({ method: req.method ?? '', url: req.url ?? '' });
      setTimeout(() => res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body), options.delayMs ?? 0);
    });
  };
  const { server, origin } = await listenOnLoopback(handler, options.listen);
  return {
    origin,
    counts,
    tickets,
    refuseNextToken: (errcode, errmsg) => {
      refusal = { errcode, errmsg };
    },
    voidTokens: () => tokens.clear(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
