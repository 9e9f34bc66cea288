import 'server-only';
import { z } from 'zod';
import { channelKeySchema } from '../procedure/schemas';
import { procedure, type ProcedureContext } from '../procedure/procedure';
import { ANY_ROLE } from '../procedure/roles';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import type { TimelineEvent } from '../buyer/service';
import { addToBlocklist, blockOnChannel, blocklistOf, liftFromBlocklist, unblockOnChannel, type BlocklistEntry } from '../buyer/blocklist';
import { maskPhone } from '../auth/mask';
import { normalizePhone } from '../auth/phone';
import { auditCall } from './audit';
import { lookAtBuyer, lookAtOrder, searchBuyersAndOrders, type Looker } from './buyer-views';

/**
 * The Orders tab's calls (issue 32, "Orders and buyers"): find an order by its number or a buyer by their full phone
 * or account number on the channel; a buyer's page and an order's timeline; block and unblock a buyer. Owners,
 * managers and support read on the channels they work on; owners and managers block (an owner on every channel at
 * once); support does not. The full phone only to owners (masked 138****1234 to the others). Every look at a buyer or
 * an order is in the audit trail as its own entry (who looked at whom), found or not; blocks with the state before
 * and after.
 */

const channelKey = channelKeySchema;
const accountNumber = z.string({ error: 'is required and must be a string' }).regex(/^[1-9]\d{9}$/, 'must be an account number: 10 digits');
const reason = z
  .string({ error: 'is required and must be a string' })
  .trim()
  .min(1, 'must not be empty: say why')
  .max(500, 'must be 500 characters or less');

const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/** The caller as the views see them: who looks, at which channel, from where. */
async function lookerOf(ctx: ProcedureContext): Promise<Looker> {
  const channel = await ctx.operatorChannel();
  return { db: ctx.db, operator: await ctx.operator(), channelId: channel.id, ip: ctx.ip, now: ctx.now };
}

const blockState = z.object({
  blocked: z.boolean(),
  everyChannel: z.boolean(),
  reason: z.string().nullable(),
  at: z.string().nullable(),
});

const timelineEvent = z.object({
  kind: z.enum(['created', 'paid', 'minted', 'cancelled', 'expired', 'closed', 'refund']),
  at: z.string(),
  amount: z.number().int().optional(),
  quantity: z.number().int().optional(),
  provider: z.string().optional(),
  transactionId: z.string().nullable().optional(),
  paymentNo: z.string().optional(),
  commodity: z.string().optional(),
  edition: z.number().int().optional(),
  reason: z.string().nullable().optional(),
  status: z.string().optional(),
  doneAt: z.string().nullable().optional(),
});

function timelineWire(event: TimelineEvent): z.output<typeof timelineEvent> {
  if (event.kind === 'refund') return { ...event, at: event.at.toISOString(), doneAt: isoOrNull(event.doneAt) };
  return { ...event, at: event.at.toISOString() };
}

const WRITERS = ['owner', 'manager'] as const;

/** One entry of the channel's blocklist on the wire (issue 33): masked, never an identity's hash. */
const blocklistEntry = z.object({
  id: z.number().int(),
  kind: z.enum(['buyer', 'identity', 'phone', 'cidr']),
  what: z.string(),
  everyChannel: z.boolean(),
  reason: z.string(),
  by: z.string().nullable(),
  at: z.string(),
});
const entryWire = (entry: BlocklistEntry): z.output<typeof blocklistEntry> => ({ ...entry, at: entry.at.toISOString() });

export const buyerProcedures = {
  '/ops/api/buyer/find': procedure({
    summary:
      'The search box of the Orders tab: an order number (22 digits), a buyer’s phone typed in full (11 digits) or their account number on the channel (10 digits). Answers where to go: the order or the buyer, or null when the channel has none. Audited (a search by phone is a look at personal data).',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input', writes: 'event' },
    input: z.object({ channel: channelKey, query: z.string({ error: 'is required and must be a string' }).trim().max(40) }),
    output: z.object({ kind: z.enum(['order', 'buyer']), orderNo: z.string().optional(), accountNumber: z.string().optional() }).nullable(),
    handler: async (ctx, input) => {
      return searchBuyersAndOrders(await lookerOf(ctx), input.channel, input.query);
    },
  }),
  '/ops/api/buyer/view': procedure({
    summary:
      'A buyer of the channel by account number: phone (masked 138****1234 for managers and support, in full for owners), first and last login on this channel, collectibles held here, their newest orders here, whether they are blocked, and the agreement versions they accepted here with when. 404 when the channel has no such account number. Audited.',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input', writes: 'event' },
    input: z.object({ channel: channelKey, accountNumber }),
    output: z.object({
      accountNumber: z.string(),
      phone: z.string(),
      phoneMasked: z.boolean(),
      firstLoginAt: z.string().nullable(),
      lastLoginAt: z.string().nullable(),
      holdings: z.number().int(),
      orders: z.array(
        z.object({ orderNo: z.string(), state: z.string(), amount: z.number().int(), quantity: z.number().int(), createdAt: z.string() }),
      ),
      block: blockState,
      /** issue 33: the buyer's real-name verification, masked only; null: not verified. */
      identity: z.object({ maskedName: z.string(), maskedIdNumber: z.string(), verifiedAt: z.string() }).nullable(),
      /** The agreement versions the buyer accepted on this channel, and when, oldest first (issue 33). */
      agreements: z.array(z.object({ agreement: z.string(), version: z.string(), acceptedAt: z.string() })),
    }),
    handler: async (ctx, input) => {
      const view = await lookAtBuyer(await lookerOf(ctx), input.channel, input.accountNumber);
      if (!view) throw new AppError(404, msg('opsBuyerNotFound'));
      return {
        accountNumber: view.accountNumber,
        phone: view.phone,
        phoneMasked: view.phoneMasked,
        firstLoginAt: isoOrNull(view.firstLoginAt),
        lastLoginAt: isoOrNull(view.lastLoginAt),
        holdings: view.holdings,
        orders: view.orders.map((o) => ({ ...o, createdAt: o.createdAt.toISOString() })),
        block: view.block
          ? { blocked: true, everyChannel: view.block.everyChannel, reason: view.block.reason, at: view.block.blockedAt.toISOString() }
          : { blocked: false, everyChannel: false, reason: null, at: null },
        identity: view.identity && { ...view.identity, verifiedAt: view.identity.verifiedAt.toISOString() },
        agreements: view.agreements.map((a) => ({ ...a, acceptedAt: a.acceptedAt.toISOString() })),
      };
    },
  }),
  '/ops/api/buyer/order': procedure({
    summary:
      'An order of the channel by its number, with its buyer (account number, phone masked but for owners) and its timeline: created, paid (provider, its transaction id), editions minted, cancelled or expired (why), refunds. 404 when the channel has no such order. Audited.',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input', writes: 'event' },
    input: z.object({ channel: channelKey, orderNo: z.string({ error: 'is required and must be a string' }).max(40) }),
    output: z.object({
      orderNo: z.string(),
      state: z.string(),
      accountNumber: z.string(),
      phone: z.string(),
      phoneMasked: z.boolean(),
      quantity: z.number().int(),
      price: z.number().int(),
      amount: z.number().int(),
      timeline: z.array(timelineEvent),
    }),
    handler: async (ctx, input) => {
      const page = await lookAtOrder(await lookerOf(ctx), input.channel, input.orderNo);
      if (!page) throw new AppError(404, msg('opsOrderNotFound'));
      const { userId: _internal, timeline, ...rest } = page;
      void _internal; // the internal id never leaves the server
      return { ...rest, timeline: timeline.map(timelineWire) };
    },
  }),
  '/ops/api/buyer/block': procedure({
    summary:
      'Blocks a buyer on the channel, with a reason: they cannot log in or buy there, and their live sessions there end at once. `everyChannel` (owners only; 403 otherwise) blocks them on every channel. Answers the block state after and how many sessions ended.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, accountNumber, reason, everyChannel: z.boolean().default(false) }),
    output: blockState.extend({ sessionsEnded: z.number().int() }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const by = await ctx.operator();
      if (input.everyChannel && by.role !== 'owner') throw new AppError(403, msg('opsBlockEveryChannelOwnersOnly'));
      const audit = auditCall(ctx, '/ops/api/buyer/block', input);
      return blockOnChannel(ctx.db, { channelId: channel.id, ...input, operatorId: by.operatorId, now: ctx.now }, audit);
    },
  }),
  '/ops/api/buyer/unblock': procedure({
    summary:
      'Lifts a buyer’s block on the channel, with a reason; `everyChannel` (owners only) lifts an every-channel block too. 409 when they are not blocked here.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, accountNumber, reason, everyChannel: z.boolean().default(false) }),
    output: blockState,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const by = await ctx.operator();
      if (input.everyChannel && by.role !== 'owner') throw new AppError(403, msg('opsBlockEveryChannelOwnersOnly'));
      const audit = auditCall(ctx, '/ops/api/buyer/unblock', input);
      return unblockOnChannel(ctx.db, { channelId: channel.id, ...input, operatorId: by.operatorId, now: ctx.now }, audit);
    },
  }),
  '/ops/api/blocklist/list': procedure({
    summary:
      'The channel’s live blocks of every kind (issue 33): a buyer, an identity (every account verified with it), a phone number, an address range; its own and the every-channel ones, newest first. Phones and identities masked (138****1234, 张* 1101**********1234).',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKey }),
    output: z.object({ items: z.array(blocklistEntry) }),
    handler: async (ctx) => {
      const channel = await ctx.operatorChannel();
      return { items: (await blocklistOf(ctx.db, channel.id)).map(entryWire) };
    },
  }),
  '/ops/api/blocklist/add': procedure({
    summary:
      'Adds to the channel’s blocklist, with a reason (issue 33): `phone` (a mainland mobile number in `value`), `cidr` (an IPv4 range /16 or narrower, an IPv6 range /32 or narrower, in `value`; 400 naming `value` when wider) or `identity` (the identity the buyer with `accountNumber` verified with: every account verified with it; 409 when they have not verified). A blocked phone, identity or address cannot get a login code, log in or order here; the sessions of a blocked phone’s or identity’s accounts end. `everyChannel` owners only.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'creates' },
    input: z.object({
      channel: channelKey,
      kind: z.enum(['identity', 'phone', 'cidr'], { error: 'must be identity, phone or cidr' }),
      value: z.string({ error: 'must be a string' }).max(64, 'must be 64 characters or less').optional(),
      accountNumber: accountNumber.optional(),
      reason,
      everyChannel: z.boolean().default(false),
    }),
    output: blocklistEntry.extend({ sessionsEnded: z.number().int() }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const by = await ctx.operator();
      if (input.everyChannel && by.role !== 'owner') throw new AppError(403, msg('opsBlockEveryChannelOwnersOnly'));
      // The trail keeps a typed phone masked, as every look at a buyer does.
      const audited = input.kind === 'phone' && input.value ? { ...input, value: maskPhone(normalizePhone(input.value.trim())) } : input;
      const audit = auditCall(ctx, '/ops/api/blocklist/add', audited);
      const made = await addToBlocklist(ctx.db, { channelId: channel.id, ...input, operatorId: by.operatorId, now: ctx.now }, audit);
      return { ...entryWire(made), sessionsEnded: made.sessionsEnded };
    },
  }),
  '/ops/api/blocklist/lift': procedure({
    summary:
      'Lifts one live block of the channel’s blocklist (any kind) by its id, with a reason (issue 33). An every-channel block: owners only (403). 404 when the channel has no such live block.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, id: z.number({ error: 'must be a number' }).int().positive(), reason }),
    output: blocklistEntry,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const by = await ctx.operator();
      const audit = auditCall(ctx, '/ops/api/blocklist/lift', input);
      const lifted = await liftFromBlocklist(
        ctx.db,
        {
          channelId: channel.id,
          id: input.id,
          reason: input.reason,
          operatorId: by.operatorId,
          mayLiftEveryChannel: by.role === 'owner',
          now: ctx.now,
        },
        audit,
      );
      return entryWire(lifted);
    },
  }),
};
