import 'server-only';
import { z } from 'zod';
import { procedure, userScope } from '../procedure/procedure';
import { orderNoSchema } from '../procedure/schemas';
import { AppError } from '../procedure/errors';
import { env } from '../env';
import { getOrder } from '../order/service';
import { paymentProvider, queryPayment, receiveNotification, sandboxPaymentInfo, startPayment } from './service';
import { SANDBOX_SIGNATURE_HEADER } from './sandbox';
import { orderViewSchema } from '../order/schema';
import { sandboxCompleteSchema, sandboxPaymentSchema, startedPaymentSchema } from './schema';
import { msg } from '../procedure/messages';

const paymentNoSchema = z.string({ error: 'is required and must be a string' }).regex(/^P\d{21}$/, 'is not a payment number');

/**
 * Paying (DESIGN §7): a payment for an unpaid order through the configured provider, the fallback query, and the
 * sandbox cashier's calls. Every call needs the buyer's session. Payloads in docs/api.md.
 */
export const paymentProcedures = {
  '/market/api/pay/create': procedure({
    summary: 'Opens a payment for an unpaid order and answers where to pay (payUrl).',
    auth: 'buyer',
    input: z.object({ orderNo: orderNoSchema }),
    output: startedPaymentSchema,
    handler: async (ctx, input) =>
      startPayment({ ...(await userScope(ctx)), channelKey: ctx.channelKey, provider: paymentProvider(ctx.db) }, input.orderNo),
  }),
  '/market/api/pay/query': procedure({
    summary: 'The order as it stands after asking the provider about its open payments (the fallback for a late notification).',
    auth: 'buyer',
    input: z.object({ orderNo: orderNoSchema }),
    output: orderViewSchema,
    handler: async (ctx, input) => queryPayment({ ...(await userScope(ctx)), provider: paymentProvider(ctx.db) }, input.orderNo),
  }),
  '/market/api/pay/sandbox/detail': procedure({
    summary: 'Sandbox cashier: the payment to show (amount, what is bought, status). Only with PAYMENT_PROVIDER=sandbox.',
    auth: 'buyer',
    input: z.object({ paymentNo: paymentNoSchema }),
    output: sandboxPaymentSchema,
    handler: async (ctx, input) => {
      requireSandbox();
      return sandboxPaymentInfo(await userScope(ctx), input.paymentNo);
    },
  }),
  '/market/api/pay/sandbox/complete': procedure({
    summary: "Sandbox cashier's buttons: records pay or fail as the provider would and delivers its signed notification.",
    auth: 'buyer',
    input: z.object({ paymentNo: paymentNoSchema, outcome: z.enum(['paid', 'failed'], { error: "must be 'paid' or 'failed'" }) }),
    output: sandboxCompleteSchema,
    handler: async (ctx, input) => {
      requireSandbox();
      const scope = await userScope(ctx);
      const info = await sandboxPaymentInfo(scope, input.paymentNo);
      const provider = paymentProvider(ctx.db);
      const { body, signature } = await provider.settle({
        paymentNo: input.paymentNo,
        amount: info.amount,
        outcome: input.outcome,
        now: ctx.now,
      });
      // Delivered the way a provider's server delivers it: the same verification as /api/pay/notify/sandbox.
      const outcome = await receiveNotification(ctx.db, provider, body, new Headers({ [SANDBOX_SIGNATURE_HEADER]: signature }), ctx.now);
      return { outcome, order: await getOrder(scope, info.order.orderNo) };
    },
  }),
};

function requireSandbox(): void {
  if (env().PAYMENT_PROVIDER !== 'sandbox') throw new AppError(404, msg('sandboxOff'));
}
