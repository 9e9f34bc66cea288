import 'server-only';
import { isBlindBoxCommodity, requireIdentityIn } from '../identity/gate';
import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { campaignOffers, campaigns, commodities, holdings, offerClaims, offerQuotas } from '../db/schema';
import { AppError } from '../procedure/errors';
import { CodeRefused, takeCodeAttempt, useRedeemCode } from '../redeem-code/service';
import { isUniqueViolation } from '../db/errors';
import { idempotencyKeyReused } from '../procedure/schemas';
import { claimOnce } from '../procedure/idempotent';
import { campaignStatus } from '../campaign/status';
import { campaignView, listCampaigns, loadCampaignOffer, mintClaim, takeFromOffer } from '../campaign/campaigns';
import type { ChannelScope, UserScope, ViewerScope } from '../procedure/scope';
import { toPage, type Page, type Paging } from '../procedure/paging';
import type { GiftCampaignView, GiftClaimView, GiftEligibility, GiftOfferView } from './schema';
import { tags, writeInvalidating } from '../cache/store';
import { msg } from '../procedure/messages';
import { REASON } from '../procedure/reasons';

/**
 * Gifts (spec §2 receive, receive2, receiveDetail, receiveDetailNew, mineReceive; label 3). A gift campaign (the
 * route's `:id`) holds offers (the route's `:exchange_id`): one numbered collectible each, a stock, a per-user limit,
 * and what it asks: holding a given collectible (eligibility), a redeem code, both, or nothing. Claiming is one
 * transaction: the code is used, the quota and the stock are taken, the holding is minted, or nothing happens.
 */

async function offersOf(db: Db, campaignIds: number[]): Promise<Map<number, GiftOfferView[]>> {
  const byCampaign = new Map<number, GiftOfferView[]>();
  if (campaignIds.length === 0) return byCampaign;
  const required = sql<string | null>`(select name from commodities r where r.id = ${campaignOffers.requiresCommodityId})`;
  const rows = await db
    .select({ o: campaignOffers, c: commodities, requiredName: required })
    .from(campaignOffers)
    .innerJoin(commodities, eq(commodities.id, campaignOffers.commodityId))
    .where(inArray(campaignOffers.campaignId, campaignIds))
    .orderBy(asc(campaignOffers.sort), asc(campaignOffers.id));
  for (const { o, c, requiredName } of rows) {
    const list = byCampaign.get(o.campaignId) ?? [];
    list.push({
      id: String(o.id),
      campaignId: String(o.campaignId),
      commodity: { id: String(c.id), name: c.name, cover: c.cover, amountSku: c.amountSku },
      total: o.total,
      remaining: o.remaining,
      limitPerUser: o.limitPerUser,
      requires: o.requiresCommodityId ? { id: String(o.requiresCommodityId), name: requiredName ?? '' } : null,
      requiresCode: o.requiresCode,
    });
    byCampaign.set(o.campaignId, list);
  }
  return byCampaign;
}

/** The channel's gift campaigns with their offers (channel/queryGiftConfig, giftReceiveList): open ones first, then upcoming, then ended. */
export async function listGiftCampaigns(ctx: ChannelScope): Promise<GiftCampaignView[]> {
  return listCampaigns(ctx, 'gift', offersOf);
}

function loadOffer(ctx: ChannelScope, campaignId: number, offerId: number) {
  return loadCampaignOffer(ctx, 'gift', { campaignId, offerId }, offersOf, msg('giftNotFound'));
}

/** One gift (getGiftConfit, giftReceiveDetail): the campaign, the offer, and, for a logged-in user, whether they can receive it. */
export async function getGift(
  ctx: ViewerScope,
  campaignId: number,
  offerId: number,
): Promise<{ campaign: GiftCampaignView; offer: GiftOfferView; eligibility: GiftEligibility | null }> {
  const { campaign, offer } = await loadOffer(ctx, campaignId, offerId);
  const view = campaignView(campaign, [offer], ctx.now);
  if (ctx.userId === null) return { campaign: view, offer, eligibility: null };
  return { campaign: view, offer, eligibility: await eligibilityOf(ctx.db, ctx.userId, ctx.channelId, view, offer) };
}

async function eligibilityOf(
  db: Db,
  userId: number,
  channelId: number,
  campaign: GiftCampaignView,
  offer: GiftOfferView,
): Promise<GiftEligibility> {
  const [quota] = await db
    .select({ taken: offerQuotas.taken })
    .from(offerQuotas)
    .where(and(eq(offerQuotas.offerId, Number(offer.id)), eq(offerQuotas.userId, userId)));
  const taken = quota?.taken ?? 0;
  if (campaign.status === 0) return { canReceive: false, reason: REASON.notOpen, taken };
  if (campaign.status === 2) return { canReceive: false, reason: REASON.ended, taken };
  if (taken >= offer.limitPerUser) return { canReceive: false, reason: REASON.received, taken };
  if (offer.remaining <= 0) return { canReceive: false, reason: REASON.soldOut, taken };
  if (offer.requires && !(await holdsCommodity(db, userId, channelId, Number(offer.requires.id))))
    return { canReceive: false, reason: REASON.notEligible, taken };
  return { canReceive: true, needsCode: offer.requiresCode, taken };
}

async function holdsCommodity(db: Db, userId: number, channelId: number, commodityId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: holdings.id })
    .from(holdings)
    .where(
      and(
        eq(holdings.userId, userId),
        eq(holdings.channelId, channelId),
        eq(holdings.commodityId, commodityId),
        isNull(holdings.destroyedAt),
        // A refunded copy (issue 32) no longer makes its buyer a holder.
        isNull(holdings.refundedAt),
      ),
    )
    .limit(1);
  return Boolean(row);
}

export type ClaimInput = { campaignId: number; offerId: number; code?: string; idempotencyKey: string };

/**
 * Receives a gift (goods/api/giftReceive/receive). The same idempotency key returns the same claim. Refusals:
 * not open / ended, already received (the per-user limit, held by the database), not eligible (the required
 * collectible is not held), none left, and any wrong code, which all get one answer and count against the
 * user's and the IP's wrong-code allowance.
 */
export async function claimGift(ctx: UserScope, input: ClaimInput): Promise<GiftClaimView> {
  return claimOnce({
    find: () => findByKey(ctx, input.idempotencyKey),
    make: () => receive(ctx, input),
    // Two copies of one tap raced: the loser rolled back (on the quota or the key); it answers with the winner's claim.
    lostRace: (error) => isUniqueViolation(error) || (error instanceof AppError && error.data?.reason === REASON.received),
  });
}

/** The checks, then the one transaction that receives the gift. */
async function receive(ctx: UserScope, input: ClaimInput): Promise<GiftClaimView> {
  const { campaign, offer } = await loadOffer(ctx, input.campaignId, input.offerId);
  const status = campaignStatus(campaign, ctx.now);
  if (status === 0)
    throw new AppError(409, msg('giftNotOpen', { at: campaign.startTime }), {
      reason: REASON.notOpen,
      startTime: campaign.startTime.toISOString(),
    });
  if (status === 2) throw new AppError(409, msg('giftEnded'), { reason: REASON.ended });
  const code = input.code?.trim() ?? '';
  if (offer.requiresCode && !code) throw new AppError(400, msg('giftNeedsCode'));
  // issue 33: the channel's real-name and age rules, before a code try or the quota is taken.
  await requireIdentityIn(ctx, 'receive', isBlindBoxCommodity(ctx.db, Number(offer.commodity.id)));
  if (offer.requires && !(await holdsCommodity(ctx.db, ctx.userId, ctx.channelId, Number(offer.requires.id)))) {
    throw new AppError(409, msg('giftHoldersOnly', { name: offer.requires.name }), { reason: REASON.notEligible });
  }
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
          limit: () => new AppError(409, msg('giftReceived'), { reason: REASON.received }),
          soldOut: () => new AppError(409, msg('giftSoldOut'), { reason: REASON.soldOut }),
        },
      );
      const commodity = { id: Number(offer.commodity.id), amountSku: offer.commodity.amountSku };
      return mintClaim(tx, {
        kind: 'gift',
        channelId: ctx.channelId,
        userId: ctx.userId,
        campaignId: input.campaignId,
        offerId: input.offerId,
        commodity,
        redeemCodeId,
        idempotencyKey: input.idempotencyKey,
        now: ctx.now,
      });
    });
    await attempt?.giveBack();
    return (await findClaim(ctx, eq(offerClaims.id, claimId)))!;
  } catch (error) {
    if (error instanceof CodeRefused) throw error.answer();
    await attempt?.giveBack();
    throw error;
  }
}

/**
 * The user's claim made with this key: a gift received on this channel, or a 409 when the key already served an
 * exchange or another channel (the key is unique per user across both, so it cannot make a second claim).
 */
async function findByKey(ctx: UserScope, key: string): Promise<GiftClaimView | null> {
  const [claim] = await ctx.db
    .select({ id: offerClaims.id })
    .from(offerClaims)
    .where(and(eq(offerClaims.userId, ctx.userId), eq(offerClaims.idempotencyKey, key)))
    .limit(1);
  if (!claim) return null;
  const gift = await findClaim(ctx, eq(offerClaims.id, claim.id));
  if (!gift) throw idempotencyKeyReused();
  return gift;
}

const claimColumns = {
  claim: offerClaims,
  campaignName: campaigns.name,
  commodity: commodities,
  number: holdings.number,
};

type ClaimRow = {
  claim: typeof offerClaims.$inferSelect;
  campaignName: string;
  commodity: typeof commodities.$inferSelect;
  number: number;
};

function claimView(r: ClaimRow): GiftClaimView {
  return {
    id: String(r.claim.id),
    campaign: { id: String(r.claim.campaignId), name: r.campaignName },
    offerId: String(r.claim.offerId),
    commodity: { id: String(r.commodity.id), name: r.commodity.name, cover: r.commodity.cover },
    holdingId: String(r.claim.holdingId),
    number: r.number,
    amountNumber: r.commodity.amountSku,
    byCode: r.claim.redeemCodeId !== null,
    createTime: r.claim.createdAt.toISOString(),
  };
}

async function findClaim(ctx: UserScope, where: ReturnType<typeof eq>): Promise<GiftClaimView | null> {
  const [row] = await ctx.db
    .select(claimColumns)
    .from(offerClaims)
    .innerJoin(campaigns, eq(campaigns.id, offerClaims.campaignId))
    .innerJoin(holdings, eq(holdings.id, offerClaims.holdingId))
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(and(where, eq(offerClaims.userId, ctx.userId), eq(offerClaims.channelId, ctx.channelId), eq(offerClaims.kind, 'gift')))
    .limit(1);
  return row ? claimView(row) : null;
}

/** My receive records (channel/userGiftReceivePage): the gifts the user received on this channel, newest first. */
export async function listReceived(ctx: UserScope, paging: Paging): Promise<Page<GiftClaimView>> {
  const where = and(eq(offerClaims.userId, ctx.userId), eq(offerClaims.channelId, ctx.channelId), eq(offerClaims.kind, 'gift'));
  const [totalRow] = await ctx.db.select({ value: count() }).from(offerClaims).where(where);
  const total = totalRow?.value ?? 0;
  const rows = await ctx.db
    .select(claimColumns)
    .from(offerClaims)
    .innerJoin(campaigns, eq(campaigns.id, offerClaims.campaignId))
    .innerJoin(holdings, eq(holdings.id, offerClaims.holdingId))
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(where)
    .orderBy(desc(offerClaims.createdAt), desc(offerClaims.id))
    .limit(paging.pageSize)
    .offset((paging.pageCount - 1) * paging.pageSize);
  return toPage(rows.map(claimView), total, paging);
}
