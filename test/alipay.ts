import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSign, createVerify, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { AlipayConfig } from '@/lib/payment/alipay';

/**
 * Alipay's OpenAPI v2 gateway for tests: keys made here, a local fake on 127.0.0.1 that checks every request's RSA2
 * signature with our app's public key (recomputed here from Alipay's documented signing content, independently of the
 * SDK) and signs its answers with a key of its own, and notifications built as Alipay builds them.
 */

export const APP_ID = '2021000123456789';
export const NOTIFY_URL = 'https://pay.shop.example/api/pay/notify/alipay';

const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
/** Our app's key pair (Alipay holds the public half) and Alipay's (we hold the public half); a stranger's to forge with. */
export const appKeys = rsa();
export const alipayKeys = rsa();
export const strangerKeys = rsa();
export const pem = (key: KeyObject, type: 'pkcs1' | 'pkcs8' | 'spki') => key.export({ format: 'pem', type }) as string;

/** Alipay's documented signing content: parameters but `sign` (and those excluded), non-empty, sorted, `k=v` by `&`. */
export function signContent(params: Record<string, string>, exclude: string[]): string {
  return Object.keys(params)
    .filter((k) => !exclude.includes(k) && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}
export const rsa2Sign = (content: string, key: KeyObject) => createSign('RSA-SHA256').update(content, 'utf8').sign(key, 'base64');
export const rsa2Verify = (content: string, sign: string, key: KeyObject) =>
  createVerify('RSA-SHA256').update(content, 'utf8').verify(key, sign, 'base64');

// ---------------------------------------------------------------------------------------------------------------
// The fake gateway

export type Trade = { tradeNo: string; status: string; totalAmount: string };
export type Reply =
  | { kind: 'answer'; body: Record<string, unknown>; sign?: 'good' | 'stranger' | 'none' }
  | { kind: 'status'; status: number }
  | { kind: 'hang' };

export type FakeAlipay = {
  url: string;
  trades: Map<string, Trade>;
  /** Refunds by out_request_no, as Alipay books them. */
  refunds: Map<string, { outTradeNo: string; amount: string }>;
  /** Every request: its method, parameters and whether its signature held by the fake's own check. */
  requests: Array<{ method: string; params: Record<string, string>; signed: boolean }>;
  /** Overrides the next answers (until cleared). */
  script: ((method: string, biz: Record<string, string>) => Reply | undefined) | null;
  /** The app public key the fake checks requests with (a stranger's to play a key mismatch). */
  appPublicKey: KeyObject;
  /** The calls the storefront made to the gateway, by method (a buyer's browser opening a pay URL is not one). */
  calls(): Record<string, number>;
  close(): Promise<void>;
};

export async function startFakeAlipay(): Promise<FakeAlipay> {
  const hung: http.ServerResponse[] = [];
  const fake: Omit<FakeAlipay, 'url' | 'close' | 'calls'> = {
    trades: new Map(),
    refunds: new Map(),
    requests: [],
    script: null,
    appPublicKey: appKeys.publicKey,
  };
  const respond = (res: http.ServerResponse, method: string, reply: Reply) => {
    if (reply.kind === 'hang') return void hung.push(res);
    if (reply.kind === 'status') return void res.writeHead(reply.status, { 'content-type': 'text/plain' }).end('bad gateway');
    const inner = JSON.stringify(reply.body);
    const key = `${method.replaceAll('.', '_')}_response`;
    const sign =
      reply.sign === 'none'
        ? ''
        : `,"sign":"${rsa2Sign(inner, reply.sign === 'stranger' ? strangerKeys.privateKey : alipayKeys.privateKey)}"`;
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8' }).end(`{"${key}":${inner}${sign}}`);
  };
  const ok = (body: Record<string, unknown>): Reply => ({ kind: 'answer', body: { code: '10000', msg: 'Success', ...body } });
  const fail = (code: string, subCode: string, subMsg: string): Reply => ({
    kind: 'answer',
    body: { code, msg: code === '40004' ? 'Business Failed' : 'Invalid Arguments', sub_code: subCode, sub_msg: subMsg },
  });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const params: Record<string, string> = {};
      for (const [k, v] of url.searchParams) params[k] = v;
      for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) params[k] = v;
      const method = params.method ?? '';
      const signed =
        params.sign_type === 'RSA2' && !!params.sign && rsa2Verify(signContent(params, ['sign']), params.sign, fake.appPublicKey);
      fake.requests.push({ method, params, signed });
      if (req.method === 'GET') {
        // The buyer's browser opening the wap pay URL: Alipay's cashier, or its error page. Alipay opens the trade then
        // (WAIT_BUYER_PAY); a trade closed before cannot be paid.
        if (!signed) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid-signature');
        const biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;
        const no = biz.out_trade_no ?? '';
        if (!fake.trades.has(no)) {
          fake.trades.set(no, {
            tradeNo: `2026${no.replace(/\D/g, '').slice(-12)}`,
            status: 'WAIT_BUYER_PAY',
            totalAmount: biz.total_amount ?? '0',
          });
        }
        const closed = fake.trades.get(no)!.status === 'TRADE_CLOSED';
        res.writeHead(200, { 'content-type': 'text/plain' }).end(closed ? 'closed' : 'cashier');
        return;
      }
      if (!signed) return respond(res, method, fail('40002', 'isv.invalid-signature', '验签出错'));
      if (params.app_id !== APP_ID) return respond(res, method, fail('40002', 'isv.invalid-app-id', '无效的AppID参数'));
      const biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;
      const scripted = fake.script?.(method, biz);
      if (scripted) return respond(res, method, scripted);
      const trade = fake.trades.get(biz.out_trade_no ?? '');
      if (method === 'alipay.trade.query') {
        if (!trade) return respond(res, method, fail('40004', 'ACQ.TRADE_NOT_EXIST', '交易不存在'));
        return respond(
          res,
          method,
          ok({ out_trade_no: biz.out_trade_no, trade_no: trade.tradeNo, trade_status: trade.status, total_amount: trade.totalAmount }),
        );
      }
      if (method === 'alipay.trade.close') {
        // No trade until the buyer opens the pay URL; only a trade waiting for the buyer can be closed.
        if (!trade) return respond(res, method, fail('40004', 'ACQ.TRADE_NOT_EXIST', '交易不存在'));
        if (trade.status !== 'WAIT_BUYER_PAY') return respond(res, method, fail('40004', 'ACQ.TRADE_STATUS_ERROR', '交易状态不合法'));
        trade.status = 'TRADE_CLOSED';
        return respond(res, method, ok({ out_trade_no: biz.out_trade_no, trade_no: trade.tradeNo }));
      }
      if (method === 'alipay.trade.refund') {
        if (!trade || (trade.status !== 'TRADE_SUCCESS' && trade.status !== 'TRADE_CLOSED')) {
          return respond(res, method, fail('40004', 'ACQ.TRADE_STATUS_ERROR', '交易状态不合法'));
        }
        const repeat = fake.refunds.has(biz.out_request_no!);
        if (!repeat) {
          fake.refunds.set(biz.out_request_no!, { outTradeNo: biz.out_trade_no!, amount: biz.refund_amount! });
          trade.status = 'TRADE_CLOSED';
        }
        return respond(
          res,
          method,
          ok({ out_trade_no: biz.out_trade_no, trade_no: trade.tradeNo, refund_fee: biz.refund_amount, fund_change: repeat ? 'N' : 'Y' }),
        );
      }
      if (method === 'alipay.trade.fastpay.refund.query') {
        const refund = fake.refunds.get(biz.out_request_no ?? '');
        return respond(
          res,
          method,
          ok({
            out_trade_no: biz.out_trade_no,
            out_request_no: biz.out_request_no,
            ...(refund ? { refund_amount: refund.amount, refund_status: 'REFUND_SUCCESS' } : {}),
          }),
        );
      }
      return respond(res, method, fail('40002', 'isv.invalid-method', '不存在的方法名'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/gateway.do`,
    calls: () => {
      const counts: Record<string, number> = {};
      for (const r of fake.requests) if (r.method !== 'alipay.trade.wap.pay') counts[r.method] = (counts[r.method] ?? 0) + 1;
      return counts;
    },
    close: async () => {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** Alipay's notification for a trade: form fields signed with Alipay's key (sign and sign_type left out of the content). */
export function alipayNotification(fields: Record<string, string>, signWith: KeyObject = alipayKeys.privateKey) {
  const params: Record<string, string> = {
    notify_time: '2026-11-22 16:00:05',
    notify_type: 'trade_status_sync',
    notify_id: `n${Math.random().toString(36).slice(2)}`,
    app_id: APP_ID,
    charset: 'utf-8',
    version: '1.0',
    sign_type: 'RSA2',
    trade_status: 'TRADE_SUCCESS',
    subject: '星河 #1 50% off + more',
    buyer_logon_id: 'abc***@example.com',
    gmt_payment: '2026-11-22 16:00:04',
    ...fields,
  };
  params.sign = rsa2Sign(signContent(params, ['sign', 'sign_type']), signWith);
  return {
    body: new URLSearchParams(params).toString(),
    headers: new Headers({ 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }),
  };
}

/** The provider's configuration against a gateway (the fake's). */
export function alipayConfig(gateway: string): AlipayConfig {
  return { appId: APP_ID, privateKey: appKeys.privateKey, alipayPublicKey: alipayKeys.publicKey, notifyUrl: NOTIFY_URL, gateway };
}

/** The same as environment variables (our key as PKCS#1 PEM on one line with literal \n; Alipay's as bare base64). */
export function alipayEnv(gateway: string): Record<string, string> {
  return {
    ALIPAY_APP_ID: APP_ID,
    ALIPAY_PRIVATE_KEY: pem(appKeys.privateKey, 'pkcs1').replaceAll('\n', '\\n'),
    ALIPAY_PUBLIC_KEY: (alipayKeys.publicKey.export({ format: 'der', type: 'spki' }) as Buffer).toString('base64'),
    ALIPAY_NOTIFY_URL: NOTIFY_URL,
    ALIPAY_GATEWAY: gateway,
  };
}
