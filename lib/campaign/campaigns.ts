import 'server-only';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { campaignOffers, campaigns, offerClaims, offerQuotas } from '../db/schema';
import { mintHoldings } from '../collection/mint';
import { AppError } from '../procedure/errors';
import { campaignStatus, STATUS_ORDER, type CampaignStatus } from './status';
import type { ChannelScope } from '../procedure/scope';
import type { ApiMessage } from '../procedure/messages';

/**
 * Gift campaigns and exchange activities share one table and one shape (spec §2 receive and active pages): a campaign
 * of the channel with a window and its offers. Each feature reads its own offers (`offersOf`); this module reads the
 * campaigns around them.
 */
export type CampaignKind = 'gift' | 'exchange';
export type CampaignRow = typeof campaigns.$inferSelect;
type OffersOf<Offer> = (db: Db, campaignIds: number[]) => Promise<Map<number, Offer[]>>;

export type CampaignView<Offer> = {
  id: string;
  name: string;
  description: string;
  cover: string;
  startTime: string;
  endTime: string | null;
  status: CampaignStatus;
  offers: Offer[];
};

export function campaignView<Offer>(c: CampaignRow, offers: Offer[], now: Date): CampaignView<Offer> {
  return {
    id: String(c.id),
    name: c.name,
    description: c.description,
    cover: c.cover,
    startTime: c.startTime.toISOString(),
    endTime: c.endTime?.toISOString() ?? null,
    status: campaignStatus(c, now),
    offers,
  };
}

/** The channel's campaigns of a kind with their offers: open ones first, then upcoming, then ended (at most 100). */
export async function listCampaigns<Offer>(
  ctx: ChannelScope,
  kind: CampaignKind,
  offersOf: OffersOf<Offer>,
): Promise<CampaignView<Offer>[]> {
  const rows = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.channelId, ctx.channelId), eq(campaigns.kind, kind)))
    .orderBy(asc(campaigns.sort), desc(campaigns.startTime), asc(campaigns.id))
    .limit(100);
  const offers = await offersOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => campaignView(r, offers.get(r.id) ?? [], ctx.now)).sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
}

/** One offer of one of the channel's campaigns of a kind; 404 with `notFound` when either is not there. */
export async function loadCampaignOffer<Offer extends { id: string }>(
  ctx: ChannelScope,
  kind: CampaignKind,
  ids: { campaignId: number; offerId: number },
  offersOf: OffersOf<Offer>,
  notFound: ApiMessage,
): Promise<{ campaign: CampaignRow; offer: Offer }> {
  const [campaign] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, ids.campaignId), eq(campaigns.channelId, ctx.channelId), eq(campaigns.kind, kind)));
  const offer = campaign ? (await offersOf(ctx.db, [campaign.id])).get(campaign.id)?.find((o) => o.id === String(ids.offerId)) : undefined;
  if (!campaign || !offer) throw new AppError(404, notFound);
  return { campaign, offer };
}

/**
 * Takes one of an offer inside the caller's transaction: the user's quota (the database refuses more than the offer's
 * limit, even under concurrent taps) and then the stock. Throws the caller's refusal for either, which undoes the
 * transaction.
 */
export async function takeFromOffer(
  tx: Db,
  input: { offerId: number; userId: number; limitPerUser: number },
  refusals: { limit: () => AppError; soldOut: () => AppError },
): Promise<void> {
  const [quota] = await tx
    .insert(offerQuotas)
    .values({ offerId: input.offerId, userId: input.userId, taken: 1, maxTaken: input.limitPerUser })
    .onConflictDoUpdate({
      target: [offerQuotas.offerId, offerQuotas.userId],
      set: { taken: sql`${offerQuotas.taken} + 1` },
      setWhere: sql`${offerQuotas.taken} + 1 <= ${offerQuotas.maxTaken}`,
    })
    .returning({ taken: offerQuotas.taken });
  if (!quota) throw refusals.limit();
  const [stock] = await tx
    .update(campaignOffers)
    .set({ remaining: sql`${campaignOffers.remaining} - 1` })
    .where(and(eq(campaignOffers.id, input.offerId), sql`${campaignOffers.remaining} >= 1`))
    .returning({ remaining: campaignOffers.remaining });
  if (!stock) throw refusals.soldOut();
}

/**
 * Mints the offer's collectible for the user and records the claim (a gift received or an exchange made) inside the
 * caller's transaction; the claim's (user, idempotency key) is unique. Returns the claim's id.
 */
export async function mintClaim(
  tx: Db,
  input: {
    kind: CampaignKind;
    channelId: number;
    userId: number;
    campaignId: number;
    offerId: number;
    commodity: { id: number; amountSku: number };
    redeemCodeId: number | null;
    idempotencyKey: string;
    now: Date;
  },
): Promise<number> {
  const [holding] = await mintHoldings(tx, {
    channelId: input.channelId,
    userId: input.userId,
    commodity: input.commodity,
    quantity: 1,
    source: input.kind,
    now: input.now,
  });
  const [claim] = await tx
    .insert(offerClaims)
    .values({
      offerId: input.offerId,
      campaignId: input.campaignId,
      channelId: input.channelId,
      userId: input.userId,
      kind: input.kind,
      holdingId: holding!.id,
      redeemCodeId: input.redeemCodeId,
      idempotencyKey: input.idempotencyKey,
      createdAt: input.now,
    })
    .returning({ id: offerClaims.id });
  return claim!.id;
}
