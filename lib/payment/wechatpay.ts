import 'server-only';
import { createDecipheriv, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import type { Env } from '../env';
import type { PayClient } from './clients';
import { readKey } from '../security/keys';
import { formatDate } from '../format/date';
import {
  NotificationError,
  notificationJson,
  PaymentProviderError,
  type NotificationResult,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentStart,
  type RefundRequest,
  type VerifiedNotification,
} from './provider';

/**
 * WeChat Pay API v3 (docs/decisions.md "WeChat Pay by hand with node:crypto"): H5 payment in phone browsers, JSAPI
 * payment inside WeChat's browser, notifications, the order query and refunds. Every request is signed
 * (`WECHATPAY2-SHA256-RSA2048`: RSA-SHA256 with the merchant key over `method\nurl\ntimestamp\nnonce\nbody\n`); every
 * answer and notification is checked against WeChat Pay's public key (`timestamp\nnonce\nbody\n`), and a
 * notification's `resource` is decrypted with the APIv3 key (AES-256-GCM).
 */

export type WechatPayConfig = {
  mchid: string;
  appid: string;
  /** Serial number of the merchant API certificate. */
  serial: string;
  privateKey: KeyObject;
  /** 32 bytes: the AES-256-GCM key of notifications. */
  apiV3Key: string;
  platformPublicKey: KeyObject;
  /** The id WeChat Pay names its key by in `Wechatpay-Serial` (`PUB_KEY_ID_…`). */
  platformPublicKeyId: string;
  notifyUrl: string;
  /** The API's origin (https://api.mch.weixin.qq.com; a local fake in tests). */
  endpoint: string;
  /** JSAPI inside WeChat is offered only when the openid can be learnt (WECHATPAY_APPSECRET set). */
  jsapi: boolean;
};

/** The provider's config from a validated environment (lib/env.ts checked every variable is there and usable). */
export function wechatPayConfigFromEnv(e: Env): WechatPayConfig {
  return {
    mchid: e.WECHATPAY_MCHID!,
    appid: e.WECHATPAY_APPID!,
    serial: e.WECHATPAY_SERIAL!,
    privateKey: readKey(e.WECHATPAY_PRIVATE_KEY!, 'private'),
    apiV3Key: e.WECHATPAY_APIV3_KEY!,
    platformPublicKey: readKey(e.WECHATPAY_PLATFORM_PUBLIC_KEY!, 'public'),
    platformPublicKeyId: e.WECHATPAY_PLATFORM_PUBLIC_KEY_ID!,
    notifyUrl: e.WECHATPAY_NOTIFY_URL!,
    endpoint: e.WECHATPAY_ENDPOINT,
    jsapi: Boolean(e.WECHATPAY_APPSECRET),
  };
}

/** How far a notification's `Wechatpay-Timestamp` may be from our clock (WeChat Pay's guidance: 5 minutes). */
export const NOTIFICATION_MAX_SKEW_MS = 5 * 60_000;

/** How long a call to the API may take before it is given up (and reported busy). */
const REQUEST_TIMEOUT_MS = 10_000;

/** Vendor error codes worth trying again shortly: the rest are refusals. */
const BUSY_CODES = new Set(['FREQUENCY_LIMITED', 'SYSTEM_ERROR', 'SYSTEMERROR', 'BANKERROR', 'RESOURCE_ALREADY_EXISTS_BUSY']);

/** The refund number of a payment: derived from it, so a repeated refund is the same refund and cannot pay twice. */
export function refundNoOf(paymentNo: string): string {
  return `R${paymentNo.replace(/^P/, '')}`;
}

/** The `Authorization` header of one request (WeChat Pay API v3, "签名生成"). */
export function authorizationFor(
  config: Pick<WechatPayConfig, 'mchid' | 'serial' | 'privateKey'>,
  request: { method: string; url: string; body: string; timestamp: string; nonce: string },
): string {
  const message = `${request.method}\n${request.url}\n${request.timestamp}\n${request.nonce}\n${request.body}\n`;
  const signature = sign('RSA-SHA256', Buffer.from(message, 'utf8'), config.privateKey).toString('base64');
  return `WECHATPAY2-SHA256-RSA2048 mchid="${config.mchid}",nonce_str="${request.nonce}",signature="${signature}",timestamp="${request.timestamp}",serial_no="${config.serial}"`;
}

/** The JSAPI sheet's `paySign`: RSA-SHA256 with the merchant key over `appId\ntimeStamp\nnonceStr\npackage\n`. */
export function jsapiPaySign(privateKey: KeyObject, p: { appId: string; timeStamp: string; nonceStr: string; package: string }): string {
  return sign('RSA-SHA256', Buffer.from(`${p.appId}\n${p.timeStamp}\n${p.nonceStr}\n${p.package}\n`, 'utf8'), privateKey).toString(
    'base64',
  );
}

/**
 * Checks WeChat Pay's signature over an answer or a notification; null when genuine, else what is wrong. With `now`,
 * the timestamp must also be within NOTIFICATION_MAX_SKEW_MS of it (a replayed old notification is refused).
 */
export function platformSignatureProblem(
  config: Pick<WechatPayConfig, 'platformPublicKey' | 'platformPublicKeyId'>,
  headers: Headers,
  body: string,
  now?: Date,
): string | null {
  const timestamp = headers.get('wechatpay-timestamp') ?? '';
  const nonce = headers.get('wechatpay-nonce') ?? '';
  const signature = headers.get('wechatpay-signature') ?? '';
  const serial = headers.get('wechatpay-serial') ?? '';
  if (!/^\d{1,12}$/.test(timestamp)) return 'Wechatpay-Timestamp: is missing or not a number of seconds';
  if (!nonce) return 'Wechatpay-Nonce: is missing';
  if (!signature) return 'Wechatpay-Signature: is missing';
  if (serial !== config.platformPublicKeyId)
    return `Wechatpay-Serial: ${serial.slice(0, 64) || '(missing)'} is not the WeChat Pay key we hold (${config.platformPublicKeyId})`;
  if (now && Math.abs(now.getTime() - Number(timestamp) * 1000) > NOTIFICATION_MAX_SKEW_MS)
    return 'Wechatpay-Timestamp: is more than 5 minutes away from our clock (an old notification replayed?)';
  let good = false;
  try {
    good = verify(
      'RSA-SHA256',
      Buffer.from(`${timestamp}\n${nonce}\n${body}\n`, 'utf8'),
      config.platformPublicKey,
      Buffer.from(signature, 'base64'),
    );
  } catch {
    good = false;
  }
  return good ? null : 'Wechatpay-Signature: does not match the body (not signed by WeChat Pay)';
}

/** AES-256-GCM (AEAD_AES_256_GCM) of a notification's `resource`: base64 of ciphertext then the 16-byte tag. */
export function decryptResource(apiV3Key: string, resource: { ciphertext: string; nonce: string; associated_data?: string }): string {
  const data = Buffer.from(resource.ciphertext, 'base64');
  if (data.length < 17) throw new Error('ciphertext is too short');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(resource.nonce, 'utf8'));
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
}

const notificationSchema = z.object({
  id: z.string(),
  event_type: z.string(),
  resource_type: z.literal('encrypt-resource'),
  resource: z.object({
    algorithm: z.literal('AEAD_AES_256_GCM'),
    ciphertext: z.string().min(1),
    nonce: z.string().min(1),
    associated_data: z.string().optional(),
    original_type: z.string().optional(),
  }),
});

/** A transaction as the query and the payment notification describe it (the fields we use). */
const transactionSchema = z.object({
  mchid: z.string(),
  appid: z.string(),
  out_trade_no: z.string(),
  transaction_id: z.string().optional(),
  trade_state: z.string(),
  amount: z.object({ total: z.number().int().min(0) }).optional(),
});
type Transaction = z.infer<typeof transactionSchema>;

/** Answers to closing a payment that mean it cannot be paid: closed before, or never opened at WeChat Pay. */
const CLOSED_ALREADY = new Set(['ORDER_CLOSED', 'ORDER_NOT_EXIST']);

/** Final failures of a transaction; NOTPAY and USERPAYING are not outcomes yet, REFUND was already given back. */
const FAILED_STATES = new Set(['CLOSED', 'PAYERROR', 'REVOKED']);

function issuesOf(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(body)'} ${i.message}`).join('; ');
}

/** `2026-11-22T16:05:00+08:00`: WeChat Pay's time format (RFC 3339, Beijing time). */
function beijingTime(at: Date): string {
  return formatDate(at, "yyyy-MM-dd'T'HH:mm:ssXXX", 'Asia/Shanghai');
}

/** At most `max` characters (not UTF-16 units): WeChat Pay counts characters in `description`. */
function clip(text: string, max: number): string {
  return Array.from(text).slice(0, max).join('');
}

/** The WeChat Pay provider. `clock` is the request signatures' time (tests move it). */
export function wechatPayProvider(config: WechatPayConfig, clock: () => Date = () => new Date()): PaymentProvider {
  const name = 'wechatpay';

  async function call(method: 'GET' | 'POST', url: string, payload?: object): Promise<{ status: number; data: unknown }> {
    const body = payload ? JSON.stringify(payload) : '';
    const timestamp = String(Math.floor(clock().getTime() / 1000));
    const nonce = randomBytes(16).toString('hex');
    let response: Response;
    try {
      response = await fetch(`${config.endpoint}${url}`, {
        method,
        headers: {
          authorization: authorizationFor(config, { method, url, body, timestamp, nonce }),
          accept: 'application/json',
          'content-type': 'application/json',
          'user-agent': 'storefront wechatpay-v3',
        },
        body: payload ? body : undefined,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new PaymentProviderError(name, 'NETWORK', `could not reach the API (${(error as Error).message})`, true);
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      let code = `HTTP_${response.status}`;
      let message = text.slice(0, 200) || response.statusText;
      try {
        const parsed = JSON.parse(text) as { code?: unknown; message?: unknown };
        if (typeof parsed.code === 'string') code = parsed.code;
        if (typeof parsed.message === 'string') message = parsed.message;
      } catch {
        // Not JSON (a proxy's error page): the status says enough.
      }
      throw new PaymentProviderError(name, code, message, response.status >= 500 || response.status === 429 || BUSY_CODES.has(code));
    }
    // An answer we act on must come from WeChat Pay: its signature is checked like a notification's.
    const problem = platformSignatureProblem(config, response.headers, text);
    if (problem) throw new PaymentProviderError(name, 'ANSWER_NOT_SIGNED', problem, false);
    let data: unknown = null;
    if (text) {
      try {
        data = JSON.parse(text);
      } catch {
        throw new PaymentProviderError(name, 'BAD_ANSWER', 'the answer is not JSON', true);
      }
    }
    return { status: response.status, data };
  }

  /** A transaction is ours and about this payment: otherwise it is not applied. */
  function ownTransaction(t: Transaction, paymentNo?: string): string | null {
    if (t.mchid !== config.mchid) return `mchid: ${t.mchid} is not our merchant number`;
    if (t.appid !== config.appid) return `appid: ${t.appid} is not our app id`;
    if (paymentNo && t.out_trade_no !== paymentNo) return `out_trade_no: ${t.out_trade_no} is not payment ${paymentNo}`;
    return null;
  }

  function outcomeOf(t: Transaction): VerifiedNotification | null {
    const base = { paymentNo: t.out_trade_no, providerTradeNo: t.transaction_id ?? '', amount: t.amount?.total ?? -1 };
    if (t.trade_state === 'SUCCESS') return { ...base, paid: true };
    if (FAILED_STATES.has(t.trade_state)) return { ...base, paid: false };
    return null;
  }

  const clients: readonly PayClient[] = config.jsapi ? ['wechat', 'mobile'] : ['mobile'];

  return {
    name,
    // JSAPI inside WeChat's browser, H5 in other phone browsers; not in a mini-program's web view (it pays through the
    // mini-program's own wx.requestPayment) nor on a computer (that needs the QR-code Native payment, not built).
    clients,

    async start(request: PaymentRequest): Promise<PaymentStart> {
      const order = {
        appid: config.appid,
        mchid: config.mchid,
        description: clip(request.subject, 127),
        out_trade_no: request.paymentNo,
        // The payment closes with the order, so WeChat takes no money for an order that no longer waits for it.
        time_expire: beijingTime(request.expiresAt),
        notify_url: config.notifyUrl,
        amount: { total: request.amount, currency: 'CNY' },
      };
      if (request.client === 'wechat' && config.jsapi) {
        if (!request.openid) throw new PaymentProviderError(name, 'NO_OPENID', "JSAPI needs the buyer's openid", false);
        const { data } = await call('POST', '/v3/pay/transactions/jsapi', { ...order, payer: { openid: request.openid } });
        const parsed = z.object({ prepay_id: z.string().min(1) }).safeParse(data);
        if (!parsed.success) throw new PaymentProviderError(name, 'BAD_ANSWER', `jsapi: ${issuesOf(parsed.error)}`, true);
        const sheet = {
          appId: config.appid,
          timeStamp: String(Math.floor(clock().getTime() / 1000)),
          nonceStr: randomBytes(16).toString('hex'),
          package: `prepay_id=${parsed.data.prepay_id}`,
        };
        return { payUrl: request.returnUrl, jsapi: { ...sheet, signType: 'RSA', paySign: jsapiPaySign(config.privateKey, sheet) } };
      }
      if (request.client !== 'mobile')
        throw new PaymentProviderError(name, 'CLIENT', `cannot take a payment from a ${request.client} browser`, false);
      const { data } = await call('POST', '/v3/pay/transactions/h5', {
        ...order,
        scene_info: { payer_client_ip: request.clientIp, h5_info: { type: 'Wap' } },
      });
      const parsed = z.object({ h5_url: z.string().regex(/^https:\/\//) }).safeParse(data);
      if (!parsed.success) throw new PaymentProviderError(name, 'BAD_ANSWER', `h5: ${issuesOf(parsed.error)}`, true);
      // WeChat's cashier sends the buyer back here afterwards (paid or not): the result page asks how it went.
      const payUrl = new URL(parsed.data.h5_url);
      payUrl.searchParams.set('redirect_url', request.returnUrl);
      return { payUrl: payUrl.toString() };
    },

    async verify(rawBody: string, headers: Headers, now: Date): Promise<VerifiedNotification> {
      const problem = platformSignatureProblem(config, headers, rawBody, now);
      if (problem) throw new NotificationError(problem);
      const notification = notificationJson(rawBody, notificationSchema, 'body');
      let plain: string;
      try {
        plain = decryptResource(config.apiV3Key, notification.resource);
      } catch {
        throw new NotificationError('resource: does not decrypt with our APIv3 key');
      }
      const transaction = notificationJson(plain, transactionSchema, 'resource', 'is not valid JSON once decrypted');
      const notOurs = ownTransaction(transaction);
      if (notOurs) throw new NotificationError(`resource.${notOurs}`);
      const outcome = outcomeOf(transaction);
      if (!outcome) throw new NotificationError(`resource.trade_state: ${transaction.trade_state} is not an outcome`);
      if (outcome.amount < 0) throw new NotificationError('resource.amount.total: is missing');
      return outcome;
    },

    async query(paymentNo: string): Promise<VerifiedNotification | null> {
      let data: unknown;
      try {
        ({ data } = await call(
          'GET',
          `/v3/pay/transactions/out-trade-no/${encodeURIComponent(paymentNo)}?mchid=${encodeURIComponent(config.mchid)}`,
        ));
      } catch (error) {
        // Never opened at WeChat (start failed before it): nothing known, as for a payment not paid yet.
        if (error instanceof PaymentProviderError && error.providerCode === 'ORDER_NOT_EXIST') return null;
        throw error;
      }
      const transaction = transactionSchema.safeParse(data);
      if (!transaction.success) throw new PaymentProviderError(name, 'BAD_ANSWER', `query: ${issuesOf(transaction.error)}`, true);
      const notOurs = ownTransaction(transaction.data, paymentNo);
      if (notOurs) throw new PaymentProviderError(name, 'BAD_ANSWER', `query: ${notOurs}`, false);
      return outcomeOf(transaction.data);
    },

    async close(paymentNo: string): Promise<'closed'> {
      try {
        // 204 with an empty (signed) body: WeChat Pay takes no money for it from now on.
        await call('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(paymentNo)}/close`, { mchid: config.mchid });
      } catch (error) {
        // Closed already, or never opened (start failed before WeChat Pay took it): nothing can be paid either way.
        if (error instanceof PaymentProviderError && CLOSED_ALREADY.has(error.providerCode)) return 'closed';
        throw error;
      }
      return 'closed';
    },

    reopen(start: PaymentStart): PaymentStart {
      if (!start.jsapi) return start;
      // The same prepay_id (valid two hours at WeChat Pay), in a sheet signed anew with the current time.
      const sheet = {
        appId: start.jsapi.appId,
        timeStamp: String(Math.floor(clock().getTime() / 1000)),
        nonceStr: randomBytes(16).toString('hex'),
        package: start.jsapi.package,
      };
      return { ...start, jsapi: { ...sheet, signType: 'RSA', paySign: jsapiPaySign(config.privateKey, sheet) } };
    },

    async refund(paymentNo: string, amount: number, refund?: RefundRequest): Promise<void> {
      // An order's refund (issue 32) has its own number; the paid-late refund of the whole payment keeps the derived one.
      const refundNo = refund?.refundNo ?? refundNoOf(paymentNo);
      const statusOf = (data: unknown) => {
        const parsed = z.object({ status: z.string() }).safeParse(data);
        if (!parsed.success) throw new PaymentProviderError(name, 'BAD_ANSWER', `refund: ${issuesOf(parsed.error)}`, true);
        return parsed.data.status;
      };
      // Asked first: a refund made on an earlier pass (one still PROCESSING, or one made just before a crash) is read,
      // and only a refund WeChat Pay has never seen is made.
      let status: string;
      try {
        status = statusOf((await call('GET', `/v3/refund/domestic/refunds/${encodeURIComponent(refundNo)}`)).data);
      } catch (error) {
        if (!(error instanceof PaymentProviderError && error.providerCode === 'RESOURCE_NOT_EXISTS')) throw error;
        const { data } = await call('POST', '/v3/refund/domestic/refunds', {
          out_trade_no: paymentNo,
          out_refund_no: refundNo,
          reason: clip(refund?.reason ?? '订单已关闭，款项原路退回', 80),
          amount: { refund: amount, total: refund?.total ?? amount, currency: 'CNY' },
        });
        status = statusOf(data);
      }
      if (status === 'SUCCESS') return;
      // PROCESSING: taken, not yet given back. The payment stays `refunding` and the reconciliation job asks again
      // (docs/orders.md), so it is recorded refunded only once the money is back.
      if (status === 'PROCESSING')
        throw new PaymentProviderError(name, 'PROCESSING', `refund of ${paymentNo} is still processing at WeChat Pay`, true);
      throw new PaymentProviderError(name, status, `refund of ${paymentNo} is ${status}`, false);
    },

    answerNotification(result: NotificationResult): Response {
      // WeChat Pay: success is 200/204 with no body; a failure is 4xx/5xx with {code: FAIL, message} (at most 64 chars).
      if (result.ok) return new Response(null, { status: 204 });
      return Response.json({ code: 'FAIL', message: clip(result.message, 64) }, { status: result.status });
    },
  };
}
