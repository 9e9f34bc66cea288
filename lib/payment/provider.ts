import 'server-only';
import type { z } from 'zod';
import type { PayClient } from './clients';
import type { NotificationOutcome } from './schema';

/** What the storefront asks a payment provider to collect. */
export type PaymentRequest = {
  paymentNo: string;
  amount: number;
  subject: string;
  channelKey: string;
  /** Where the buyer pays from (./clients.ts); the provider picks its way of paying by it (WeChat: JSAPI or H5). */
  client: PayClient;
  /** The buyer's address as the server saw it (WeChat H5 asks for it: `scene_info.payer_client_ip`). */
  clientIp: string;
  /** Absolute URL of the page to come back to after paying (the order's pay-result page on the channel's host). */
  returnUrl: string;
  /** When the order stops taking payments: providers that can close the payment then are told. */
  expiresAt: Date;
  /** The buyer's WeChat openid for this app id (WeChat Pay JSAPI only; from the OAuth `snsapi_base` exchange). */
  openid?: string | null;
};

/**
 * WeChat's JSAPI payment sheet, to open in the page with
 * `WeixinJSBridge.invoke('getBrandWCPayRequest', params, callback)`; `paySign` is made on the server.
 */
export type JsapiPayParams = { appId: string; timeStamp: string; nonceStr: string; package: string; signType: 'RSA'; paySign: string };

/**
 * How the buyer pays once the payment is open: go to `payUrl` (our sandbox cashier, the provider's page), or, with
 * `jsapi`, open WeChat's payment sheet in the page first and then go to `payUrl` (the order's pay-result page).
 */
export type PaymentStart = { payUrl: string; jsapi?: JsapiPayParams };

/** One refund of an order at the provider (issue 32): its number, the payment's whole amount, and why (shown to the payer). */
export type RefundRequest = { refundNo: string; total: number; reason: string };

/** A provider's notification, once its signature is verified. */
export type VerifiedNotification = { paymentNo: string; providerTradeNo: string; amount: number; paid: boolean };

/** What became of a notification, for the provider's answer: applied (or a repeat), or refused with a reason. */
export type NotificationResult = { ok: true; outcome: NotificationOutcome | 'ignored' } | { ok: false; status: 400 | 500; message: string };

/**
 * A payment provider (DESIGN §7). The built-in `sandbox` (./sandbox.ts) plays one with a cashier page of ours;
 * WeChat Pay (./wechatpay.ts) and Alipay implement the same calls. Registered by name in ./providers.ts.
 */
export interface PaymentProvider {
  readonly name: string;
  /** The buyer environments this provider takes payments from (the pay page offers it there; pay/create checks it). */
  readonly clients: readonly PayClient[];
  /** Opens the payment at the provider and says how the buyer pays. Throws PaymentProviderError when the provider refuses. */
  start(request: PaymentRequest): Promise<PaymentStart>;
  /**
   * Checks the notification's signature (and freshness) and reads it; throws NotificationError when it is not genuine,
   * NotificationIgnored when it is genuine but carries nothing to apply. `now` is the clock the freshness is checked against.
   */
  verify(rawBody: string, headers: Headers, now: Date): Promise<VerifiedNotification>;
  /** The fallback when a notification is late: asks the provider how the payment stands (null: nothing known yet). */
  query(paymentNo: string): Promise<VerifiedNotification | null>;
  /**
   * Gives `amount` fen of a payment back. Without `refund`: the whole payment, under the payment's own refund number
   * (a payment that cannot be honoured: paid after its order expired). With it: one refund of an order (issue 32,
   * lib/payment/refund.ts), whole or partial, under its own number (WeChat Pay out_refund_no, Alipay out_request_no,
   * the sandbox's books), so each refund is made once however often it is asked, and two refunds of one payment are two.
   * Returns once the provider has given the money back; throws PaymentProviderError otherwise (busy: still processing).
   */
  refund(paymentNo: string, amount: number, refund?: RefundRequest): Promise<void>;
  /**
   * Closes an unpaid payment at the provider, so it can no longer be paid (a newer payment of the order replaces it,
   * issue 29). `closed`: the provider will take no money for it (or never opened it); `unopened`: the provider has no
   * such payment yet but may still open it (Alipay opens a trade only when the buyer opens its pay URL), so it can be
   * paid until its `time_expire`. Throws PaymentProviderError when the provider refuses (it was paid meanwhile, …).
   * Optional: a provider without it leaves earlier payments open, asked about once at the end.
   */
  close?(paymentNo: string): Promise<'closed' | 'unopened'>;
  /**
   * What to hand the buyer when an open payment is answered again (pay/create within its reuse window): the kept
   * answer of `start`, refreshed where it must be, with no call to the provider (WeChat Pay signs the JSAPI sheet
   * anew with the current time). The kept answer as it is when absent.
   */
  reopen?(start: PaymentStart): PaymentStart;
  /** The HTTP answer the provider expects to its notification (WeChat Pay: 204 with no body, or 4xx/5xx with FAIL; Alipay: plain `success`, else `fail`). */
  answerNotification(result: NotificationResult): Response;
}

export class NotificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotificationError';
  }
}

/**
 * A genuine notification (its signature held) that carries nothing to apply: Alipay's notice of a refund, or of a trade
 * still waiting for the buyer. Nothing changes; the provider is answered as for a handled one (`outcome: 'ignored'`),
 * or it would send the notice again for a day.
 */
export class NotificationIgnored extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotificationIgnored';
  }
}

/**
 * The provider refused a call or could not be reached. `busy`: worth trying again shortly (rate limit, the provider's
 * 5xx, the network); otherwise the provider said no for good (configuration, the payment's state).
 */
export class PaymentProviderError extends Error {
  constructor(
    readonly provider: string,
    /** The provider's own error code (`FREQUENCY_LIMITED`, `NOT_ENOUGH`, …), `HTTP_<status>`, or `NETWORK`. */
    readonly providerCode: string,
    message: string,
    readonly busy: boolean,
  ) {
    super(`${provider}: ${providerCode}: ${message}`);
    this.name = 'PaymentProviderError';
  }
}

/**
 * A notification's JSON read against its schema: the value, or a NotificationError naming `place` (`body`, `resource`)
 * and why, "place: is not valid JSON" or "place: field why; field why".
 */
export function notificationJson<T>(text: string, schema: z.ZodType<T>, place: string, notJson = 'is not valid JSON'): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new NotificationError(`${place}: ${notJson}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new NotificationError(`${place}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'} ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}
