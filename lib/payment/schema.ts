import { z } from 'zod';
import { orderViewSchema } from '../order/schema';

/** Paying as it travels in the API's JSON (docs/api.md "Buying"). No server-only imports: the browser reads these too. */

/** WeChat Pay JSAPI: the payment sheet's parameters for `WeixinJSBridge.invoke('getBrandWCPayRequest', …)`. */
export const jsapiPayParamsSchema = z.object({
  appId: z.string(),
  timeStamp: z.string(),
  nonceStr: z.string(),
  package: z.string(),
  signType: z.literal('RSA'),
  paySign: z.string(),
});

/**
 * pay/create: where to pay. `payUrl`: go there (the sandbox cashier, WeChat Pay's H5 page); with `jsapi`, open WeChat's
 * payment sheet first, then go to `payUrl` (the order's pay-result page).
 */
export const startedPaymentSchema = z.object({
  paymentNo: z.string(),
  /** The provider that takes this payment (`sandbox`, `wechatpay`, …). */
  provider: z.string(),
  payUrl: z.string(),
  jsapi: jsapiPayParamsSchema.optional(),
  orderNo: z.string(),
  amount: z.number().int(),
  expireTime: z.string(),
});
export type StartedPayment = z.infer<typeof startedPaymentSchema>;

/** What a provider's notification did: paid, failed, already seen, or refunded (paid after the order closed). */
export const NOTIFICATION_OUTCOMES = ['paid', 'failed', 'duplicate', 'refunded'] as const;
export const notificationOutcomeSchema = z.enum(NOTIFICATION_OUTCOMES);
export type NotificationOutcome = z.infer<typeof notificationOutcomeSchema>;

/** A payment's status as the sandbox cashier shows it. */
export const PAYMENT_STATUSES = ['created', 'paid', 'failed', 'refunded', 'refunding'] as const;

/** pay/sandbox/detail: the payment to show. */
export const sandboxPaymentSchema = z.object({
  paymentNo: z.string(),
  amount: z.number().int(),
  status: z.enum(PAYMENT_STATUSES),
  order: orderViewSchema,
});

/** pay/sandbox/complete: what the notification did, and the order after it. */
export const sandboxCompleteSchema = z.object({ outcome: notificationOutcomeSchema, order: orderViewSchema });
