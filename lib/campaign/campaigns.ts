import 'server-only';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { campaigns } from '../db/schema';
import { AppError } from '../api/errors';
import { campaignStatus, STATUS_ORDER, type CampaignStatus } from './status';

/**
 * Gift campaigns and exchange activities share one table and one shape (spec §2 receive and active pages): a campaign
 * of the channel with a window and its offers. Each feature reads its own offers (`offersOf`); this module reads the
 * campaigns around them.
 */
export type CampaignKind = 'gift' | 'exchange';
export type CampaignRow = typeof campaigns.$inferSelect;
type Ctx = { db: Db; now: Date; channelId: number };
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
export async function listCampaigns<Offer>(ctx: Ctx, kind: CampaignKind, offersOf: OffersOf<Offer>): Promise<CampaignView<Offer>[]> {
  const rows = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.channelId, ctx.channelId), eq(campaigns.kind, kind)))
    .orderBy(asc(campaigns.sort), desc(campaigns.startTime), asc(campaigns.id))
    .limit(100);
  const offers = await offersOf(ctx.db, rows.map((r) => r.id));
  return rows.map((r) => campaignView(r, offers.get(r.id) ?? [], ctx.now)).sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
}

/** One offer of one of the channel's campaigns of a kind; 404 with `notFound` when either is not there. */
export async function loadCampaignOffer<Offer extends { id: string }>(
  ctx: Ctx,
  kind: CampaignKind,
  ids: { campaignId: number; offerId: number },
  offersOf: OffersOf<Offer>,
  notFound: string,
): Promise<{ campaign: CampaignRow; offer: Offer }> {
  const [campaign] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, ids.campaignId), eq(campaigns.channelId, ctx.channelId), eq(campaigns.kind, kind)));
  const offer = campaign ? (await offersOf(ctx.db, [campaign.id])).get(campaign.id)?.find((o) => o.id === String(ids.offerId)) : undefined;
  if (!campaign || !offer) throw new AppError(404, notFound);
  return { campaign, offer };
}
