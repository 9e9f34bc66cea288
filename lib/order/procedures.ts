import 'server-only';
import { z } from 'zod';
import { procedure, type ProcedureContext } from '../api/procedure';
import { pagingSchema } from '../api/paging';
import { env } from '../env';
import { cancelOrder, createOrder, getOrder, listOrders, type OrderCtx } from './service';
import { paymentProvider, queryPayment, receiveNotification, sandboxPaymentInfo, startPayment } from '../payment/service';
import { SANDBOX_SIGNATURE_HEADER } from '../payment/sandbox';
import { listCollection, listUnopenedBoxes, openBox } from '../collection/service';
import { listBlindBoxSales } from '../sale/service';
import { AppError } from '../api/errors';

const orderNoSchema = z.string({ error: 'is required and must be a string' }).regex(/^\d{22}$/, 'is not an order number');
const paymentNoSchema = z.string({ error: 'is required and must be a string' }).regex(/^P\d{21}$/, 'is not a payment number');
const idSchema = z
  .union([z.string(), z.number()], { error: 'must be a string id' })
  .transform((v) => String(v))
  .pipe(z.string().regex(/^[1-9]\d{0,9}$/, 'must be a positive whole-number id'))
  .transform(Number)
  .refine((n) => n <= 2_147_483_647, 'is not an id we issue');

async function orderCtx(ctx: ProcedureContext): Promise<OrderCtx> {
  const [channel, user] = await Promise.all([ctx.channel(), ctx.user()]);
  return { db: ctx.db, now: ctx.now, channelId: channel.id, userId: user.id };
}

/**
 * Buying (the issue on buying; DESIGN §7): orders, payment through the provider, the sandbox cashier, the
 * collection and blind boxes. Every call needs the buyer's session and touches only the buyer's own objects on the
 * host's channel. Payloads in docs/api.md.
 */
export const buyingProcedures = {
  '/market/api/order/create': procedure({
    summary: 'Buys: reserves copies of a sale for the buyer and creates an unpaid order. The same idempotencyKey returns the same order.',
    shed: true,
    auth: 'buyer',
    input: z.object({
      saleId: idSchema,
      quantity: z.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be 1 or more').max(100, 'must be 100 or less').default(1),
      idempotencyKey: z
        .string({ error: 'is required: a fresh random string per buy tap, reused when the tap is retried' })
        .regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8 to 64 letters, digits, - or _'),
    }),
    handler: async (ctx, input) => createOrder(await orderCtx(ctx), input, env().ORDER_PAY_TIMEOUT_SECONDS * 1000),
  }),
  '/market/api/order/list': procedure({
    summary: "The buyer's orders on this channel, newest first, paged; statusTrade filters (0 to pay, 1 paid, 2 cancelled, 3 closed).",
    auth: 'buyer',
    input: pagingSchema.extend({ statusTrade: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { error: 'must be 0, 1, 2 or 3' }).optional() }),
    handler: async (ctx, input) => listOrders(await orderCtx(ctx), input),
  }),
  '/market/api/order/detail': procedure({
    summary: "One of the buyer's orders, with the edition numbers it minted.",
    auth: 'buyer',
    input: z.object({ orderNo: orderNoSchema }),
    handler: async (ctx, input) => getOrder(await orderCtx(ctx), input.orderNo),
  }),
  '/market/api/order/cancel': procedure({
    summary: "Cancels one of the buyer's unpaid orders; its copies go back on sale.",
    auth: 'buyer',
    input: z.object({ orderNo: orderNoSchema }),
    handler: async (ctx, input) => cancelOrder(await orderCtx(ctx), input.orderNo),
  }),
  '/market/api/pay/create': procedure({
    summary: 'Opens a payment for an unpaid order and answers where to pay (payUrl).',
    auth: 'buyer',
    input: z.object({ orderNo: orderNoSchema }),
    handler: async (ctx, input) => startPayment({ ...(await orderCtx(ctx)), channelKey: ctx.channelKey, provider: paymentProvider(ctx.db) }, input.orderNo),
  }),
  '/market/api/pay/query': procedure({
    summary: "The order as it stands after asking the provider about its open payments (the fallback for a late notification).",
    auth: 'buyer',
    input: z.object({ orderNo: orderNoSchema }),
    handler: async (ctx, input) => queryPayment({ ...(await orderCtx(ctx)), provider: paymentProvider(ctx.db) }, input.orderNo),
  }),
  '/market/api/pay/sandbox/detail': procedure({
    summary: 'Sandbox cashier: the payment to show (amount, what is bought, status). Only with PAYMENT_PROVIDER=sandbox.',
    auth: 'buyer',
    input: z.object({ paymentNo: paymentNoSchema }),
    handler: async (ctx, input) => {
      requireSandbox();
      return sandboxPaymentInfo(await orderCtx(ctx), input.paymentNo);
    },
  }),
  '/market/api/pay/sandbox/complete': procedure({
    summary: "Sandbox cashier's buttons: records pay or fail as the provider would and delivers its signed notification.",
    auth: 'buyer',
    input: z.object({ paymentNo: paymentNoSchema, outcome: z.enum(['paid', 'failed'], { error: "must be 'paid' or 'failed'" }) }),
    handler: async (ctx, input) => {
      requireSandbox();
      const octx = await orderCtx(ctx);
      const info = await sandboxPaymentInfo(octx, input.paymentNo);
      const provider = paymentProvider(ctx.db);
      const { body, signature } = await provider.settle({ paymentNo: input.paymentNo, amount: info.amount, outcome: input.outcome, now: ctx.now });
      // Delivered the way a provider's server delivers it: the same verification as /api/pay/notify/sandbox.
      const outcome = await receiveNotification(ctx.db, provider, body, new Headers({ [SANDBOX_SIGNATURE_HEADER]: signature }), ctx.now);
      return { outcome, order: await getOrder(octx, info.order.orderNo) };
    },
  }),
  '/market/api/channel/queryTreasureSku': procedure({
    summary: "My collection: the buyer's collectibles on this channel with edition numbers and chain status, paged.",
    auth: 'buyer',
    input: pagingSchema,
    handler: async (ctx, input) => listCollection(await orderCtx(ctx), input),
  }),
  '/market/api/channel/queryBox': procedure({
    summary: "The channel's blind-box sales with their odds, and the buyer's unopened boxes.",
    auth: 'buyer',
    input: z.object({}),
    handler: async (ctx) => {
      const octx = await orderCtx(ctx);
      const [sales, boxes] = await Promise.all([listBlindBoxSales(octx.channelId, { db: ctx.db, now: ctx.now }), listUnopenedBoxes(octx)]);
      return { sales, boxes };
    },
  }),
  '/market/api/box/open': procedure({
    summary: "Opens one of the buyer's blind boxes: draws a prize by the published weights and mints it.",
    auth: 'buyer',
    input: z.object({ id: idSchema }),
    handler: async (ctx, input) => openBox(await orderCtx(ctx), input.id),
  }),
};

function requireSandbox(): void {
  if (env().PAYMENT_PROVIDER !== 'sandbox') throw new AppError(404, 'the sandbox cashier is off: payments go through the configured provider');
}
