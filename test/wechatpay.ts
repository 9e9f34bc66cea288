import { createCipheriv, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import http from 'node:http';
import { listenOnLoopback, type FakeListen } from './fake-http';
import type { WechatPayConfig } from '@/lib/payment/wechatpay';

/**
 * WeChat Pay API v3 for tests: keys made here, a local fake of the API on 127.0.0.1 that checks every request's
 * signature with the merchant's public key (recomputed here, independently of lib/payment/wechatpay.ts) and signs its
 * answers with the platform key, and notifications built as WeChat Pay builds them.
 */

export const MCHID = '1900000109';
export const APPID = 'wxd678efh567hg6787';
export const SERIAL = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1';
export const PLATFORM_KEY_ID = 'PUB_KEY_ID_0119000001092025010100000000';
export const APIV3_KEY = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
export const NOTIFY_URL = 'https://aurora.shop.example/api/pay/notify/wechatpay';

export type WechatKeys = { merchant: KeyPair; platform: KeyPair };
type KeyPair = { privateKey: KeyObject; publicKey: KeyObject };

export function makeWechatKeys(): WechatKeys {
  const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { merchant: pair(), platform: pair() };
}

export function pem(key: KeyObject): string {
  return key.type === 'private'
    ? String(key.export({ type: 'pkcs8', format: 'pem' }))
    : String(key.export({ type: 'spki', format: 'pem' }));
}

export function wechatConfig(keys: WechatKeys, endpoint: string, jsapi = true): WechatPayConfig {
  return {
    mchid: MCHID,
    appid: APPID,
    serial: SERIAL,
    privateKey: keys.merchant.privateKey,
    apiV3Key: APIV3_KEY,
    platformPublicKey: keys.platform.publicKey,
    platformPublicKeyId: PLATFORM_KEY_ID,
    notifyUrl: NOTIFY_URL,
    endpoint,
    jsapi,
  };
}

/** The same configuration as environment variables (keys as PEM text). */
export function wechatEnv(keys: WechatKeys, endpoint: string): Record<string, string> {
  return {
    WECHATPAY_MCHID: MCHID,
    WECHATPAY_APPID: APPID,
    WECHATPAY_SERIAL: SERIAL,
    WECHATPAY_PRIVATE_KEY: pem(keys.merchant.privateKey),
    WECHATPAY_APIV3_KEY: APIV3_KEY,
    WECHATPAY_PLATFORM_PUBLIC_KEY: pem(keys.platform.publicKey),
    WECHATPAY_PLATFORM_PUBLIC_KEY_ID: PLATFORM_KEY_ID,
    WECHATPAY_NOTIFY_URL: NOTIFY_URL,
    WECHATPAY_ENDPOINT: endpoint,
    WECHATPAY_APPSECRET: 'test-official-account-secret-01',
  };
}

/** Headers WeChat Pay signs an answer or a notification with: RSA-SHA256 over `timestamp\nnonce\nbody\n`. */
export function platformHeaders(
  privateKey: KeyObject,
  body: string,
  options: { timestamp?: number; serial?: string } = {},
): Record<string, string> {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString('hex');
  const signature = sign('RSA-SHA256', Buffer.from(`${timestamp}\n${nonce}\n${body}\n`), privateKey).toString('base64');
  return {
    'wechatpay-timestamp': timestamp,
    'wechatpay-nonce': nonce,
    'wechatpay-signature': signature,
    'wechatpay-serial': options.serial ?? PLATFORM_KEY_ID,
  };
}

export type FakeTransaction = {
  mchid: string;
  appid: string;
  out_trade_no: string;
  transaction_id?: string;
  trade_state: string;
  amount: { total: number; currency: string };
  payer?: { openid: string };
};

/** A payment notification as WeChat Pay posts it: the transaction encrypted with the APIv3 key, the body signed. */
export function wechatNotification(
  keys: WechatKeys,
  transaction: FakeTransaction,
  options: { now?: Date; apiV3Key?: string; signWith?: KeyObject; serial?: string } = {},
): { body: string; headers: Record<string, string> } {
  const nonce = randomBytes(6).toString('hex');
  const associated = 'transaction';
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(options.apiV3Key ?? APIV3_KEY), Buffer.from(nonce));
  cipher.setAAD(Buffer.from(associated));
  const encrypted = Buffer.concat([cipher.update(JSON.stringify(transaction), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const body = JSON.stringify({
    id: `EV-${nonce}`,
    create_time: '2026-11-22T16:00:01+08:00',
    resource_type: 'encrypt-resource',
    event_type: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: {
      original_type: 'transaction',
      algorithm: 'AEAD_AES_256_GCM',
      ciphertext: encrypted.toString('base64'),
      associated_data: associated,
      nonce,
    },
  });
  const timestamp = Math.floor((options.now ?? new Date()).getTime() / 1000);
  return { body, headers: platformHeaders(options.signWith ?? keys.platform.privateKey, body, { timestamp, serial: options.serial }) };
}

export type FakeRequest = { method: string; url: string; body: string; authorization: string; signatureValid: boolean };

/**
 * The fake API. `failNext` makes the next call answer an error (vendor code, or a bare status); `answerWith` signs
 * answers with another key (a man in the middle); `pay` moves a transaction as a buyer at WeChat's cashier would;
 * the close API (`…/close`) closes an unpaid one; `calls` counts what the storefront asked, by kind.
 */
export async function startFakeWechatPay(keys: WechatKeys, listen: FakeListen = {}) {
  const requests: FakeRequest[] = [];
  const transactions = new Map<string, FakeTransaction>();
  const refunds = new Map<string, { out_trade_no: string; amount: number; status: 'PROCESSING' | 'SUCCESS' }>();
  // How new refunds start: SUCCESS at once, or PROCESSING until `finishRefunds`.
  let newRefundStatus: 'PROCESSING' | 'SUCCESS' = 'SUCCESS';
  const failures: { status: number; code?: string; message?: string }[] = [];
  let answerKey = keys.platform.privateKey;
  // The merchant's public key as WeChat Pay holds it: read back from its PEM, as uploaded to the merchant platform.
  const merchantPublicKey = createPublicKey(pem(keys.merchant.publicKey));

  function answer(res: http.ServerResponse, status: number, payload: unknown) {
    const body = payload === null ? '' : JSON.stringify(payload);
    res.writeHead(status, { 'content-type': 'application/json', ...platformHeaders(answerKey, body) });
    res.end(body);
  }

  /** The merchant signature, checked as WeChat Pay checks it (its own parse and recomputation). */
  function signatureValid(method: string, url: string, body: string, authorization: string): boolean {
    const match = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(authorization);
    if (!match) return false;
    const fields = Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (fields.mchid !== MCHID || fields.serial_no !== SERIAL || !fields.nonce_str || !fields.timestamp || !fields.signature) return false;
    const message = `${method}\n${url}\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`;
    return verify('RSA-SHA256', Buffer.from(message), merchantPublicKey, Buffer.from(fields.signature, 'base64'));
  }

  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '';
      const method = req.method ?? '';
      const authorization = req.headers.authorization ?? '';
      const valid = signatureValid(method, url, body, authorization);
      requests.push({ method, url, body, authorization, signatureValid: valid });
      const failure = failures.shift();
      if (failure) {
        if (failure.code) return answer(res, failure.status, { code: failure.code, message: failure.message ?? failure.code });
        res.writeHead(failure.status, { 'content-type': 'text/html' });
        return res.end('<html>Bad Gateway</html>');
      }
      if (!valid) return answer(res, 401, { code: 'SIGN_ERROR', message: '签名错误' });
      const json = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      const path = url.split('?')[0]!;
      if (method === 'POST' && (path === '/v3/pay/transactions/h5' || path === '/v3/pay/transactions/jsapi')) {
        const no = String(json.out_trade_no);
        const total = (json.amount as { total: number }).total;
        if (json.mchid !== MCHID || json.appid !== APPID) return answer(res, 400, { code: 'PARAM_ERROR', message: 'mchid/appid' });
        const payer = json.payer as { openid?: string } | undefined;
        if (path.endsWith('jsapi') && !payer?.openid) return answer(res, 400, { code: 'PARAM_ERROR', message: '缺少参数 payer.openid' });
        transactions.set(no, {
          mchid: MCHID,
          appid: APPID,
          out_trade_no: no,
          trade_state: 'NOTPAY',
          amount: { total, currency: 'CNY' },
          payer: payer?.openid ? { openid: payer.openid } : undefined,
        });
        return path.endsWith('h5')
          ? answer(res, 200, { h5_url: `https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx${no}&package=2746` })
          : answer(res, 200, { prepay_id: `wx${no}` });
      }
      const close = /^\/v3\/pay\/transactions\/out-trade-no\/([^/?]+)\/close$/.exec(path);
      if (method === 'POST' && close) {
        if (json.mchid !== MCHID) return answer(res, 400, { code: 'PARAM_ERROR', message: 'mchid' });
        const t = transactions.get(decodeURIComponent(close[1]!));
        if (!t) return answer(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
        if (t.trade_state === 'SUCCESS' || t.trade_state === 'REFUND')
          return answer(res, 400, { code: 'ORDERPAID', message: '订单已支付' });
        // Closed: WeChat's cashier takes no money for it any more. 204 with an empty body, signed like every answer.
        t.trade_state = 'CLOSED';
        return answer(res, 204, null);
      }
      const query = /^\/v3\/pay\/transactions\/out-trade-no\/([^/?]+)$/.exec(path);
      if (method === 'GET' && query) {
        if (!url.includes(`mchid=${MCHID}`)) return answer(res, 400, { code: 'PARAM_ERROR', message: 'mchid' });
        const t = transactions.get(decodeURIComponent(query[1]!));
        return t ? answer(res, 200, t) : answer(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
      }
      if (method === 'POST' && path === '/v3/refund/domestic/refunds') {
        const outRefundNo = String(json.out_refund_no);
        const amount = (json.amount as { refund: number; total: number }).refund;
        const t = transactions.get(String(json.out_trade_no));
        if (!t || t.trade_state !== 'SUCCESS') return answer(res, 404, { code: 'RESOURCE_NOT_EXISTS', message: '订单不存在' });
        // The same refund number is the same refund: WeChat Pay never pays it twice.
        if (!refunds.has(outRefundNo)) refunds.set(outRefundNo, { out_trade_no: t.out_trade_no, amount, status: newRefundStatus });
        return answer(res, 200, { refund_id: `50${outRefundNo}`, out_refund_no: outRefundNo, status: refunds.get(outRefundNo)!.status });
      }
      const refundQuery = /^\/v3\/refund\/domestic\/refunds\/([^/?]+)$/.exec(path);
      if (method === 'GET' && refundQuery) {
        const outRefundNo = decodeURIComponent(refundQuery[1]!);
        const r = refunds.get(outRefundNo);
        return r
          ? answer(res, 200, { refund_id: `50${outRefundNo}`, out_refund_no: outRefundNo, out_trade_no: r.out_trade_no, status: r.status })
          : answer(res, 404, { code: 'RESOURCE_NOT_EXISTS', message: '退款单不存在' });
      }
      answer(res, 404, { code: 'NOT_FOUND', message: 'no such API' });
    });
  };
  const { server, origin } = await listenOnLoopback(handler, listen);
  return {
    url: origin,
    requests,
    transactions,
    refunds,
    /** New refunds stay PROCESSING until finishRefunds, as WeChat Pay's do while the bank gives the money back. */
    refundsProcess() {
      newRefundStatus = 'PROCESSING';
    },
    finishRefunds() {
      newRefundStatus = 'SUCCESS';
      for (const r of refunds.values()) r.status = 'SUCCESS';
    },
    failNext(status: number, code?: string, message?: string) {
      failures.push({ status, code, message });
    },
    answerWith(key: KeyObject) {
      answerKey = key;
    },
    /**
     * The calls the storefront made, by kind: prepay (opening a payment, H5 or JSAPI), close, query, refund (made or
     * asked about). What the merchant's API quota is spent on (issue 29).
     */
    calls() {
      const kinds = { prepay: 0, close: 0, query: 0, refund: 0, other: 0 };
      for (const r of requests) {
        const path = r.url.split('?')[0]!;
        if (/^\/v3\/pay\/transactions\/(h5|jsapi)$/.test(path)) kinds.prepay++;
        else if (path.endsWith('/close')) kinds.close++;
        else if (path.startsWith('/v3/pay/transactions/out-trade-no/')) kinds.query++;
        else if (path.startsWith('/v3/refund/')) kinds.refund++;
        else kinds.other++;
      }
      return kinds;
    },
    /** The buyer pays at WeChat's cashier (which refuses a closed payment). */
    pay(paymentNo: string): FakeTransaction {
      const t = transactions.get(paymentNo);
      if (!t) throw new Error(`fake: no transaction ${paymentNo}`);
      if (t.trade_state === 'CLOSED') throw new Error(`fake: ${paymentNo} is closed; WeChat's cashier does not take it`);
      t.trade_state = 'SUCCESS';
      t.transaction_id = `4200${paymentNo.slice(1)}`;
      return t;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeWechatPay = Awaited<ReturnType<typeof startFakeWechatPay>>;
