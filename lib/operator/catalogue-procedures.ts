import 'server-only';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { channelKeySchema } from '../procedure/schemas';
import { procedure, type ProcedureContext } from '../procedure/procedure';
import { ANY_ROLE } from '../procedure/roles';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import type { Db } from '../db/client';
import { commodities, sales } from '../db/schema';
import { imageUrl } from '../channel/skin';
import {
  createCollectible,
  editCollectible,
  findCollectible,
  listCollectibles,
  listPrizes,
  setBoxPrizes,
  type CatalogueAudit,
  type CollectibleView,
  type PrizeInput,
} from '../sale/catalogue';
import {
  addCopies,
  archiveSale,
  createSale,
  deleteSale,
  editSale,
  findAdminSale,
  listAdminSales,
  setSalePaused,
  type AdminSaleView,
} from '../sale/admin';
import { CONSOLE_SALE_STATES } from '../sale/rules';
import { forgetSoldOut } from '../order/sold-out';
import { auditCall } from './audit';

/**
 * The Catalogue and Sales tabs' calls (issue 32, "Catalogue", "Sales", "Blind boxes"): collectibles, a box's prizes,
 * sales and their drop-day controls. Owners, and managers on the channels granted, write; support reads. Every write is
 * in the audit trail with the row before and after, in the write's transaction. Collectibles and sales are named by
 * their code in the channel (the store's natural key), never by another channel's id. The rules live in lib/sale.
 */

const channelKey = channelKeySchema;
const code = z
  .string({ error: 'is required and must be a string' })
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be 1 to 64 lower-case letters, digits or hyphens, starting with a letter or digit');
const text = (max: number) => z.string({ error: 'is required and must be a string' }).trim().max(max, `must be ${max} characters or less`);
const named = (max: number) => text(max).min(1, 'must not be empty');
const image = imageUrl.max(2000, 'must be 2000 characters or less');
const moment = z.iso.datetime({ offset: true, error: 'must be a time in ISO 8601 with its offset, e.g. 2026-12-01T20:00:00+08:00' });
const fen = z.number().int('must be a whole number of fen').min(0, 'must be 0 or more').max(100_000_000, 'must be at most 1,000,000 yuan');
const count = (max: number) => z.number().int('must be a whole number').min(1, 'must be at least 1').max(max, `must be at most ${max}`);

const collectibleFields = {
  code,
  name: named(100),
  description: text(5000),
  authorName: named(100),
  authorCover: image,
  publisherName: named(100),
  seriesName: text(100).nullable(),
  cover: image,
  gallery: z.array(image).max(12, 'must have at most 12 pictures'),
  amountSku: count(10_000_000),
  chainName: named(100),
  chainContract: named(200),
  contractAddress: named(200),
  isBlindBox: z.boolean(),
};

const collectibleView = z.object({
  code: z.string(),
  name: z.string(),
  description: z.string(),
  authorName: z.string(),
  authorCover: z.string(),
  publisherName: z.string(),
  seriesName: z.string().nullable(),
  cover: z.string(),
  gallery: z.array(z.string()),
  amountSku: z.number(),
  chainName: z.string(),
  chainContract: z.string(),
  contractAddress: z.string(),
  isBlindBox: z.boolean(),
  minted: z.number(),
});
const prizeView = z.object({
  collectible: z.string(),
  name: z.string(),
  cover: z.string(),
  weight: z.number(),
  value: z.number(),
  percent: z.string(),
});

const saleTerms = {
  price: fen,
  copies: count(10_000_000),
  limitPerUser: count(1000),
  saleStartTime: moment,
  saleEndTime: moment.nullable(),
  listed: z.boolean(),
  sort: z.number().int('must be a whole number').min(-1_000_000).max(1_000_000),
  /** issue 32: "an opening time in the past asks for confirmation": the console asks, then sends true. */
  confirmPast: z.boolean().optional(),
};

const saleView = z.object({
  code: z.string(),
  collectible: z.string(),
  collectibleName: z.string(),
  cover: z.string(),
  isBlindBox: z.boolean(),
  price: z.number(),
  copies: z.number(),
  copiesLeft: z.number(),
  copiesTaken: z.number(),
  limitPerUser: z.number(),
  saleStartTime: z.string(),
  saleEndTime: z.string().nullable(),
  listed: z.boolean(),
  sort: z.number(),
  pausedAt: z.string().nullable(),
  archivedAt: z.string().nullable(),
  state: z.enum(CONSOLE_SALE_STATES),
  hasOrders: z.boolean(),
  /** The store's page of the sale (a preview before it opens), on the channel's host. */
  storePath: z.string(),
});
export type SaleWire = z.output<typeof saleView>;
export type CollectibleWire = z.output<typeof collectibleView>;
export type PrizeWire = z.output<typeof prizeView>;

function collectibleWire(view: CollectibleView): CollectibleWire {
  return {
    code: view.code,
    name: view.name,
    description: view.description,
    authorName: view.authorName,
    authorCover: view.authorCover,
    publisherName: view.publisherName,
    seriesName: view.seriesName,
    cover: view.cover,
    gallery: view.gallery,
    amountSku: view.amountSku,
    chainName: view.chainName,
    chainContract: view.chainContract,
    contractAddress: view.contractAddress,
    isBlindBox: view.isBlindBox,
    minted: view.minted,
  };
}

async function saleWire(db: Db, view: AdminSaleView): Promise<SaleWire> {
  const [commodity] = await db.select({ code: commodities.code }).from(commodities).where(eq(commodities.id, view.collectibleId));
  return {
    code: view.code,
    collectible: commodity?.code ?? '',
    collectibleName: view.collectibleName,
    cover: view.cover,
    isBlindBox: view.isBlindBox,
    price: view.price,
    copies: view.copies,
    copiesLeft: view.copiesLeft,
    copiesTaken: view.copiesTaken,
    limitPerUser: view.limitPerUser,
    saleStartTime: view.saleStartTime.toISOString(),
    saleEndTime: view.saleEndTime?.toISOString() ?? null,
    listed: view.listed,
    sort: view.sort,
    pausedAt: view.pausedAt?.toISOString() ?? null,
    archivedAt: view.archivedAt?.toISOString() ?? null,
    state: view.state,
    hasOrders: view.hasOrders,
    storePath: `/goods/detail/${view.id}`,
  };
}

/** The id of the channel's collectible `code`, or 404 naming `field`. */
async function collectibleId(db: Db, channelId: number, value: string, field = 'collectible'): Promise<number> {
  const [row] = await db
    .select({ id: commodities.id })
    .from(commodities)
    .where(and(eq(commodities.channelId, channelId), eq(commodities.code, value)));
  if (!row) throw new AppError(404, msg('opsCollectibleNotFound'), { field });
  return row.id;
}

/** The id of the channel's sale `code`, or 404 naming `sale` (also the lottery's calls, ./lottery-procedures.ts). */
export async function saleId(db: Db, channelId: number, value: string): Promise<number> {
  const [row] = await db
    .select({ id: sales.id })
    .from(sales)
    .where(and(eq(sales.channelId, channelId), eq(sales.code, value)));
  if (!row) throw new AppError(404, msg('opsSaleNotFound'));
  return row.id;
}

/** The audit hook of one call: the rows before and after as the console shows them. */
function auditOf(ctx: ProcedureContext, path: string, input: unknown): CatalogueAudit {
  const record = auditCall(ctx, path, input);
  return (tx, change) => record(tx, change);
}

const WRITERS = ['owner', 'manager'] as const;
const saleInputOf = (input: z.output<z.ZodObject<typeof saleTerms>>) => ({
  price: input.price,
  copies: input.copies,
  limitPerUser: input.limitPerUser,
  saleStartTime: new Date(input.saleStartTime),
  saleEndTime: input.saleEndTime === null ? null : new Date(input.saleEndTime),
  listed: input.listed,
  sort: input.sort,
  confirmPast: input.confirmPast,
});

export const catalogueProcedures = {
  '/ops/api/catalogue/list': procedure({
    summary:
      "A channel's collectibles: name, creator, pictures, edition size and editions minted, chain information, whether it is a blind box.",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKey }),
    output: z.object({ collectibles: z.array(collectibleView) }),
    handler: async (ctx) => {
      const channel = await ctx.operatorChannel();
      return { collectibles: (await listCollectibles(ctx.db, channel.id)).map(collectibleWire) };
    },
  }),
  '/ops/api/catalogue/detail': procedure({
    summary: "One collectible of the channel, with a blind box's prizes, their odds in basis points and their values in fen.",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKey, collectible: code }),
    output: z.object({ collectible: collectibleView, prizes: z.array(prizeView) }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await collectibleId(ctx.db, channel.id, input.collectible);
      const view = (await findCollectible(ctx.db, channel.id, id))!;
      const prizes = await listPrizes(ctx.db, id);
      const codes = new Map((await listCollectibles(ctx.db, channel.id)).map((c) => [c.id, c.code]));
      return {
        collectible: collectibleWire(view),
        prizes: prizes.map((p) => ({
          collectible: codes.get(p.collectibleId) ?? '',
          name: p.name,
          cover: p.cover,
          weight: p.weight,
          value: p.value,
          percent: p.percent,
        })),
      };
    },
  }),
  '/ops/api/catalogue/create': procedure({
    summary:
      'Adds a collectible to the channel. Pictures are the URLs answered by the upload (lib/media re-encodes them). Refused (400, `code`): a code the channel has.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'creates' },
    input: z.object({ channel: channelKey, ...collectibleFields }),
    output: collectibleView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const { channel: _key, ...fields } = input; // eslint-disable-line @typescript-eslint/no-unused-vars -- the rest is the collectible
      const audit = auditOf(ctx, '/ops/api/catalogue/create', input);
      return collectibleWire(await createCollectible(ctx.db, channel.id, { ...fields, seriesName: fields.seriesName || null }, audit));
    },
  }),
  '/ops/api/catalogue/edit': procedure({
    summary:
      'Changes a collectible (named by its code; the new code in `code`). Refused (400, `amountSku`): an edition size below the editions minted.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, collectible: code, ...collectibleFields }),
    output: collectibleView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await collectibleId(ctx.db, channel.id, input.collectible);
      const { channel: _key, collectible: _code, ...fields } = input; // eslint-disable-line @typescript-eslint/no-unused-vars -- the rest is the collectible
      const audit = auditOf(ctx, '/ops/api/catalogue/edit', input);
      return collectibleWire(await editCollectible(ctx.db, channel.id, id, { ...fields, seriesName: fields.seriesName || null }, audit));
    },
  }),
  '/ops/api/catalogue/setPrizes': procedure({
    summary:
      "Sets a blind box's prizes: other collectibles of the channel, each once, with odds in basis points adding up to exactly 10000 (400, `prizes`, otherwise) and a value in fen shown to buyers with the odds (the blind-box guideline). The draw uses these weights.",
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({
      channel: channelKey,
      box: code,
      prizes: z
        .array(z.object({ collectible: code, weight: count(10_000), value: fen }))
        .min(1, 'must have at least one prize')
        .max(50, 'must have at most 50 prizes'),
    }),
    output: z.object({ prizes: z.array(prizeView) }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const box = await collectibleId(ctx.db, channel.id, input.box, 'box');
      const prizes: PrizeInput[] = [];
      for (const p of input.prizes) {
        prizes.push({ collectibleId: await collectibleId(ctx.db, channel.id, p.collectible, 'prizes'), weight: p.weight, value: p.value });
      }
      const audit = auditOf(ctx, '/ops/api/catalogue/setPrizes', input);
      const set = await setBoxPrizes(ctx.db, channel.id, box, prizes, audit);
      const codes = new Map(input.prizes.map((p, i) => [prizes[i]!.collectibleId, p.collectible]));
      return {
        prizes: set.map((p) => ({
          collectible: codes.get(p.collectibleId) ?? '',
          name: p.name,
          cover: p.cover,
          weight: p.weight,
          value: p.value,
          percent: p.percent,
        })),
      };
    },
  }),
  '/ops/api/sale/list': procedure({
    summary: "A channel's sales with their status (coming, live, paused, sold out, closed, archived) and copies sold and left.",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKey }),
    output: z.object({ timeZone: z.string(), sales: z.array(saleView) }),
    handler: async (ctx) => {
      const channel = await ctx.operatorChannel();
      const list = await listAdminSales(ctx.db, channel.id, ctx.now);
      return { timeZone: channel.timeZone, sales: await Promise.all(list.map((s) => saleWire(ctx.db, s))) };
    },
  }),
  '/ops/api/sale/detail': procedure({
    summary: 'One sale of the channel, with whether it has orders (its price, limit and opening time are then frozen).',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKey, sale: code }),
    output: saleView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await saleId(ctx.db, channel.id, input.sale);
      return saleWire(ctx.db, (await findAdminSale(ctx.db, channel.id, id, ctx.now))!);
    },
  }),
  '/ops/api/sale/create': procedure({
    summary:
      'Creates a sale of a collectible: price in fen, copies, opening and closing time, per-buyer limit, listed or hidden, home list order. Refused (400): closing before opening (`saleEndTime`), an opening in the past without `confirmPast` (`saleStartTime`), a code the channel has (`code`).',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'creates' },
    input: z.object({ channel: channelKey, code, collectible: code, ...saleTerms }),
    output: saleView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await collectibleId(ctx.db, channel.id, input.collectible);
      const audit = auditOf(ctx, '/ops/api/sale/create', input);
      const made = await createSale(ctx.db, channel.id, { code: input.code, collectibleId: id, ...saleInputOf(input) }, ctx.now, audit);
      return saleWire(ctx.db, made);
    },
  }),
  '/ops/api/sale/edit': procedure({
    summary:
      'Changes a sale. Refused (400) naming the field: price, limitPerUser or saleStartTime once the first order exists; copies below those sold or held in unpaid orders; closing before opening; a changed opening in the past without `confirmPast`.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, sale: code, ...saleTerms }),
    output: saleView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await saleId(ctx.db, channel.id, input.sale);
      const audit = auditOf(ctx, '/ops/api/sale/edit', input);
      const edited = await editSale(ctx.db, channel.id, id, saleInputOf(input), ctx.now, audit);
      forgetSoldOut(ctx.db, id);
      return saleWire(ctx.db, edited);
    },
  }),
  '/ops/api/sale/pause': procedure({
    summary:
      'Pauses buying on a sale now (`paused`: true; new orders are refused with a message in the buyer’s language) or resumes it (false).',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, sale: code, paused: z.boolean() }),
    output: saleView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await saleId(ctx.db, channel.id, input.sale);
      const audit = auditOf(ctx, '/ops/api/sale/pause', input);
      return saleWire(ctx.db, await setSalePaused(ctx.db, channel.id, id, input.paused, ctx.now, audit));
    },
  }),
  '/ops/api/sale/addCopies': procedure({
    summary: 'Adds copies to a sale (a stock adjustment): copies and copies left grow by `copies`; the store shows the new count at once.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, sale: code, copies: count(1_000_000) }),
    output: saleView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await saleId(ctx.db, channel.id, input.sale);
      const audit = auditOf(ctx, '/ops/api/sale/addCopies', input);
      const after = await addCopies(ctx.db, channel.id, id, input.copies, ctx.now, audit);
      // This process's note that the sale sold out goes at once (other processes hear the database's notice).
      forgetSoldOut(ctx.db, id);
      return saleWire(ctx.db, after);
    },
  }),
  '/ops/api/sale/archive': procedure({
    summary:
      'Archives a sale: off the store’s lists, refusing new orders; its orders and holdings stay. A sale with orders is archived, never deleted.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, sale: code }),
    output: saleView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await saleId(ctx.db, channel.id, input.sale);
      const audit = auditOf(ctx, '/ops/api/sale/archive', input);
      return saleWire(ctx.db, await archiveSale(ctx.db, channel.id, id, ctx.now, audit));
    },
  }),
  '/ops/api/sale/delete': procedure({
    summary: 'Deletes a sale that has no order. Refused (400, `sale`) for a sale with orders: archive it instead.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'removes' },
    input: z.object({ channel: channelKey, sale: code }),
    output: z.object({ deleted: z.string() }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await saleId(ctx.db, channel.id, input.sale);
      const audit = auditOf(ctx, '/ops/api/sale/delete', input);
      await deleteSale(ctx.db, channel.id, id, ctx.now, audit);
      return { deleted: input.sale };
    },
  }),
};
