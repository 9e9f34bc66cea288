import 'server-only';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { campaignOffers, campaigns, commodities, offerInputs } from '../db/schema';
import { writeInvalidating, tags } from '../cache/store';
import { isUniqueViolation } from '../db/errors';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import type { CampaignKind, CampaignRow } from './campaigns';

/**
 * Making and editing the channel's gift campaigns and exchange activities in the console (issue 32, "Campaigns"): the
 * campaign with its window, and its offers with their counts. One gift table serves the three kinds of gift the issue
 * names, told apart by what an offer asks (docs/decisions.md, "Gift kinds"): a collectible held (`requiresCommodityId`),
 * a redeem code (`requiresCode`), or nothing at all, a welcome gift (every buyer of the channel, once). An exchange
 * offer is a recipe: its `inputs` are spent, its collectible given. Every write leaves its audit entry in its own
 * transaction (`audit`), and drops the channel's cached campaign reads in every process.
 */

/** The audit hook of one write: the row before (none when it creates) and after, in the write's transaction. */
export type CampaignAudit = (tx: Db, change: { channelId: number; before: unknown; after: unknown }) => Promise<void>;

const noAudit: CampaignAudit = async () => {};

export type CampaignFields = {
  code: string;
  name: string;
  description: string;
  /** A picture for the list; empty: the first offer's collectible's cover. */
  cover: string;
  startTime: Date;
  endTime: Date | null;
  sort: number;
};

/** A campaign as the console shows it and the trail keeps it. */
export type CampaignRecord = {
  id: number;
  kind: CampaignKind;
  code: string;
  name: string;
  description: string;
  cover: string;
  startTime: string;
  endTime: string | null;
  sort: number;
};

const recordOf = (c: CampaignRow): CampaignRecord => ({
  id: c.id,
  kind: c.kind as CampaignKind,
  code: c.code,
  name: c.name,
  description: c.description,
  cover: c.cover,
  startTime: c.startTime.toISOString(),
  endTime: c.endTime?.toISOString() ?? null,
  sort: c.sort,
});

/** issue 32: a window that closes before it opens is refused, naming `endTime`. Shared with chain-up campaigns. */
export function checkWindow(w: { startTime: Date; endTime: Date | null }): void {
  if (w.endTime && w.endTime.getTime() <= w.startTime.getTime()) throw new AppError(400, msg('opsCampaignClosesBeforeOpening'));
}

/** One of the channel's campaigns (of any kind), or 404 naming `campaignId`. */
export async function campaignOfChannel(db: Db, channelId: number, campaignId: number): Promise<CampaignRow> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.channelId, channelId)));
  if (!row) throw new AppError(404, msg('opsCampaignNotFound'));
  return row;
}

/** Creates a gift campaign or exchange activity. Refused: closing before opening (`endTime`), a code the channel has (`code`). */
export async function createCampaign(
  db: Db,
  input: { channelId: number; kind: CampaignKind } & CampaignFields,
  audit: CampaignAudit = noAudit,
): Promise<CampaignRecord> {
  checkWindow(input);
  try {
    return await writeInvalidating(db, async (tx, changed) => {
      changed([tags.campaigns(input.channelId)]);
      const [row] = await tx
        .insert(campaigns)
        .values({
          channelId: input.channelId,
          kind: input.kind,
          code: input.code,
          name: input.name,
          description: input.description,
          cover: input.cover,
          startTime: input.startTime,
          endTime: input.endTime,
          sort: input.sort,
        })
        .returning();
      const after = recordOf(row!);
      await audit(tx, { channelId: input.channelId, before: null, after });
      return after;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(400, msg('opsCampaignCodeTaken'));
    throw error;
  }
}

/** Edits a campaign's words, picture and window (its kind stays). Same refusals as `createCampaign`. */
export async function updateCampaign(
  db: Db,
  input: { channelId: number; campaignId: number } & CampaignFields,
  audit: CampaignAudit = noAudit,
): Promise<CampaignRecord> {
  checkWindow(input);
  try {
    return await writeInvalidating(db, async (tx, changed) => {
      const before = recordOf(await campaignOfChannel(tx, input.channelId, input.campaignId));
      changed([tags.campaigns(input.channelId)]);
      const [row] = await tx
        .update(campaigns)
        .set({
          code: input.code,
          name: input.name,
          description: input.description,
          cover: input.cover || before.cover,
          startTime: input.startTime,
          endTime: input.endTime,
          sort: input.sort,
        })
        .where(eq(campaigns.id, input.campaignId))
        .returning();
      const after = recordOf(row!);
      await audit(tx, { channelId: input.channelId, before, after });
      return after;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(400, msg('opsCampaignCodeTaken'));
    throw error;
  }
}

/** What a gift offer is, from what it asks (docs/decisions.md, "Gift kinds"); exchange offers are recipes. */
export type OfferKind = 'holders' | 'code' | 'welcome' | 'recipe';

/** An offer as the console shows it and the trail keeps it. */
export type OfferRecord = {
  id: number;
  campaignId: number;
  kind: OfferKind;
  commodityId: number;
  total: number;
  remaining: number;
  /** How many were taken so far (total - remaining): the count can never go below it. */
  taken: number;
  limitPerUser: number;
  requiresCommodityId: number | null;
  requiresCode: boolean;
  inputs: { commodityId: number; quantity: number }[];
  sort: number;
};

type OfferRow = typeof campaignOffers.$inferSelect;

function offerRecord(o: OfferRow, inputs: { commodityId: number; quantity: number }[], campaignKind: CampaignKind): OfferRecord {
  const kind: OfferKind =
    campaignKind === 'exchange' ? 'recipe' : o.requiresCommodityId !== null ? 'holders' : o.requiresCode ? 'code' : 'welcome';
  return {
    id: o.id,
    campaignId: o.campaignId,
    kind,
    commodityId: o.commodityId,
    total: o.total,
    remaining: o.remaining,
    taken: o.total - o.remaining,
    limitPerUser: o.limitPerUser,
    requiresCommodityId: o.requiresCommodityId,
    requiresCode: o.requiresCode,
    inputs,
    sort: o.sort,
  };
}

/** The offers of a campaign of the channel, with their recipes, in their order. */
export async function listOffers(db: Db, channelId: number, campaignId: number): Promise<OfferRecord[]> {
  const campaign = await campaignOfChannel(db, channelId, campaignId);
  const rows = await db
    .select()
    .from(campaignOffers)
    .where(eq(campaignOffers.campaignId, campaignId))
    .orderBy(asc(campaignOffers.sort), asc(campaignOffers.id));
  const inputs = rows.length
    ? await db
        .select()
        .from(offerInputs)
        .where(
          inArray(
            offerInputs.offerId,
            rows.map((r) => r.id),
          ),
        )
    : [];
  return rows.map((r) =>
    offerRecord(
      r,
      inputs.filter((i) => i.offerId === r.id).map((i) => ({ commodityId: i.commodityId, quantity: i.quantity })),
      campaign.kind as CampaignKind,
    ),
  );
}

/** One offer of one of the channel's campaigns, or 404 naming `offerId`. */
export async function offerOfChannel(db: Db, channelId: number, offerId: number): Promise<OfferRecord & { channelId: number }> {
  const [row] = await db
    .select({ offer: campaignOffers, kind: campaigns.kind })
    .from(campaignOffers)
    .innerJoin(campaigns, eq(campaigns.id, campaignOffers.campaignId))
    .where(and(eq(campaignOffers.id, offerId), eq(campaignOffers.channelId, channelId)));
  if (!row) throw new AppError(404, msg('opsOfferNotFound'));
  const inputs = await db.select().from(offerInputs).where(eq(offerInputs.offerId, offerId));
  return {
    ...offerRecord(
      row.offer,
      inputs.map((i) => ({ commodityId: i.commodityId, quantity: i.quantity })),
      row.kind as CampaignKind,
    ),
    channelId,
  };
}

/** Whether every id is a collectible of the channel (issue 32: "a collectible of another channel" is refused). */
async function allOfChannel(db: Db, channelId: number, ids: number[]): Promise<boolean> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return true;
  const found = await db
    .select({ id: commodities.id })
    .from(commodities)
    .where(and(eq(commodities.channelId, channelId), inArray(commodities.id, wanted)));
  return found.length === wanted.length;
}

export type NewOffer = {
  channelId: number;
  campaignId: number;
  /** What a buyer gets: one numbered copy of this collectible of the channel. */
  commodityId: number;
  total: number;
  limitPerUser: number;
  /** Gifts for holders: a collectible of the channel the buyer must hold. */
  requiresCommodityId: number | null;
  /** Gifts by redeem code (and exchanges that also ask for one): one of the offer's codes, each used once. */
  requiresCode: boolean;
  /** Exchange recipes: what is spent per exchange (give A × 2 + B). */
  inputs: { commodityId: number; quantity: number }[];
  sort: number;
  /** Copies given before the store moved here (the demo's history): the offer starts with `total - given` left. */
  given?: number;
};

/**
 * Adds an offer to a campaign. Refused, naming the field: a collectible of another channel (`commodity`, `requires`,
 * `inputs`), an exchange recipe with no input (`inputs`), a gift with a recipe (`inputs`).
 */
export async function createOffer(db: Db, input: NewOffer, audit: CampaignAudit = noAudit): Promise<OfferRecord> {
  const campaign = await campaignOfChannel(db, input.channelId, input.campaignId);
  if (!(await allOfChannel(db, input.channelId, [input.commodityId]))) throw new AppError(400, msg('opsOfferCommodityOtherChannel'));
  if (input.requiresCommodityId !== null && !(await allOfChannel(db, input.channelId, [input.requiresCommodityId])))
    throw new AppError(400, msg('opsOfferRequiresOtherChannel'));
  if (campaign.kind === 'exchange') {
    if (!input.inputs.length) throw new AppError(400, msg('opsRecipeNoInput'));
    if (
      !(await allOfChannel(
        db,
        input.channelId,
        input.inputs.map((i) => i.commodityId),
      ))
    )
      throw new AppError(400, msg('opsRecipeInputOtherChannel'));
  } else if (input.inputs.length) {
    throw new AppError(400, msg('opsGiftNoInputs'));
  }
  return writeInvalidating(db, async (tx, changed) => {
    changed([tags.campaigns(input.channelId)]);
    const [offer] = await tx
      .insert(campaignOffers)
      .values({
        campaignId: campaign.id,
        channelId: input.channelId,
        commodityId: input.commodityId,
        total: input.total,
        remaining: input.total - (input.given ?? 0),
        limitPerUser: input.limitPerUser,
        requiresCommodityId: input.requiresCommodityId,
        requiresCode: input.requiresCode,
        sort: input.sort,
      })
      .returning();
    // One line per collectible: give A × 2 is one line with quantity 2 (a repeated collectible adds up).
    const lines = new Map<number, number>();
    for (const i of input.inputs) lines.set(i.commodityId, (lines.get(i.commodityId) ?? 0) + i.quantity);
    if (lines.size)
      await tx.insert(offerInputs).values([...lines].map(([commodityId, quantity]) => ({ offerId: offer!.id, commodityId, quantity })));
    if (!campaign.cover) {
      const [c] = await tx.select({ cover: commodities.cover }).from(commodities).where(eq(commodities.id, input.commodityId));
      await tx.update(campaigns).set({ cover: c!.cover }).where(eq(campaigns.id, campaign.id));
    }
    const after = offerRecord(
      offer!,
      [...lines].map(([commodityId, quantity]) => ({ commodityId, quantity })),
      campaign.kind as CampaignKind,
    );
    await audit(tx, { channelId: input.channelId, before: null, after });
    return after;
  });
}

/**
 * Changes an offer's count and per-buyer limit (what it gives and asks stays: buyers may already hold it). Refused:
 * a count below what was taken (`total`), checked under the row's lock so a claim in flight cannot slip under it.
 */
export async function updateOffer(
  db: Db,
  input: { channelId: number; offerId: number; total: number; limitPerUser: number; sort: number },
  audit: CampaignAudit = noAudit,
): Promise<OfferRecord> {
  return writeInvalidating(db, async (tx, changed) => {
    const [locked] = await tx
      .select()
      .from(campaignOffers)
      .where(and(eq(campaignOffers.id, input.offerId), eq(campaignOffers.channelId, input.channelId)))
      .for('update');
    if (!locked) throw new AppError(404, msg('opsOfferNotFound'));
    const before = await offerOfChannel(tx, input.channelId, input.offerId);
    const taken = locked.total - locked.remaining;
    if (input.total < taken) throw new AppError(400, msg('opsOfferTotalBelowTaken', { taken }));
    changed([tags.campaigns(input.channelId)]);
    const [row] = await tx
      .update(campaignOffers)
      .set({ total: input.total, remaining: input.total - taken, limitPerUser: input.limitPerUser, sort: input.sort })
      .where(eq(campaignOffers.id, input.offerId))
      .returning();
    const after = offerRecord(row!, before.inputs, before.kind === 'recipe' ? 'exchange' : 'gift');
    const { channelId: _c, ...beforeRecord } = before;
    void _c;
    await audit(tx, { channelId: input.channelId, before: beforeRecord, after });
    return after;
  });
}

/** The channel's campaigns of a kind, newest first (the console lists every one, at most 200). */
export async function listCampaignRecords(db: Db, channelId: number, kind: CampaignKind): Promise<CampaignRecord[]> {
  const rows = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.channelId, channelId), eq(campaigns.kind, kind)))
    .orderBy(asc(campaigns.sort), asc(campaigns.id))
    .limit(200);
  return rows.map(recordOf);
}
