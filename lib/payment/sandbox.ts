import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { payments, sandboxRefunds, sandboxTransactions } from '../db/schema';
import { hmac, randomDigits, sameDigest } from '../security/crypto';
import { PAY_CLIENTS } from './clients';
import {
  NotificationError,
  notificationJson,
  PaymentProviderError,
  type NotificationResult,
  type PaymentProvider,
  type PaymentRequest,
  type RefundRequest,
  type VerifiedNotification,
} from './provider';

/** Header that carries the notification's HMAC-SHA-256 (hex) over the raw body. */
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

const notificationSchema = z.object({
  paymentNo: z.string().min(1).max(64),
  tradeNo: z.string().min(1).max(64),
  amount: z.number().int().min(0),
  status: z.enum(['SUCCESS', 'FAILED']),
});
export type SandboxNotification = z.infer<typeof notificationSchema>;

/** Signs a notification body as the sandbox does; tests use it to forge good and bad ones. */
export function signSandboxBody(secret: string, body: string): string {
  return hmac(secret, body);
}

/**
 * The `sandbox` payment provider (DESIGN §7): a cashier page of ours plays the provider's. When the buyer taps pay or
 * fail there, the sandbox records the outcome in its own books (`sandbox_transactions`) and posts a signed
 * notification, exactly as a provider's server would. No money moves; production refuses this provider.
 */
export function sandboxProvider(
  db: Db,
  secret: string,
): PaymentProvider & {
  /** The cashier's buttons: record the outcome and build the signed notification to deliver. */
  settle(request: {
    paymentNo: string;
    amount: number;
    outcome: 'paid' | 'failed';
    now: Date;
  }): Promise<{ body: string; signature: string }>;
} {
  return {
    name: 'sandbox',
    // Our own cashier page: it works wherever the storefront does.
    clients: PAY_CLIENTS,
    async start(request: PaymentRequest) {
      return { payUrl: `/sandbox/cashier/${encodeURIComponent(request.paymentNo)}` };
    },
    async verify(rawBody: string, headers: Headers): Promise<VerifiedNotification> {
      const signature = headers.get(SANDBOX_SIGNATURE_HEADER) ?? '';
      if (!/^[0-9a-f]{64}$/.test(signature) || !sameDigest(signature, signSandboxBody(secret, rawBody))) {
        throw new NotificationError(`${SANDBOX_SIGNATURE_HEADER}: the signature does not match the body`);
      }
      const n = notificationJson(rawBody, notificationSchema, 'body');
      return { paymentNo: n.paymentNo, providerTradeNo: n.tradeNo, amount: n.amount, paid: n.status === 'SUCCESS' };
    },
    async query(paymentNo: string) {
      const [row] = await db.select().from(sandboxTransactions).where(eq(sandboxTransactions.paymentNo, paymentNo)).limit(1);
      if (!row || row.status === 'REFUNDED') return null;
      return { paymentNo, providerTradeNo: row.tradeNo, amount: row.amount, paid: row.status === 'SUCCESS' };
    },
    answerNotification(result: NotificationResult): Response {
      return result.ok
        ? Response.json({ ok: true, outcome: result.outcome })
        : Response.json({ ok: false, message: result.message }, { status: result.status });
    },
    async close(paymentNo: string) {
      // Marked in the sandbox's books, where the first outcome stands: a closed payment cannot be paid at its cashier.
      const [payment] = await db.select({ amount: payments.amount }).from(payments).where(eq(payments.paymentNo, paymentNo)).limit(1);
      await db
        .insert(sandboxTransactions)
        .values({ paymentNo, tradeNo: `SBX-CLOSED-${paymentNo}`, amount: payment?.amount ?? 0, status: 'CLOSED', createdAt: new Date() })
        .onConflictDoNothing();
      const [row] = await db.select().from(sandboxTransactions).where(eq(sandboxTransactions.paymentNo, paymentNo)).limit(1);
      if (row?.status === 'CLOSED' || row?.status === 'FAILED') return 'closed' as const;
      throw new PaymentProviderError('sandbox', 'TRADE_PAID', `payment ${paymentNo} was paid at the cashier; it cannot be closed`, false);
    },
    async refund(paymentNo: string, amount: number, refund?: RefundRequest) {
      if (!refund) {
        await db.update(sandboxTransactions).set({ status: 'REFUNDED' }).where(eq(sandboxTransactions.paymentNo, paymentNo));
        return;
      }
      // One refund per refund number, as at a real provider: asked again, it is the same refund (issue 32).
      await db.insert(sandboxRefunds).values({ refundNo: refund.refundNo, paymentNo, amount, createdAt: new Date() }).onConflictDoNothing();
    },
    async settle({ paymentNo, amount, outcome, now }) {
      const status = outcome === 'paid' ? 'SUCCESS' : 'FAILED';
      const tradeNo = `SBX${now.getTime()}${randomDigits(6)}`;
      // The first outcome stands, as at a real cashier: a second tap re-sends the same notification.
      await db.insert(sandboxTransactions).values({ paymentNo, tradeNo, amount, status, createdAt: now }).onConflictDoNothing();
      const [row] = await db.select().from(sandboxTransactions).where(eq(sandboxTransactions.paymentNo, paymentNo)).limit(1);
      const body = JSON.stringify({
        paymentNo,
        tradeNo: row!.tradeNo,
        amount: row!.amount,
        status: row!.status === 'SUCCESS' ? 'SUCCESS' : 'FAILED',
      } satisfies SandboxNotification);
      return { body, signature: signSandboxBody(secret, body) };
    },
  };
}
