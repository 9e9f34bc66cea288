import 'server-only';
import { z } from 'zod';
import { channelKeySchema } from '../procedure/schemas';
import { procedure } from '../procedure/procedure';
import { ANY_ROLE } from '../procedure/roles';
import { configuredProviders } from '../payment/providers';
import { refundOrder, refundPreview, type RefundRecord } from '../payment/refund';
import { outboxSender } from '../auth/sms-outbox';
import { cancelProgress, cancelSale } from '../payment/sale-cancel';
import { auditCall } from './audit';

/**
 * Refunds and cancelling a sale (issue 32, "Orders and buyers": refunds; "Sales": drop-day controls). The services are
 * lib/payment/refund.ts and lib/payment/sale-cancel.ts; here only who may call them and the wire's shape. Refunds:
 * owners and support (managers read orders, never refund); cancelling a sale: owners and managers. Every write is in
 * the audit trail in its own transaction; an order or sale of another channel than the one named answers 404.
 */

const channelKey = channelKeySchema;
const orderNo = z
  .string({ error: 'is required and must be a string' })
  .min(1, 'must not be empty')
  .max(64, 'must be 64 characters or less')
  .regex(/^[A-Za-z0-9-]+$/, 'must be an order number: letters and digits');
// Ids are PostgreSQL integers: a number past them is no id we issue (a 400 naming the field, not the database's error).
const id = z
  .number({ error: 'is required and must be a number' })
  .int('must be a whole number')
  .positive('must be positive')
  .max(2_147_483_647, 'is not an id we issue');

const refundView = z.object({
  refundNo: z.string(),
  quantity: z.number(),
  amount: z.number(),
  reason: z.string(),
  status: z.enum(['owed', 'done']),
  createdAt: z.string(),
  doneAt: z.string().nullable(),
  numbers: z.array(z.number()),
  byOperator: z.boolean(),
});

const wireOf = (r: RefundRecord): z.output<typeof refundView> => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  doneAt: r.doneAt?.toISOString() ?? null,
});

const REFUNDERS = ['owner', 'support'] as const;
const CANCELLERS = ['owner', 'manager'] as const;

export const refundProcedures = {
  '/ops/api/refund/preview': procedure({
    summary:
      "An order's refund panel: its state, what was paid and refunded so far, each copy with whether it can be refunded and why not (refunded, destroyed in an exchange, no longer held by the buyer, an opened blind box's prize gone), and the order's refunds.",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKey, orderNo }),
    output: z.object({
      orderNo: z.string(),
      state: z.enum(['toPay', 'paid', 'cancelled', 'expired', 'closed']),
      commodityName: z.string(),
      price: z.number(),
      paid: z.number(),
      refunded: z.number(),
      copies: z.array(
        z.object({
          holdingId: z.number(),
          number: z.number(),
          refundable: z.boolean(),
          why: z.enum(['refunded', 'destroyed', 'givenAway', 'prizeGone']).nullable(),
          prize: z.object({ holdingId: z.number(), number: z.number(), name: z.string() }).nullable(),
        }),
      ),
      refunds: z.array(refundView),
    }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const preview = await refundPreview(ctx.db, channel.id, input.orderNo);
      return { ...preview, refunds: preview.refunds.map(wireOf) };
    },
  }),
  '/ops/api/refund/create': procedure({
    summary:
      'Refunds a paid order, whole (no holdingIds) or the copies named, with a reason: the copies are taken back from the buyer (gone from their collection), the money goes back through the payment’s provider under a refund number of its own, and the buyer gets a text. The same idempotencyKey answers the same refund (a double-click is one refund). Refused, nothing changed: an order not paid, a copy that cannot be taken back (named, with why), more than was paid in total.',
    auth: 'operator',
    operator: { roles: REFUNDERS, channel: 'input', writes: 'creates' },
    input: z.object({
      channel: channelKey,
      orderNo,
      holdingIds: z.array(id).min(1, 'must name at least one copy').max(500, 'must name 500 copies or fewer').optional(),
      reason: z
        .string({ error: 'is required and must be a string' })
        .trim()
        .min(1, 'must not be empty')
        .max(200, 'must be 200 characters or less'),
      idempotencyKey: z
        .string({ error: 'is required and must be a string' })
        .min(8, 'must be at least 8 characters long')
        .max(64, 'must be 64 characters or less'),
    }),
    output: z.object({ refund: refundView, replayed: z.boolean() }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const by = await ctx.operator();
      const made = await refundOrder(
        ctx.db,
        {
          channelId: channel.id,
          orderNo: input.orderNo,
          holdingIds: input.holdingIds ?? 'all',
          reason: input.reason,
          idempotencyKey: input.idempotencyKey,
          operatorId: by.operatorId,
          now: ctx.now,
        },
        { providers: configuredProviders(ctx.db), audit: auditCall(ctx, '/ops/api/refund/create', input), texts: outboxSender() },
      );
      return { refund: wireOf(made.refund), replayed: made.replayed };
    },
  }),
  '/ops/api/refund/cancelSale': procedure({
    summary:
      'Cancels a sale on drop day: it takes no more orders at once and shows as cancelled on the store; its unpaid orders are cancelled and every paid order is refunded whole in the background, one at a time (see refund/cancelProgress). Refused when already cancelled.',
    auth: 'operator',
    operator: { roles: CANCELLERS, channel: 'input', reauth: true, writes: 'changes' },
    input: z.object({ channel: channelKey, saleId: id }),
    output: z.object({ cancelledAt: z.string() }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const done = await cancelSale(
        ctx.db,
        { channelId: channel.id, saleId: input.saleId, now: ctx.now },
        auditCall(ctx, '/ops/api/refund/cancelSale', input),
      );
      return { cancelledAt: done.cancelledAt.toISOString() };
    },
  }),
  '/ops/api/refund/cancelProgress': procedure({
    summary:
      "A cancelled sale's refunds: paid orders refunded out of all, refunds the provider has not confirmed yet, unpaid orders left, and the orders that could not be refunded with why.",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKey, saleId: id }),
    output: z.object({
      cancelled: z.boolean(),
      cancelledAt: z.string().nullable(),
      paidOrders: z.number(),
      refunded: z.number(),
      owed: z.number(),
      unpaidLeft: z.number(),
      failures: z.array(z.object({ orderNo: z.string(), why: z.string() })),
      finished: z.boolean(),
    }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const progress = await cancelProgress(ctx.db, channel.id, input.saleId);
      return { ...progress, cancelledAt: progress.cancelledAt?.toISOString() ?? null };
    },
  }),
};
