import 'server-only';
import type { KeyObject } from 'node:crypto';
import { AlipayRequestError, AlipaySdk } from 'alipay-sdk';
import { z } from 'zod';
import type { Env } from '../env';
import { readKey } from '../security/keys';
import { formatDate } from '../format/date';
import type { PayClient } from './clients';
import {
  NotificationError,
  NotificationIgnored,
  PaymentProviderError,
  type NotificationResult,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentStart,
  type RefundRequest,
  type VerifiedNotification,
} from './provider';

/**
 * Alipay mobile web pay (`alipay.trade.wap.pay`, DESIGN §7) behind the PaymentProvider interface, through the official
 * SDK (alipay-sdk v4, OpenAPI v2 gateway with RSA2 keys; docs/decisions.md, "Alipay"). Amounts are integer fen in the
 * storefront and yuan strings with two decimals at Alipay; both ways convert by digits, never by floating point.
 */

/** How long a call to Alipay may take before it counts as failed (the SDK's default too). */
export const ALIPAY_TIMEOUT_MS = 5000;
/** Alipay's limits on `total_amount`: 0.01 to 100,000,000.00 yuan. */
const MAX_FEN = 10_000_000_000;
const NAME = 'alipay';

export type AlipayConfig = {
  /** The app id on the Alipay open platform. */
  appId: string;
  /** Our app's RSA private key (Alipay holds its public half). */
  privateKey: KeyObject;
  /** Alipay's public key: answers and notifications must be signed by it. */
  alipayPublicKey: KeyObject;
  /** Where Alipay posts notifications (our /api/pay/notify/alipay). */
  notifyUrl: string;
  /** The OpenAPI gateway (https://openapi.alipay.com/gateway.do; a local fake in tests). */
  gateway: string;
  timeoutMs?: number;
};

/** The provider's config from a validated environment (lib/env.ts checked every variable is there and usable). */
export function alipayConfigFromEnv(e: Env): AlipayConfig {
  return {
    appId: e.ALIPAY_APP_ID!,
    privateKey: readKey(e.ALIPAY_PRIVATE_KEY!, 'private'),
    alipayPublicKey: readKey(e.ALIPAY_PUBLIC_KEY!, 'public'),
    notifyUrl: e.ALIPAY_NOTIFY_URL!,
    gateway: e.ALIPAY_GATEWAY,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Money and time

/** Integer fen → Alipay's yuan with two decimals ("1234.50"), by digits. */
export function fenToYuan(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 1 || fen > MAX_FEN) {
    throw new PaymentProviderError(NAME, 'AMOUNT', `Alipay takes 0.01 to 100000000.00 yuan; this is ${fen} fen`, false);
  }
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** Alipay's yuan ("1234.5", "1234.50", "12") → integer fen, by digits; null when it is not an amount. */
export function yuanToFen(yuan: string): number | null {
  const match = /^(0|[1-9]\d{0,11})(?:\.(\d{1,2}))?$/.exec(yuan);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Alipay's times are Beijing time (UTC+8, no daylight saving), "yyyy-MM-dd HH:mm:ss", whatever the server's zone. */
export function beijingTime(date: Date): string {
  return formatDate(date, 'yyyy-MM-dd HH:mm:ss', 'Asia/Shanghai');
}

// ---------------------------------------------------------------------------------------------------------------
// Answers and errors

const TRADE_STATUSES = ['WAIT_BUYER_PAY', 'TRADE_CLOSED', 'TRADE_SUCCESS', 'TRADE_FINISHED'] as const;
type TradeStatus = (typeof TRADE_STATUSES)[number];
const PAID: ReadonlySet<TradeStatus> = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);

const notificationSchema = z.object({
  app_id: z.string().min(1),
  out_trade_no: z.string().min(1).max(64),
  trade_no: z.string().min(1).max(64),
  trade_status: z.string().min(1),
  total_amount: z.string().min(1),
  refund_fee: z.string().optional(),
  out_biz_no: z.string().optional(),
});

/** An Alipay answer (`xxx_response`), kept with Alipay's own names (the SDK's `camelcase: false`). */
type AlipayAnswer = Record<string, unknown> & { code?: unknown; msg?: unknown; sub_code?: unknown; sub_msg?: unknown };

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** Alipay's code of an answer: its `sub_code` without the `aop.` some gateways prefix, else its `code`. */
function vendorCodeOf(answer: AlipayAnswer): string {
  return (text(answer.sub_code) ?? text(answer.code) ?? 'unknown').replace(/^aop\./, '');
}

/** Alipay's own trouble (code 20000, ACQ.SYSTEM_ERROR, isp.*): worth trying again shortly. */
function isSystemError(answer: AlipayAnswer): boolean {
  const code = vendorCodeOf(answer);
  return text(answer.code) === '20000' || code === 'ACQ.SYSTEM_ERROR' || code.startsWith('isp.');
}

/** What to check when Alipay refuses our requests themselves rather than the trade (logged for the operator). */
const CONFIGURATION_HINTS: Record<string, string> = {
  'isv.invalid-signature': 'ALIPAY_PRIVATE_KEY does not match the app public key set on the Alipay open platform',
  'isv.invalid-app-id': 'ALIPAY_APP_ID is not an app of this Alipay account, or the app is not online',
  'isv.insufficient-isv-permissions': 'the app lacks the mobile web pay product (QUICK_WAP_WAY) on the Alipay open platform',
};

/** A business error in Alipay's answer: Alipay's code and message; busy when it is Alipay's own trouble. */
function refusal(what: string, answer: AlipayAnswer): PaymentProviderError {
  const code = vendorCodeOf(answer);
  const detail = text(answer.sub_msg) ?? text(answer.msg);
  const hint = CONFIGURATION_HINTS[code];
  if (hint) console.error(`[pay] alipay: the ${what} was refused with ${code}: ${hint}`);
  return new PaymentProviderError(NAME, code, `the ${what} was refused${detail ? `: ${detail}` : ''}`, isSystemError(answer));
}

/** The code an unverified answer claims, to name it in the error (it is never acted on). */
function claimedCode(raw: string | undefined): string | null {
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object') {
      for (const value of Object.values(parsed)) {
        if (value && typeof value === 'object' && 'code' in value) {
          const answer = value as AlipayAnswer;
          return text(answer.code) === '10000' ? null : vendorCodeOf(answer);
        }
      }
    }
  } catch {
    // not JSON: nothing to name
  }
  return null;
}

/**
 * What the SDK threw, as a PaymentProviderError: a time-out (`TIMEOUT`), a gateway that cannot be reached (`NETWORK`)
 * and HTTP 5xx/429 (`HTTP_<status>`) are busy; an answer not signed by Alipay (`ANSWER_NOT_SIGNED`) is not believed.
 */
function callError(what: string, timeoutMs: number, error: unknown): PaymentProviderError {
  if (error instanceof PaymentProviderError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof AlipayRequestError) {
    const cause = error.cause as { name?: string; code?: string; message?: string } | undefined;
    if (message.startsWith('HttpClient Request error')) {
      if (/timeout/i.test(`${cause?.name ?? ''} ${cause?.code ?? ''} ${message}`)) {
        return new PaymentProviderError(NAME, 'TIMEOUT', `no answer to the ${what} within ${timeoutMs} ms`, true);
      }
      return new PaymentProviderError(
        NAME,
        'NETWORK',
        `could not reach the gateway for the ${what} (${cause?.code ?? cause?.message ?? message})`,
        true,
      );
    }
    const status = /status: (\d{3})/.exec(message)?.[1];
    if (status) {
      const code = Number(status);
      return new PaymentProviderError(
        NAME,
        `HTTP_${status}`,
        `the gateway answered the ${what} with HTTP ${status}`,
        code >= 500 || code === 429,
      );
    }
    if (message.includes('验签')) {
      const claimed = claimedCode(error.responseDataRaw);
      return new PaymentProviderError(
        NAME,
        'ANSWER_NOT_SIGNED',
        `the answer to the ${what} failed its signature check${claimed ? ` (it claimed ${claimed})` : ''}; is ALIPAY_PUBLIC_KEY Alipay's current public key?`,
        false,
      );
    }
    return new PaymentProviderError(NAME, 'BAD_ANSWER', `the answer to the ${what} could not be read`, true);
  }
  // The SDK verifies an answer without a `sign` by passing undefined to node:crypto, which throws a TypeError.
  if (/signature/i.test(message))
    return new PaymentProviderError(NAME, 'ANSWER_NOT_SIGNED', `the answer to the ${what} was not signed`, false);
  return new PaymentProviderError(NAME, 'BAD_ANSWER', `the answer to the ${what} could not be read (${message})`, true);
}

/** Alipay's subject: at most 256 characters, none of `/ = &` (Alipay refuses them). */
function subjectOf(subject: string): string {
  const cleaned = subject.replace(/[/=&]/g, ' ').replace(/\s+/g, ' ').trim();
  return Array.from(cleaned || 'Order')
    .slice(0, 256)
    .join('');
}

// ---------------------------------------------------------------------------------------------------------------
// The provider

/** The `alipay` payment provider. `clock` is the requests' timestamps (tests fix it). */
export function alipayProvider(config: AlipayConfig, clock: () => Date = () => new Date()): PaymentProvider {
  const timeoutMs = config.timeoutMs ?? ALIPAY_TIMEOUT_MS;
  const sdk = new AlipaySdk({
    appId: config.appId,
    privateKey: String(config.privateKey.export({ format: 'pem', type: 'pkcs8' })),
    keyType: 'PKCS8',
    alipayPublicKey: String(config.alipayPublicKey.export({ format: 'pem', type: 'spki' })),
    gateway: config.gateway,
    timeout: timeoutMs,
    signType: 'RSA2',
    camelcase: false,
  });

  /** One OpenAPI call; its answer's signature is checked (`validateSign`), its failures become PaymentProviderErrors. */
  async function call(method: string, bizContent: Record<string, string>, what: string): Promise<AlipayAnswer> {
    try {
      // The SDK stamps requests with the server's local time; Alipay reads Beijing time, so we pass it.
      const answer = await sdk.exec(method, { bizContent, timestamp: beijingTime(clock()) }, { validateSign: true });
      return answer as AlipayAnswer;
    } catch (error) {
      throw callError(what, timeoutMs, error);
    }
  }

  /** A verified answer about one of our trades, checked to be about that trade. */
  function tradeOf(paymentNo: string, answer: AlipayAnswer, what: string): { tradeNo: string; amount: number; status: TradeStatus } {
    const status = text(answer.trade_status);
    const amount = yuanToFen(text(answer.total_amount) ?? '');
    const tradeNo = text(answer.trade_no);
    if (text(answer.out_trade_no) !== paymentNo)
      throw new PaymentProviderError(NAME, 'BAD_ANSWER', `the answer to the ${what} is about another trade`, false);
    if (!status || !(TRADE_STATUSES as readonly string[]).includes(status)) {
      throw new PaymentProviderError(
        NAME,
        'BAD_ANSWER',
        `the answer to the ${what} has an unknown trade_status ${status ?? '(none)'}`,
        true,
      );
    }
    if (amount === null || !tradeNo)
      throw new PaymentProviderError(NAME, 'BAD_ANSWER', `the answer to the ${what} lacks its amount or trade number`, true);
    return { tradeNo, amount, status: status as TradeStatus };
  }

  // Mobile web pay is a phone page. Not inside WeChat (its browser blocks Alipay's pages and `alipays://`), not in a
  // mini-program's web view, not on a computer (that is the PC website payment, alipay.trade.page.pay, not built).
  const clients: readonly PayClient[] = ['mobile'];

  return {
    name: NAME,
    clients,

    async start(request: PaymentRequest): Promise<PaymentStart> {
      if (!clients.includes(request.client))
        throw new PaymentProviderError(NAME, 'CLIENT', `cannot take a payment from a ${request.client} browser`, false);
      const bizContent: Record<string, string> = {
        out_trade_no: request.paymentNo,
        total_amount: fenToYuan(request.amount),
        subject: subjectOf(request.subject),
        product_code: 'QUICK_WAP_WAY',
        // Leaving Alipay's cashier also goes to the result page: it asks Alipay, and offers to pay again when unpaid.
        quit_url: request.returnUrl,
        // Alipay closes the trade when the order expires, so nobody pays for stock already given back (DESIGN §7).
        time_expire: beijingTime(request.expiresAt),
      };
      try {
        const payUrl = sdk.pageExecute('alipay.trade.wap.pay', 'GET', {
          bizContent,
          notifyUrl: config.notifyUrl,
          returnUrl: request.returnUrl,
          timestamp: beijingTime(clock()),
        });
        return { payUrl };
      } catch (error) {
        // Only signing can fail here (no request is made): our key, which lib/env.ts checked at start.
        throw new PaymentProviderError(NAME, 'SIGN', `could not sign the pay URL (${(error as Error).message})`, false);
      }
    },

    async verify(rawBody: string, headers: Headers): Promise<VerifiedNotification> {
      // No freshness window: Alipay sends a notification again for about 25 hours, and a repeat is applied once anyway.
      const contentType = headers.get('content-type');
      if (contentType && !/application\/x-www-form-urlencoded/i.test(contentType)) {
        throw new NotificationError(`content-type: Alipay posts application/x-www-form-urlencoded, not ${contentType.slice(0, 64)}`);
      }
      const fields: Record<string, string> = {};
      for (const [key, value] of new URLSearchParams(rawBody)) {
        if (key in fields) throw new NotificationError(`${key.slice(0, 32)}: appears twice`);
        fields[key] = value;
      }
      if (!fields.sign) throw new NotificationError('sign: the notification is not signed');
      if (fields.sign_type !== 'RSA2')
        throw new NotificationError(`sign_type: must be RSA2, not ${fields.sign_type?.slice(0, 16) || '(none)'}`);
      let genuine = false;
      try {
        // Sorted parameters without sign and sign_type, values as posted (no second URL-decoding), SHA256withRSA.
        genuine = sdk.checkNotifySignV2(fields);
      } catch {
        genuine = false;
      }
      if (!genuine) throw new NotificationError("sign: the signature does not match the parameters with Alipay's public key");
      const parsed = notificationSchema.safeParse(fields);
      if (!parsed.success) {
        throw new NotificationError(parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; '));
      }
      const n = parsed.data;
      if (n.app_id !== config.appId) throw new NotificationError(`app_id: ${n.app_id.slice(0, 32)} is not this shop's Alipay app`);
      if (n.refund_fee !== undefined || n.out_biz_no !== undefined) {
        throw new NotificationIgnored(`refund_fee: a refund's notification for ${n.out_trade_no}; nothing to apply`);
      }
      if (!(TRADE_STATUSES as readonly string[]).includes(n.trade_status)) {
        throw new NotificationError(`trade_status: ${n.trade_status.slice(0, 32)} is not one of ${TRADE_STATUSES.join(', ')}`);
      }
      if (n.trade_status === 'WAIT_BUYER_PAY') {
        throw new NotificationIgnored(`trade_status: ${n.out_trade_no} still waits for the buyer; nothing to apply`);
      }
      const amount = yuanToFen(n.total_amount);
      if (amount === null) throw new NotificationError(`total_amount: ${n.total_amount.slice(0, 32)} is not an amount in yuan`);
      return { paymentNo: n.out_trade_no, providerTradeNo: n.trade_no, amount, paid: PAID.has(n.trade_status as TradeStatus) };
    },

    async query(paymentNo: string): Promise<VerifiedNotification | null> {
      const what = `query of ${paymentNo}`;
      const answer = await call('alipay.trade.query', { out_trade_no: paymentNo }, what);
      if (text(answer.code) !== '10000') {
        // The buyer has not opened Alipay's cashier yet: the trade exists only once they do.
        if (vendorCodeOf(answer) === 'ACQ.TRADE_NOT_EXIST') return null;
        throw refusal(what, answer);
      }
      const trade = tradeOf(paymentNo, answer, what);
      if (trade.status === 'WAIT_BUYER_PAY') return null;
      return { paymentNo, providerTradeNo: trade.tradeNo, amount: trade.amount, paid: PAID.has(trade.status) };
    },

    async close(paymentNo: string): Promise<'closed' | 'unopened'> {
      const what = `close of ${paymentNo}`;
      const answer = await call('alipay.trade.close', { out_trade_no: paymentNo }, what);
      if (text(answer.code) === '10000') return 'closed';
      // No trade yet: Alipay opens it when the buyer opens the pay URL, which stays good until its time_expire. So it may
      // still be paid: the caller keeps it open (docs/orders.md).
      if (vendorCodeOf(answer) === 'ACQ.TRADE_NOT_EXIST') return 'unopened';
      throw refusal(what, answer);
    },

    async refund(paymentNo: string, amount: number, refund?: RefundRequest): Promise<void> {
      const what = `refund of ${paymentNo}`;
      const refundAmount = fenToYuan(amount);
      // One refund request number per refund: Alipay takes a repeat of it as the same refund, never a second one. The
      // paid-late refund of a whole payment has the payment's own; an order's refund (issue 32) brings its number.
      const outRequestNo = refund?.refundNo ?? `${paymentNo}-refund`;
      const answer = await call(
        'alipay.trade.refund',
        {
          out_trade_no: paymentNo,
          refund_amount: refundAmount,
          out_request_no: outRequestNo,
          refund_reason: (refund?.reason ?? '订单已关闭，款项原路退回').slice(0, 80),
        },
        what,
      );
      if (text(answer.code) !== '10000') throw refusal(what, answer);
      if (text(answer.out_trade_no) !== paymentNo)
        throw new PaymentProviderError(NAME, 'BAD_ANSWER', `the answer to the ${what} is about another trade`, false);
      if (text(answer.fund_change) === 'Y') return;
      // `fund_change: N`: a repeat of a refund already made, or one not settled yet; Alipay's refund query tells which.
      const check = await call('alipay.trade.fastpay.refund.query', { out_trade_no: paymentNo, out_request_no: outRequestNo }, what);
      if (text(check.code) !== '10000') throw refusal(what, check);
      if (text(check.refund_status) === 'REFUND_SUCCESS') return;
      throw new PaymentProviderError(NAME, 'REFUND_PENDING', `Alipay has not confirmed the ${what} yet; it is asked again later`, true);
    },

    answerNotification(result: NotificationResult): Response {
      // Alipay: plain `success` stops its retries; anything else (`fail`) has it send the notification again, up to 8
      // times over about 25 hours. The reason stays in our log (lib/payment/notify.ts).
      return new Response(result.ok ? 'success' : 'fail', {
        status: result.ok ? 200 : result.status,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      });
    },
  };
}
