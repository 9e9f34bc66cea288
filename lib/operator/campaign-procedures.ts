import 'server-only';
import { z } from 'zod';
import { channelKeySchema } from '../procedure/schemas';
import { procedure, type ProcedureContext } from '../procedure/procedure';
import { ANY_ROLE } from '../procedure/roles';
import { env } from '../env';
import {
  campaignRecord,
  createCampaign,
  endCampaignNow,
  createOffer,
  listCampaignRecords,
  listOffers,
  updateCampaign,
  updateOffer,
  type CampaignAudit,
} from '../campaign/manage';
import {
  batchSealKey,
  batchUsage,
  BATCH_LIMITS,
  exportBatch,
  generateBatch,
  importBatch,
  listBatches,
  revokeBatch,
  revokeCode,
} from '../redeem-code/batches';
import { addChainCodes, createChainCampaign, endChainCampaignNow, listChainCampaigns, updateChainCampaign } from '../chain/manage';
import { auditCall } from './audit';

/**
 * The Campaigns tab's calls (issue 32, "Campaigns"; docs/operators.md, "Campaigns and codes"): gift campaigns (for
 * holders, by redeem code, welcome gifts), exchange recipes, chain-up campaigns and their codes, and redeem-code batches
 * (generate, import, export once, revoke a batch or a code, usage). Owners, and managers on the channels granted;
 * support reads. Every write is one audit entry with the record before and after in the write's transaction; a batch's
 * entry names its size, never its codes (the trail also redacts every field named like a code). The business rules
 * live in lib/campaign/manage.ts, lib/redeem-code/batches.ts and lib/chain/manage.ts.
 */

const WRITERS = ['owner', 'manager'] as const;

const channelKey = channelKeySchema;
// Ids are PostgreSQL integers: a number past them is no id we issue (a 400 naming the field, not the database's error).
const id = z
  .number({ error: 'is required and must be a number' })
  .int('must be a whole number')
  .positive('must be positive')
  .max(2_147_483_647, 'is not an id we issue');
const text = (max: number) => z.string({ error: 'is required and must be a string' }).trim().max(max, `must be ${max} characters or less`);
const moment = z.iso.datetime({ offset: true, error: 'must be a date and time with its offset, e.g. 2026-12-01T20:00:00+08:00' });
const count = (max: number) =>
  z
    .number({ error: 'is required and must be a number' })
    .int('must be a whole number')
    .min(0, 'must not be negative')
    .max(max, `must be ${max} or less`);
const positive = (max: number) => count(max).min(1, 'must be at least 1');

const campaignFields = {
  code: text(64).min(1, 'must not be empty'),
  name: text(100).min(1, 'must not be empty'),
  description: text(2000).default(''),
  cover: text(500).default(''),
  startTime: moment,
  endTime: moment.nullable(),
  sort: count(1_000_000).default(0),
};
const fieldsOf = (input: {
  code: string;
  name: string;
  description: string;
  cover: string;
  startTime: string;
  endTime: string | null;
  sort: number;
}) => ({ ...input, startTime: new Date(input.startTime), endTime: input.endTime ? new Date(input.endTime) : null });

const campaignView = z.object({
  id: z.number(),
  kind: z.enum(['gift', 'exchange']),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  cover: z.string(),
  startTime: z.string(),
  endTime: z.string().nullable(),
  sort: z.number(),
  taken: z.number(),
});
const offerView = z.object({
  id: z.number(),
  campaignId: z.number(),
  kind: z.enum(['holders', 'code', 'welcome', 'recipe']),
  commodityId: z.number(),
  total: z.number(),
  remaining: z.number(),
  taken: z.number(),
  limitPerUser: z.number(),
  requiresCommodityId: z.number().nullable(),
  requiresCode: z.boolean(),
  inputs: z.array(z.object({ commodityId: z.number(), quantity: z.number() })),
  sort: z.number(),
});
const batchView = z.object({
  id: z.number(),
  offerId: z.number(),
  size: z.number(),
  source: z.enum(['generated', 'imported']),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string(),
  exportable: z.boolean(),
  exportedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  used: z.number(),
  revokedCodes: z.number(),
});
const codeView = z.object({
  id: z.number(),
  batchId: z.number().nullable(),
  usedAt: z.string().nullable(),
  usedBy: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
const chainView = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  cover: z.string(),
  commodityId: z.number(),
  authorStageName: z.string(),
  startTime: z.string(),
  endTime: z.string().nullable(),
  sort: z.number(),
  codes: z.array(z.object({ type: z.literal([1, 2]), total: z.number(), used: z.number() })),
});
const chainFields = {
  name: text(100).min(1, 'must not be empty'),
  description: text(2000).default(''),
  cover: text(500).default(''),
  commodity: id,
  authorStageName: text(100).min(1, 'must not be empty'),
  startTime: moment,
  endTime: moment.nullable(),
  sort: count(1_000_000).default(0),
};
const chainFieldsOf = (input: {
  name: string;
  description: string;
  cover: string;
  commodity: number;
  authorStageName: string;
  startTime: string;
  endTime: string | null;
  sort: number;
}) => {
  const { commodity, ...rest } = input;
  return { ...rest, commodityId: commodity, startTime: new Date(input.startTime), endTime: input.endTime ? new Date(input.endTime) : null };
};
/** An exchange recipe: what is spent per exchange, a collectible of the channel and how many (give A × 2 + B). */
const recipeInputs = z
  .array(z.object({ commodity: id, quantity: positive(100) }), { error: 'must be a list of collectibles and quantities' })
  .max(20, 'must be 20 lines or fewer');
/** Pasted codes, one a line (the import's text box) or a list. */
const codeLines = z
  .array(text(100), { error: 'must be a list of codes' })
  .min(1, 'must name at least one code')
  .max(BATCH_LIMITS.maxSize, `must be ${BATCH_LIMITS.maxSize} codes or fewer`);

/** The audit hook of one call of `path` on the operator's channel. */
function auditOf(ctx: ProcedureContext, path: string, input: unknown): CampaignAudit {
  return auditCall(ctx, path, input);
}

const sealKey = () => batchSealKey(env().AUTH_SECRET);

export const campaignProcedures = {
  '/ops/api/campaign/list': procedure({
    summary: "A channel's gift campaigns, exchange activities and chain-up campaigns, in their order, with their windows.",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKey }),
    output: z.object({ gift: z.array(campaignView), exchange: z.array(campaignView), chain: z.array(chainView) }),
    handler: async (ctx) => {
      const channel = await ctx.operatorChannel();
      return {
        gift: await listCampaignRecords(ctx.db, channel.id, 'gift'),
        exchange: await listCampaignRecords(ctx.db, channel.id, 'exchange'),
        chain: await listChainCampaigns(ctx.db, channel.id),
      };
    },
  }),
  '/ops/api/campaign/detail': procedure({
    summary: 'A gift campaign or exchange activity with its offers (what each gives, asks and has left) and each offer’s code batches.',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKey, campaignId: id }),
    output: z.object({ campaign: campaignView, offers: z.array(offerView.extend({ batches: z.array(batchView) })) }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const campaign = await campaignRecord(ctx.db, channel.id, input.campaignId);
      const offers = await listOffers(ctx.db, channel.id, campaign.id);
      return {
        campaign,
        offers: await Promise.all(
          offers.map(async (o) => ({ ...o, batches: o.requiresCode ? await listBatches(ctx.db, channel.id, o.id, ctx.now) : [] })),
        ),
      };
    },
  }),
  '/ops/api/campaign/create': procedure({
    summary:
      'Creates a gift campaign (`gift`) or an exchange activity (`exchange`) with its window. Refused (400): closing before opening (`endTime`), a code the channel already has (`code`).',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'creates' },
    input: z.object({ channel: channelKey, kind: z.enum(['gift', 'exchange']), ...campaignFields }),
    output: campaignView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const { channel: _key, kind, ...fields } = input;
      void _key;
      return createCampaign(ctx.db, { channelId: channel.id, kind, ...fieldsOf(fields) }, auditOf(ctx, '/ops/api/campaign/create', input));
    },
  }),
  '/ops/api/campaign/update': procedure({
    summary:
      'Edits a campaign’s code, words, picture, window and order. Same refusals as create; once a buyer took one of its offers, a changed opening time (400, `startTime`); 404 (`campaignId`) for another channel’s.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, campaignId: id, ...campaignFields }),
    output: campaignView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const { channel: _key, campaignId, ...fields } = input;
      void _key;
      return updateCampaign(
        ctx.db,
        { channelId: channel.id, campaignId, ...fieldsOf(fields) },
        auditOf(ctx, '/ops/api/campaign/update', input),
      );
    },
  }),
  '/ops/api/campaign/offer/create': procedure({
    summary:
      'Adds an offer: a gift for holders (`requires`, a collectible of the channel), by redeem code (`requiresCode`), a welcome gift (neither: every buyer of the channel, `limitPerUser` times), or an exchange recipe (`inputs`: give A × 2 + B, get `commodity`). Refused (400): a collectible of another channel (`commodity`, `requires`, `inputs`), a recipe with no input or a gift with one (`inputs`).',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'creates' },
    input: z.object({
      channel: channelKey,
      campaignId: id,
      commodity: id,
      total: positive(10_000_000),
      limitPerUser: positive(10_000).default(1),
      requires: id.nullable().default(null),
      requiresCode: z.boolean({ error: 'must be true or false' }).default(false),
      inputs: recipeInputs.default([]),
      sort: count(1_000_000).default(0),
    }),
    output: offerView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      return createOffer(
        ctx.db,
        {
          channelId: channel.id,
          campaignId: input.campaignId,
          commodityId: input.commodity,
          total: input.total,
          limitPerUser: input.limitPerUser,
          requiresCommodityId: input.requires,
          requiresCode: input.requiresCode,
          inputs: input.inputs.map((i) => ({ commodityId: i.commodity, quantity: i.quantity })),
          sort: input.sort,
        },
        auditOf(ctx, '/ops/api/campaign/offer/create', input),
      );
    },
  }),
  '/ops/api/campaign/offer/update': procedure({
    summary:
      'Edits an offer: its count, per-buyer limit and order; what it gives (`commodity`) and asks (`requires`, `requiresCode`, `inputs`; left out: unchanged) until a buyer first takes it. Refused (400, naming the field): a count below what buyers already took (`total`), a term buyers took it on, the refusals of create, and dropping the redeem code of an offer with codes out (`requiresCode`).',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({
      channel: channelKey,
      offerId: id,
      total: count(10_000_000),
      limitPerUser: positive(10_000),
      sort: count(1_000_000).default(0),
      commodity: id.optional(),
      requires: id.nullable().optional(),
      requiresCode: z.boolean({ error: 'must be true or false' }).optional(),
      inputs: recipeInputs.optional(),
    }),
    output: offerView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      return updateOffer(
        ctx.db,
        {
          channelId: channel.id,
          offerId: input.offerId,
          total: input.total,
          limitPerUser: input.limitPerUser,
          sort: input.sort,
          commodityId: input.commodity,
          requiresCommodityId: input.requires,
          requiresCode: input.requiresCode,
          inputs: input.inputs?.map((i) => ({ commodityId: i.commodity, quantity: i.quantity })),
        },
        auditOf(ctx, '/ops/api/campaign/offer/update', input),
      );
    },
  }),
  '/ops/api/campaign/end': procedure({
    summary:
      'Ends a gift campaign or exchange activity now: its closing time becomes this moment (one not open yet closes unopened). Refused (400, `campaignId`): one already ended.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, campaignId: id }),
    output: campaignView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      return endCampaignNow(
        ctx.db,
        { channelId: channel.id, campaignId: input.campaignId, now: ctx.now },
        auditOf(ctx, '/ops/api/campaign/end', input),
      );
    },
  }),
  '/ops/api/campaign/batch/generate': procedure({
    summary: `Generates \`size\` new redeem codes (128-bit) for an offer that asks for one, with an optional expiry. Their plain text waits ${BATCH_LIMITS.sealHours} hours for the batch's one export, sealed; only their hashes stay after it.`,
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'creates' },
    input: z.object({ channel: channelKey, offerId: id, size: positive(BATCH_LIMITS.maxSize), expiresAt: moment.nullable().default(null) }),
    output: batchView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const by = await ctx.operator();
      return generateBatch(
        ctx.db,
        {
          channelId: channel.id,
          offerId: input.offerId,
          size: input.size,
          expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
          by: { operatorId: by.operatorId, name: by.name },
          now: ctx.now,
          sealKey: sealKey(),
        },
        auditOf(ctx, '/ops/api/campaign/batch/generate', input),
      );
    },
  }),
  '/ops/api/campaign/batch/import': procedure({
    summary:
      'Imports given codes (printed elsewhere) as a batch of an offer. Refused (400, `codes`, naming the line): a line that is no code, a code repeated or already held.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'creates' },
    input: z.object({ channel: channelKey, offerId: id, codes: codeLines, expiresAt: moment.nullable().default(null) }),
    output: batchView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const by = await ctx.operator();
      return importBatch(
        ctx.db,
        {
          channelId: channel.id,
          offerId: input.offerId,
          codes: input.codes,
          expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
          by: { operatorId: by.operatorId, name: by.name },
          now: ctx.now,
        },
        auditOf(ctx, '/ops/api/campaign/batch/import', input),
      );
    },
  }),
  '/ops/api/campaign/batch/export': procedure({
    summary:
      'The one export of a generated batch: its codes as CSV (`code,batch,expires_at`). Refused (409, `batchId`): a second export, an imported or revoked batch, one not exported in time.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, batchId: id }),
    output: z.object({ csv: z.string(), filename: z.string(), batch: batchView }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      return exportBatch(
        ctx.db,
        { channelId: channel.id, batchId: input.batchId, now: ctx.now, sealKey: sealKey() },
        auditOf(ctx, '/ops/api/campaign/batch/export', input),
      );
    },
  }),
  '/ops/api/campaign/batch/revoke': procedure({
    summary: 'Revokes a batch: its unused codes are refused at claim from now on, with their own words (codes used stay used).',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, batchId: id }),
    output: batchView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      return revokeBatch(
        ctx.db,
        { channelId: channel.id, batchId: input.batchId, now: ctx.now },
        auditOf(ctx, '/ops/api/campaign/batch/revoke', input),
      );
    },
  }),
  '/ops/api/campaign/code/revoke': procedure({
    summary:
      'Revokes one unused code of an offer, by its text (`code`, as read off a card) or its row (`codeId`). 404 (`code`) when there is no such unused code.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z
      .object({ channel: channelKey, offerId: id, code: text(100).optional(), codeId: id.optional() })
      .refine((i) => (i.code === undefined) !== (i.codeId === undefined), {
        message: 'name the code or its row, one of them',
        path: ['code'],
      }),
    output: codeView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      return revokeCode(
        ctx.db,
        { channelId: channel.id, offerId: input.offerId, code: input.code, codeId: input.codeId, now: ctx.now },
        auditOf(ctx, '/ops/api/campaign/code/revoke', input),
      );
    },
  }),
  '/ops/api/campaign/batch/usage': procedure({
    summary:
      'A batch’s used codes: when, and by whom as a masked phone (138****1234), newest first (at most 500), with the batch’s counts.',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKey, batchId: id }),
    output: z.object({ batch: batchView, used: z.array(codeView) }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      return batchUsage(ctx.db, { channelId: channel.id, batchId: input.batchId, now: ctx.now });
    },
  }),
  '/ops/api/campaign/chain/create': procedure({
    summary:
      'Creates a chain-up campaign: the collectible a chained-up code gives, its author and window. Refused (400): closing before opening (`endTime`), a collectible of another channel (`commodity`).',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'creates' },
    input: z.object({ channel: channelKey, ...chainFields }),
    output: chainView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const { channel: _key, ...fields } = input;
      void _key;
      return createChainCampaign(
        ctx.db,
        { channelId: channel.id, ...chainFieldsOf(fields) },
        auditOf(ctx, '/ops/api/campaign/chain/create', input),
      );
    },
  }),
  '/ops/api/campaign/chain/update': procedure({
    summary:
      'Edits a chain-up campaign. Same refusals as create; once a code was chained up, a changed collectible (`commodity`) or opening time (`startTime`); 404 (`campaignId`) for another channel’s.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, campaignId: id, ...chainFields }),
    output: chainView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const { channel: _key, campaignId, ...fields } = input;
      void _key;
      return updateChainCampaign(
        ctx.db,
        { channelId: channel.id, campaignId, ...chainFieldsOf(fields) },
        auditOf(ctx, '/ops/api/campaign/chain/update', input),
      );
    },
  }),
  '/ops/api/campaign/chain/end': procedure({
    summary: 'Ends a chain-up campaign now: its closing time becomes this moment. Refused (400, `campaignId`): one already ended.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, campaignId: id }),
    output: chainView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      return endChainCampaignNow(
        ctx.db,
        { channelId: channel.id, campaignId: input.campaignId, now: ctx.now },
        auditOf(ctx, '/ops/api/campaign/chain/end', input),
      );
    },
  }),
  '/ops/api/campaign/chain/addCodes': procedure({
    summary:
      'Adds product (`type` 1) or certificate (`type` 2) codes to a chain-up campaign: the given `codes`, or `generate` new ones, answered in plain text this once (only their hashes are kept). Refused (400, `codes`, naming the line): a line that is no code, a code repeated or already held.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z
      .object({
        channel: channelKey,
        campaignId: id,
        type: z.literal([1, 2]),
        codes: codeLines.optional(),
        generate: positive(BATCH_LIMITS.maxSize).optional(),
      })
      .refine((i) => (i.codes === undefined) !== (i.generate === undefined), {
        message: 'give codes or a number to generate, one of them',
        path: ['codes'],
      }),
    output: z.object({ campaign: chainView, codes: z.array(z.string()) }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      return addChainCodes(
        ctx.db,
        { channelId: channel.id, campaignId: input.campaignId, type: input.type, codes: input.codes, generate: input.generate },
        auditOf(ctx, '/ops/api/campaign/chain/addCodes', input),
      );
    },
  }),
};
