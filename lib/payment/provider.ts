import 'server-only';

/** What the storefront asks a payment provider to collect. */
export type PaymentRequest = { paymentNo: string; amount: number; subject: string; channelKey: string };

/** A provider's notification, once its signature is verified. */
export type VerifiedNotification = { paymentNo: string; providerTradeNo: string; amount: number; paid: boolean };

/**
 * A payment provider (DESIGN §7). The built-in `sandbox` (./sandbox.ts) plays one with a cashier page of ours;
 * WeChat Pay or Alipay implement the same four calls.
 */
export interface PaymentProvider {
  readonly name: string;
  /** Where to send the buyer to pay (a site path or the provider's URL). */
  start(request: PaymentRequest): Promise<{ payUrl: string }>;
  /** Checks the notification's signature and reads it; throws NotificationError when it is not genuine. */
  verify(rawBody: string, headers: Headers): VerifiedNotification;
  /** The fallback when a notification is late: asks the provider how the payment stands. */
  query(paymentNo: string): Promise<VerifiedNotification | null>;
  /** Gives the money back for a payment that cannot be honoured (paid after its order expired). */
  refund(paymentNo: string, amount: number): Promise<void>;
}

export class NotificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotificationError';
  }
}
