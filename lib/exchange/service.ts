import 'server-only';
import { isBlindBoxCommodity, requireIdentityIn } from '../identity/gate';
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { campaignOffers, campaigns, commodities, holdings, offerClaims, offerInputs, offerQuotas, sales } from '../db/schema';
import { AppError } from '../procedure/errors';
import { CodeRefused, takeCodeAttempt, useRedeemCode } from '../redeem-code/service';
import { isUniqueViolation } from '../db/errors';
import { idempotencyKeyReused } from '../procedure/schemas';
import { claimOnce } from '../procedure/idempotent';
import { campaignStatus } from '../campaign/status';
import { campaignView, listCampaigns, loadCampaignOffer, mintClaim, takeFromOffer } from '../campaign/campaigns';
import type { ChannelScope, UserScope, ViewerScope } from '../procedure/scope';
import { toPage, type Page, type Paging } from '../procedure/paging';
import type { DestroyedView, ExchangeCampaignView, ExchangeDetail, ExchangeMine, ExchangeOfferView, ExchangeRecordView } from './schema';
import { tags, writeInvalidating } from '../cache/store';
import { msg } from '../procedure/messages';
import { REASON } from '../procedure/reasons';

/**
 * Exchanges (spec §2 active, exchangeDetail, mineExchange, mineDestory; label 2). An exchange campaign (the route's
 * `:id`) holds offers (the route's `:exchange_id`): one numbered collectible each, a stock, a per-user limit and a
 * recipe (`offer_inputs`): so many copies of given collectibles, which are spent (destroyed), and/or one of the offer's
 * redeem codes (used once). Exchanging is one transaction: the code is used, the quota and the stock are taken, the
 * inputs are destroyed, the output is minted, or nothing happens.
 *
 * A holding can be spent when it is in the user's collection on this channel (what channel/queryTreasureSku shows):
 * the user's own, not destroyed, and not a blind box (a box is opened, not spent).
 */

type CommodityBrief = ExchangeOfferView['commodity'];
type HoldingBrief = ExchangeRecordView['output'];

export type ExchangeInput = { campaignId: number; offerId: number; idempotencyKey: string; holdingIds?: number[]; code?: string };

type CommodityRow = typeof commodities.$inferSelect;

function brief(c: CommodityRow): CommodityBrief {
  return { id: String(c.id), name: c.name, cover: c.cover, amountSku: c.amountSku };
}

async function offersOf(db: Db, campaignIds: number[]): Promise<Map<number, ExchangeOfferView[]>> {
  const byCampaign = new Map<number, ExchangeOfferView[]>();
  if (campaignIds.length === 0) return byCampaign;
  const rows = await db
    .select({ o: campaignOffers, c: commodities })
    .from(campaignOffers)
    .innerJoin(commodities, eq(commodities.id, campaignOffers.commodityId))
    .where(inArray(campaignOffers.campaignId, campaignIds))
    .orderBy(asc(campaignOffers.sort), asc(campaignOffers.id));
  const offerIds = rows.map((r) => r.o.id);
  const recipe = offerIds.length
    ? await db
        .select({ offerId: offerInputs.offerId, quantity: offerInputs.quantity, c: commodities })
        .from(offerInputs)
        .innerJoin(commodities, eq(commodities.id, offerInputs.commodityId))
        .where(inArray(offerInputs.offerId, offerIds))
        .orderBy(asc(offerInputs.commodityId))
    : [];
  for (const { o, c } of rows) {
    const list = byCampaign.get(o.campaignId) ?? [];
    list.push({
      id: String(o.id),
      campaignId: String(o.campaignId),
      commodity: brief(c),
      total: o.total,
      remaining: o.remaining,
      limitPerUser: o.limitPerUser,
      inputs: recipe.filter((r) => r.offerId === o.id).map((r) => ({ commodity: brief(r.c), quantity: r.quantity })),
      requiresCode: o.requiresCode,
    });
    byCampaign.set(o.campaignId, list);
  }
  return byCampaign;
}

/** The channel's exchange activities with their offers and recipes (channel/queryActivityList): open ones first, then upcoming, then ended. */
export async function listExchangeActivities(ctx: ChannelScope): Promise<ExchangeCampaignView[]> {
  return listCampaigns(ctx, 'exchange', offersOf);
}

function loadOffer(ctx: ChannelScope, campaignId: number, offerId: number) {
  return loadCampaignOffer(ctx, 'exchange', { campaignId, offerId }, offersOf, msg('exchangeNotFound'));
}

/** The conditions that make a holding spendable by this user on this channel (see the module comment). */
function spendable(userId: number, channelId: number, commodityId: number) {
  return and(
    eq(holdings.userId, userId),
    eq(holdings.channelId, channelId),
    eq(holdings.commodityId, commodityId),
    isNull(holdings.destroyedAt),
    // Taken back by a refund (issue 32): no longer the buyer's to spend.
    isNull(holdings.refundedAt),
    sql`not exists (select 1 from ${commodities} where ${commodities.id} = ${holdings.commodityId} and ${commodities.isBlindBox})`,
  );
}

async function takenBy(db: Db, offerId: number, userId: number): Promise<number> {
  const [quota] = await db
    .select({ taken: offerQuotas.taken })
    .from(offerQuotas)
    .where(and(eq(offerQuotas.offerId, offerId), eq(offerQuotas.userId, userId)));
  return quota?.taken ?? 0;
}

/**
 * One exchange offer (exchange/detail): the campaign, the offer and its recipe, and for a logged-in user
 * (`userId` not null) the holdings that can be spent for each recipe line and how many more times they may exchange.
 */
export async function getExchangeOffer(ctx: ViewerScope, campaignId: number, offerId: number): Promise<ExchangeDetail> {
  const { campaign, offer } = await loadOffer(ctx, campaignId, offerId);
  const view = campaignView(campaign, [offer], ctx.now);
  if (ctx.userId === null) return { campaign: view, offer, mine: null };
  const userId = ctx.userId;
  const taken = await takenBy(ctx.db, offerId, userId);
  const inputs = await Promise.all(
    offer.inputs.map(async (line) => {
      const where = spendable(userId, ctx.channelId, Number(line.commodity.id));
      const [rows, [counted]] = await Promise.all([
        ctx.db
          .select({ id: holdings.id, number: holdings.number, createdAt: holdings.createdAt })
          .from(holdings)
          .where(where)
          .orderBy(asc(holdings.createdAt), asc(holdings.id))
          .limit(100),
        ctx.db.select({ value: count() }).from(holdings).where(where),
      ]);
      return {
        commodityId: line.commodity.id,
        quantity: line.quantity,
        have: counted?.value ?? 0,
        holdings: rows.map((h) => ({
          id: String(h.id),
          number: h.number,
          amountNumber: line.commodity.amountSku,
          createTime: h.createdAt.toISOString(),
        })),
      };
    }),
  );
  const timesLeft = Math.max(0, offer.limitPerUser - taken);
  const reason: ExchangeMine['reason'] =
    view.status === 0
      ? 'notOpen'
      : view.status === 2
        ? 'ended'
        : timesLeft === 0
          ? 'limit'
          : offer.remaining <= 0
            ? 'soldOut'
            : inputs.some((i) => i.have < i.quantity)
              ? 'missingInputs'
              : null;
  return { campaign: view, offer, mine: { taken, timesLeft, canExchange: reason === null, reason, inputs } };
}

/** Where the channel gives a collectible a recipe asks for: one of its gifts, or one of its sales. */
export type InputSource = { kind: 'gift'; campaignId: string; offerId: string } | { kind: 'sale'; saleId: string };

/**
 * Where a buyer can get each collectible a recipe spends (issue 30: SWAP's exchange page asked for two Starter Cards
 * and gave no way to where they are given): per commodity id, the channel's gift that gives it, else its sale, among
 * those the buyer can still use (stock left, not ended; open ones before upcoming ones). `gifts` and `sales` say which
 * of the two the channel's pages offer (spec §6 labels 3 and 1); a collectible given nowhere has no entry.
 */
export async function findInputSources(
  ctx: ChannelScope,
  commodityIds: string[],
  offered: { gifts: boolean; sales: boolean },
): Promise<Map<string, InputSource>> {
  const ids = commodityIds.map(Number);
  const sources = new Map<string, InputSource>();
  if (ids.length === 0) return sources;
  const [gifts, onSale] = await Promise.all([
    offered.gifts
      ? ctx.db
          .select({ commodityId: campaignOffers.commodityId, campaignId: campaigns.id, offerId: campaignOffers.id })
          .from(campaignOffers)
          .innerJoin(campaigns, eq(campaigns.id, campaignOffers.campaignId))
          .where(
            and(
              eq(campaignOffers.channelId, ctx.channelId),
              eq(campaigns.channelId, ctx.channelId),
              eq(campaigns.kind, 'gift'),
              inArray(campaignOffers.commodityId, ids),
              gt(campaignOffers.remaining, 0),
              or(isNull(campaigns.endTime), gt(campaigns.endTime, ctx.now)),
            ),
          )
          .orderBy(asc(campaigns.startTime), asc(campaignOffers.sort), asc(campaignOffers.id))
      : [],
    offered.sales
      ? ctx.db
          .select({ commodityId: sales.commodityId, saleId: sales.id })
          .from(sales)
          .where(
            and(
              eq(sales.channelId, ctx.channelId),
              inArray(sales.commodityId, ids),
              gt(sales.amountAvailable, 0),
              or(isNull(sales.saleEndTime), gt(sales.saleEndTime, ctx.now)),
            ),
          )
          .orderBy(asc(sales.saleStartTime), asc(sales.id))
      : [],
  ]);
  // The earliest to open comes first: one that is open now before one that opens later. A gift before a sale.
  for (const g of gifts) {
    if (!sources.has(String(g.commodityId)))
      sources.set(String(g.commodityId), { kind: 'gift', campaignId: String(g.campaignId), offerId: String(g.offerId) });
  }
  for (const s of onSale) {
    if (!sources.has(String(s.commodityId))) sources.set(String(s.commodityId), { kind: 'sale', saleId: String(s.saleId) });
  }
  return sources;
}

/**
 * When the user named the holdings to spend: each recipe line must get exactly its quantity, with no id twice and
 * none outside the recipe. Whether they are the user's and spendable is checked by the destroying UPDATE itself.
 */
async function chosenByLine(ctx: UserScope, offer: ExchangeOfferView, holdingIds: number[]): Promise<Map<number, number[]>> {
  if (new Set(holdingIds).size !== holdingIds.length) throw new AppError(400, msg('exchangeTwice'));
  const rows = holdingIds.length
    ? await ctx.db
        .select({ id: holdings.id, commodityId: holdings.commodityId })
        .from(holdings)
        .where(and(inArray(holdings.id, holdingIds), eq(holdings.userId, ctx.userId), eq(holdings.channelId, ctx.channelId)))
    : [];
  if (rows.length !== holdingIds.length) {
    const known = new Set(rows.map((r) => r.id));
    throw new AppError(400, msg('exchangeNotYours', { id: String(holdingIds.find((id) => !known.has(id))) }));
  }
  const byLine = new Map<number, number[]>();
  for (const r of rows) byLine.set(r.commodityId, [...(byLine.get(r.commodityId) ?? []), r.id]);
  for (const commodityId of byLine.keys()) {
    if (!offer.inputs.some((i) => Number(i.commodity.id) === commodityId)) {
      throw new AppError(400, msg('exchangeNotAsked', { id: String(byLine.get(commodityId)![0]) }));
    }
  }
  for (const line of offer.inputs) {
    const got = byLine.get(Number(line.commodity.id))?.length ?? 0;
    if (got !== line.quantity)
      throw new AppError(400, msg('exchangeWrongCount', { quantity: line.quantity, name: line.commodity.name, got }));
  }
  return byLine;
}

/**
 * Exchanges (exchange/create): spends the recipe's holdings and mints one copy of the offer's collectible, in one
 * transaction. The holdings spent are the user's oldest spendable ones, or exactly `holdingIds` when given. The same
 * idempotency key returns the same record, even when two copies of one tap race. Refusals (409, `data.reason`):
 * notOpen, ended, limit (the per-user limit, held by the database), soldOut, missingInputs (the message names the
 * collectible short), badCode (one answer for every wrong code, counted against the user's and the IP's allowance);
 * 404 for an offer not in this store; 400 for holdingIds that do not fit the recipe or a missing code.
 */
export async function exchange(ctx: UserScope, input: ExchangeInput): Promise<ExchangeRecordView> {
  return claimOnce({
    find: () => findByKey(ctx, input.idempotencyKey),
    make: () => spendAndMint(ctx, input),
    // Two copies of one tap raced: the loser rolled back (on the key or the limit); it answers with the winner's record.
    lostRace: (error) => isUniqueViolation(error) || (error instanceof AppError && error.data?.reason === REASON.limit),
  });
}

/** The checks, then the one transaction that spends the recipe and mints the offer. */
async function spendAndMint(ctx: UserScope, input: ExchangeInput): Promise<ExchangeRecordView> {
  const { campaign, offer } = await loadOffer(ctx, input.campaignId, input.offerId);
  const status = campaignStatus(campaign, ctx.now);
  if (status === 0)
    throw new AppError(409, msg('exchangeNotOpen', { at: campaign.startTime }), {
      reason: REASON.notOpen,
      startTime: campaign.startTime.toISOString(),
    });
  if (status === 2) throw new AppError(409, msg('exchangeEnded'), { reason: REASON.ended });
  if (offer.inputs.length === 0 && !offer.requiresCode) throw new AppError(409, msg('exchangeNoRecipe'), { reason: REASON.notOpen });
  const code = input.code?.trim() ?? '';
  if (offer.requiresCode && !code) throw new AppError(400, msg('exchangeNeedsCode'));
  // issue 33: the channel's real-name and age rules, before a code try or anything is spent.
  await requireIdentityIn(ctx, 'exchange', isBlindBoxCommodity(ctx.db, Number(offer.commodity.id)));
  const chosen = input.holdingIds ? await chosenByLine(ctx, offer, input.holdingIds) : null;
  const attempt = offer.requiresCode
    ? await takeCodeAttempt({ db: ctx.db, kind: 'redeem', userId: ctx.userId, ip: ctx.ip, now: ctx.now })
    : null;
  try {
    const claimId = await writeInvalidating(ctx.db, async (tx, changed) => {
      // An offer has one fewer left: dropped in every process with the commit (docs/caching.md).
      changed([tags.campaigns(ctx.channelId)]);
      const redeemCodeId = offer.requiresCode
        ? await useRedeemCode(tx, { offerId: input.offerId, code, userId: ctx.userId, now: ctx.now })
        : null;
      await takeFromOffer(
        tx,
        { offerId: input.offerId, userId: ctx.userId, limitPerUser: offer.limitPerUser },
        {
          limit: () => new AppError(409, msg('exchangeLimit', { limit: offer.limitPerUser }), { reason: REASON.limit }),
          soldOut: () => new AppError(409, msg('exchangeSoldOut'), { reason: REASON.soldOut }),
        },
      );

      const spent: number[] = [];
      for (const line of offer.inputs) {
        const commodityId = Number(line.commodity.id);
        const where = spendable(ctx.userId, ctx.channelId, commodityId);
        // Chosen ids, or the oldest spendable ones, locked first (SKIP LOCKED leaves rows another exchange is spending
        // to it). Two statements on purpose: a LIMIT ... FOR UPDATE subquery inside the UPDATE is re-run per row and
        // would spend every copy. The UPDATE's own conditions are what guarantee nothing is spent twice.
        const ids =
          chosen?.get(commodityId) ??
          (
            await tx
              .select({ id: holdings.id })
              .from(holdings)
              .where(where)
              .orderBy(asc(holdings.createdAt), asc(holdings.id))
              .limit(line.quantity)
              .for('update', { skipLocked: true })
          ).map((r) => r.id);
        const destroyed = await tx
          .update(holdings)
          .set({ destroyedAt: ctx.now })
          .where(and(inArray(holdings.id, ids.length ? ids : [0]), where))
          .returning({ id: holdings.id });
        if (destroyed.length < line.quantity) {
          throw new AppError(409, msg('exchangeShort', { quantity: line.quantity, name: line.commodity.name, have: destroyed.length }), {
            reason: REASON.missingInputs,
            commodityId: line.commodity.id,
          });
        }
        spent.push(...destroyed.map((d) => d.id));
      }

      const commodity = { id: Number(offer.commodity.id), amountSku: offer.commodity.amountSku };
      const claimId = await mintClaim(tx, {
        kind: 'exchange',
        channelId: ctx.channelId,
        userId: ctx.userId,
        campaignId: input.campaignId,
        offerId: input.offerId,
        commodity,
        redeemCodeId,
        idempotencyKey: input.idempotencyKey,
        now: ctx.now,
      });
      await tx.update(holdings).set({ destroyedByExchangeId: claimId }).where(inArray(holdings.id, spent));
      return claimId;
    });
    await attempt?.giveBack();
    return (await loadRecord(ctx, eq(offerClaims.id, claimId)))!;
  } catch (error) {
    if (error instanceof CodeRefused) throw error.answer();
    await attempt?.giveBack();
    throw error;
  }
}

/** The user's claim made with this key: an exchange record of this channel, or a 409 when the key already served a gift or another channel. */
async function findByKey(ctx: UserScope, key: string): Promise<ExchangeRecordView | null> {
  const [claim] = await ctx.db
    .select({ id: offerClaims.id, kind: offerClaims.kind })
    .from(offerClaims)
    .where(and(eq(offerClaims.userId, ctx.userId), eq(offerClaims.idempotencyKey, key)))
    .limit(1);
  if (!claim) return null;
  const record = claim.kind === 'exchange' ? await loadRecord(ctx, eq(offerClaims.id, claim.id)) : null;
  if (!record) throw idempotencyKeyReused();
  return record;
}

const recordColumns = { claim: offerClaims, campaignName: campaigns.name, commodity: commodities, number: holdings.number };
type RecordRow = { claim: typeof offerClaims.$inferSelect; campaignName: string; commodity: CommodityRow; number: number };

function holdingBrief(id: number, c: CommodityRow, number: number): HoldingBrief {
  return { holdingId: String(id), commodity: { id: String(c.id), name: c.name, cover: c.cover }, number, amountNumber: c.amountSku };
}

/** Records with the holdings each spent (only the user's own holdings, whatever the ids say). */
async function withInputs(ctx: UserScope, rows: RecordRow[]): Promise<ExchangeRecordView[]> {
  const ids = rows.map((r) => r.claim.id);
  const spent = ids.length
    ? await ctx.db
        .select({ h: holdings, c: commodities })
        .from(holdings)
        .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
        .where(and(inArray(holdings.destroyedByExchangeId, ids), eq(holdings.userId, ctx.userId), eq(holdings.channelId, ctx.channelId)))
        .orderBy(asc(holdings.commodityId), asc(holdings.number))
    : [];
  return rows.map((r) => ({
    id: String(r.claim.id),
    campaign: { id: String(r.claim.campaignId), name: r.campaignName },
    offerId: String(r.claim.offerId),
    createTime: r.claim.createdAt.toISOString(),
    output: holdingBrief(r.claim.holdingId, r.commodity, r.number),
    inputs: spent.filter((s) => s.h.destroyedByExchangeId === r.claim.id).map((s) => holdingBrief(s.h.id, s.c, s.h.number)),
  }));
}

function recordsQuery(ctx: UserScope, where: ReturnType<typeof and>) {
  return ctx.db
    .select(recordColumns)
    .from(offerClaims)
    .innerJoin(campaigns, eq(campaigns.id, offerClaims.campaignId))
    .innerJoin(holdings, eq(holdings.id, offerClaims.holdingId))
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(and(where, eq(offerClaims.userId, ctx.userId), eq(offerClaims.channelId, ctx.channelId), eq(offerClaims.kind, 'exchange')));
}

async function loadRecord(ctx: UserScope, where: ReturnType<typeof eq>): Promise<ExchangeRecordView | null> {
  const rows = await recordsQuery(ctx, and(where)).limit(1);
  return rows.length ? (await withInputs(ctx, rows))[0]! : null;
}

/** My exchange records (exchange/list): the user's exchanges on this channel, newest first, with what each spent and minted. */
export async function listExchanges(ctx: UserScope, paging: Paging): Promise<Page<ExchangeRecordView>> {
  const where = and(eq(offerClaims.userId, ctx.userId), eq(offerClaims.channelId, ctx.channelId), eq(offerClaims.kind, 'exchange'));
  const [totalRow] = await ctx.db.select({ value: count() }).from(offerClaims).where(where);
  const total = totalRow?.value ?? 0;
  const rows = await recordsQuery(ctx, where)
    .orderBy(desc(offerClaims.createdAt), desc(offerClaims.id))
    .limit(paging.pageSize)
    .offset((paging.pageCount - 1) * paging.pageSize);
  return toPage(await withInputs(ctx, rows), total, paging);
}

/** My destroyed collectibles (channel/treasureSkuDestroyPage): the user's spent holdings on this channel, newest first. */
export async function listDestroyed(ctx: UserScope, paging: Paging): Promise<Page<DestroyedView>> {
  const where = and(eq(holdings.userId, ctx.userId), eq(holdings.channelId, ctx.channelId), isNotNull(holdings.destroyedAt));
  const [totalRow] = await ctx.db.select({ value: count() }).from(holdings).where(where);
  const total = totalRow?.value ?? 0;
  const rows = await ctx.db
    .select({ h: holdings, c: commodities, claimId: offerClaims.id, campaignId: campaigns.id, campaignName: campaigns.name })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .leftJoin(offerClaims, and(eq(offerClaims.id, holdings.destroyedByExchangeId), eq(offerClaims.userId, ctx.userId)))
    .leftJoin(campaigns, eq(campaigns.id, offerClaims.campaignId))
    .where(where)
    .orderBy(desc(holdings.destroyedAt), desc(holdings.id))
    .limit(paging.pageSize)
    .offset((paging.pageCount - 1) * paging.pageSize);
  return toPage(
    rows.map((r) => ({
      id: String(r.h.id),
      commodity: { id: String(r.c.id), name: r.c.name, cover: r.c.cover },
      number: r.h.number,
      amountNumber: r.c.amountSku,
      destroyTime: r.h.destroyedAt!.toISOString(),
      exchange:
        r.claimId !== null && r.campaignId !== null
          ? { id: String(r.claimId), campaign: { id: String(r.campaignId), name: r.campaignName ?? '' } }
          : null,
    })),
    total,
    paging,
  );
}
