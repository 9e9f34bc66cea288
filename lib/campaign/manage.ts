import 'server-only';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { campaignOffers, campaigns, commodities, offerInputs, offerQuotas, redeemCodes } from '../db/schema';
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
  /**
   * How many buyers took one of its offers so far (gifts received, exchanges made): once above 0, its opening time is
   * what they relied on and stays (issue 32); the console shows it read-only with the reason.
   */
  taken: number;
};

const recordOf = (c: CampaignRow, taken: number): CampaignRecord => ({
  id: c.id,
  kind: c.kind as CampaignKind,
  code: c.code,
  name: c.name,
  description: c.description,
  cover: c.cover,
  startTime: c.startTime.toISOString(),
  endTime: c.endTime?.toISOString() ?? null,
  sort: c.sort,
  taken,
});

/**
 * How many were taken from the campaigns' offers (total - remaining, which a claim lowers in its transaction), per
 * campaign. `lock`: under the offers' row locks, so a claim in flight (it updates its offer's row) is counted once it
 * commits, and one that starts after waits for the edit: a frozen term cannot change under a claim.
 */
async function takenOf(db: Db, campaignIds: number[], lock = false): Promise<Map<number, number>> {
  const taken = new Map<number, number>(campaignIds.map((id) => [id, 0]));
  if (!campaignIds.length) return taken;
  const query = db
    .select({ campaignId: campaignOffers.campaignId, total: campaignOffers.total, remaining: campaignOffers.remaining })
    .from(campaignOffers)
    .where(inArray(campaignOffers.campaignId, campaignIds));
  for (const o of lock ? await query.for('update') : await query)
    taken.set(o.campaignId, (taken.get(o.campaignId) ?? 0) + o.total - o.remaining);
  return taken;
}

/** issue 32: a term buyers relied on, asked to change after the first of them took it. Names the field. */
function frozen(field: 'startTime' | 'commodity' | 'requires' | 'requiresCode' | 'inputs'): AppError {
  return new AppError(400, msg('campaignEditFrozen', { field }), { field });
}

/** issue 32: a window that closes before it opens is refused, naming `endTime`. Shared with chain-up campaigns. */
export function checkWindow(w: { startTime: Date; endTime: Date | null }): void {
  if (w.endTime && w.endTime.getTime() <= w.startTime.getTime()) throw new AppError(400, msg('opsCampaignClosesBeforeOpening'));
}

/** One of the channel's campaigns (of any kind), or 404 naming `campaignId`. */
export async function campaignOfChannel(db: Db, channelId: number, campaignId: number, lock = false): Promise<CampaignRow> {
  const query = db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.channelId, channelId)));
  const [row] = lock ? await query.for('update') : await query;
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
      const after = recordOf(row!, 0);
      await audit(tx, { channelId: input.channelId, before: null, after });
      return after;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(400, msg('opsCampaignCodeTaken'));
    throw error;
  }
}

/**
 * Edits a campaign's code, words, picture, window and order (its kind stays). Same refusals as `createCampaign`; once a
 * buyer took one of its offers, a changed opening time is refused naming `startTime` (issue 32: like a sale's frozen
 * terms); the closing time may still move, earlier or later.
 */
export async function updateCampaign(
  db: Db,
  input: { channelId: number; campaignId: number } & CampaignFields,
  audit: CampaignAudit = noAudit,
): Promise<CampaignRecord> {
  checkWindow(input);
  try {
    return await writeInvalidating(db, async (tx, changed) => {
      const row0 = await campaignOfChannel(tx, input.channelId, input.campaignId, true);
      const taken = (await takenOf(tx, [row0.id], true)).get(row0.id) ?? 0;
      const before = recordOf(row0, taken);
      if (taken > 0 && input.startTime.getTime() !== row0.startTime.getTime()) throw frozen('startTime');
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
      const after = recordOf(row!, taken);
      await audit(tx, { channelId: input.channelId, before, after });
      return after;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(400, msg('opsCampaignCodeTaken'));
    throw error;
  }
}

/**
 * Ends a campaign now (drop day: a gift given by mistake, an exchange to stop): its closing time becomes `now`, so the
 * store shows it ended and refuses claims from this moment. One not open yet closes unopened (its opening moves to
 * `now` too: nobody relied on it). Refused: one already ended (`campaignId`).
 */
export async function endCampaignNow(
  db: Db,
  input: { channelId: number; campaignId: number; now: Date },
  audit: CampaignAudit = noAudit,
): Promise<CampaignRecord> {
  return writeInvalidating(db, async (tx, changed) => {
    const row0 = await campaignOfChannel(tx, input.channelId, input.campaignId, true);
    if (row0.endTime && row0.endTime.getTime() <= input.now.getTime()) throw new AppError(400, msg('campaignEditEnded'));
    const taken = (await takenOf(tx, [row0.id])).get(row0.id) ?? 0;
    const before = recordOf(row0, taken);
    changed([tags.campaigns(input.channelId)]);
    const [row] = await tx
      .update(campaigns)
      .set({ endTime: input.now, startTime: row0.startTime.getTime() > input.now.getTime() ? input.now : row0.startTime })
      .where(eq(campaigns.id, row0.id))
      .returning();
    const after = recordOf(row!, taken);
    await audit(tx, { channelId: input.channelId, before, after });
    return after;
  });
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

/** An offer's edit: the count, limit and order always; what it gives and asks (left out: unchanged) until first taken. */
export type OfferEdit = {
  channelId: number;
  offerId: number;
  total: number;
  limitPerUser: number;
  sort: number;
  commodityId?: number;
  requiresCommodityId?: number | null;
  requiresCode?: boolean;
  inputs?: { commodityId: number; quantity: number }[];
};

/** A recipe as one line per collectible (give A × 2 is one line with quantity 2; a repeated collectible adds up). */
function recipeLines(inputs: { commodityId: number; quantity: number }[]): Map<number, number> {
  const lines = new Map<number, number>();
  for (const i of inputs) lines.set(i.commodityId, (lines.get(i.commodityId) ?? 0) + i.quantity);
  return lines;
}

const sameRecipe = (a: Map<number, number>, b: Map<number, number>) => a.size === b.size && [...a].every(([c, q]) => b.get(c) === q);

/**
 * Edits an offer (issue 32). The count, per-buyer limit and order may always change; a count below what was taken is
 * refused (`total`). What it gives (`commodity`) and asks (`requires`, `requiresCode`, `inputs`) may change until a buyer
 * first takes it, then is refused naming the field, as a sale's terms freeze at its first order. All checked under the
 * offer's row lock, which a claim takes too (it lowers `remaining`), so a claim in flight cannot slip under the check.
 * Other refusals as `createOffer`, and an offer with redeem codes out keeps asking one (`requiresCode`).
 * A changed limit applies to buyers who took it already too: their quota rows follow it (never below what they took).
 */
export async function updateOffer(db: Db, input: OfferEdit, audit: CampaignAudit = noAudit): Promise<OfferRecord> {
  return writeInvalidating(db, async (tx, changed) => {
    const [locked] = await tx
      .select()
      .from(campaignOffers)
      .where(and(eq(campaignOffers.id, input.offerId), eq(campaignOffers.channelId, input.channelId)))
      .for('update');
    if (!locked) throw new AppError(404, msg('opsOfferNotFound'));
    const before = await offerOfChannel(tx, input.channelId, input.offerId);
    const exchange = before.kind === 'recipe';
    const taken = locked.total - locked.remaining;
    const commodityId = input.commodityId ?? before.commodityId;
    const requiresCommodityId = input.requiresCommodityId === undefined ? before.requiresCommodityId : input.requiresCommodityId;
    const requiresCode = input.requiresCode ?? before.requiresCode;
    const lines = recipeLines(input.inputs ?? before.inputs);
    const recipeChanged = !sameRecipe(lines, recipeLines(before.inputs));
    if (taken > 0) {
      if (commodityId !== before.commodityId) throw frozen('commodity');
      if (requiresCommodityId !== before.requiresCommodityId) throw frozen('requires');
      if (requiresCode !== before.requiresCode) throw frozen('requiresCode');
      if (recipeChanged) throw frozen('inputs');
    }
    if (input.total < taken) throw new AppError(400, msg('opsOfferTotalBelowTaken', { taken }));
    if (commodityId !== before.commodityId && !(await allOfChannel(tx, input.channelId, [commodityId])))
      throw new AppError(400, msg('opsOfferCommodityOtherChannel'));
    if (requiresCommodityId !== null && !(await allOfChannel(tx, input.channelId, [requiresCommodityId])))
      throw new AppError(400, msg('opsOfferRequiresOtherChannel'));
    if (exchange) {
      if (!lines.size) throw new AppError(400, msg('opsRecipeNoInput'));
      if (!(await allOfChannel(tx, input.channelId, [...lines.keys()]))) throw new AppError(400, msg('opsRecipeInputOtherChannel'));
    } else if (lines.size) {
      throw new AppError(400, msg('opsGiftNoInputs'));
    }
    if (before.requiresCode && !requiresCode) {
      // Codes handed out (printed, exported) are what their holders rely on, even before the first is used.
      const [code] = await tx.select({ id: redeemCodes.id }).from(redeemCodes).where(eq(redeemCodes.offerId, input.offerId)).limit(1);
      if (code) throw new AppError(400, msg('campaignEditCodesIssued'));
    }
    changed([tags.campaigns(input.channelId)]);
    const [row] = await tx
      .update(campaignOffers)
      .set({
        commodityId,
        total: input.total,
        remaining: input.total - taken,
        limitPerUser: input.limitPerUser,
        requiresCommodityId,
        requiresCode,
        sort: input.sort,
      })
      .where(eq(campaignOffers.id, input.offerId))
      .returning();
    if (recipeChanged) {
      await tx.delete(offerInputs).where(eq(offerInputs.offerId, input.offerId));
      await tx.insert(offerInputs).values([...lines].map(([c, quantity]) => ({ offerId: input.offerId, commodityId: c, quantity })));
    }
    if (input.limitPerUser !== before.limitPerUser)
      await tx
        .update(offerQuotas)
        .set({ maxTaken: sql`greatest(${offerQuotas.taken}, ${input.limitPerUser})` })
        .where(eq(offerQuotas.offerId, input.offerId));
    const after = offerRecord(
      row!,
      [...lines].map(([c, quantity]) => ({ commodityId: c, quantity })),
      exchange ? 'exchange' : 'gift',
    );
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
  const taken = await takenOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => recordOf(r, taken.get(r.id) ?? 0));
}

/** One campaign of the channel as the console shows it, with how many were taken; 404 naming `campaignId`. */
export async function campaignRecord(db: Db, channelId: number, campaignId: number): Promise<CampaignRecord> {
  const row = await campaignOfChannel(db, channelId, campaignId);
  return recordOf(row, (await takenOf(db, [row.id])).get(row.id) ?? 0);
}
