import 'server-only';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { chainCampaigns, chainCodes, commodities } from '../db/schema';
import { tags, writeInvalidating } from '../cache/store';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { checkWindow, type CampaignAudit } from '../campaign/manage';
import { generateCode, hashCode, normalizeCode } from '../redeem-code/service';
import type { CodeType } from './schema';

/**
 * Chain-up campaigns in the console (issue 32, "chain-up campaigns and their product and certificate codes"): a
 * campaign names the collectible a chained-up code gives, its window and author; its codes (type 1 product, 2
 * certificate) are imported (printed on the goods elsewhere, as the demo's) or generated here and answered once, in
 * the call's answer, since only their hashes are kept (docs/security.md, "Redeem-code batches").
 */

export type ChainCampaignFields = {
  name: string;
  description: string;
  cover: string;
  commodityId: number;
  authorStageName: string;
  startTime: Date;
  endTime: Date | null;
  sort: number;
};

export type ChainCampaignRecord = Omit<ChainCampaignFields, 'startTime' | 'endTime'> & {
  id: number;
  startTime: string;
  endTime: string | null;
  /** Codes per type: how many there are and how many were used. */
  codes: { type: CodeType; total: number; used: number }[];
};

type Row = typeof chainCampaigns.$inferSelect;

async function recordOf(db: Db, r: Row): Promise<ChainCampaignRecord> {
  const counts = await db
    .select({ type: chainCodes.type, total: sql<number>`count(*)::int`, used: sql<number>`count(${chainCodes.usedBy})::int` })
    .from(chainCodes)
    .where(eq(chainCodes.campaignId, r.id))
    .groupBy(chainCodes.type)
    .orderBy(asc(chainCodes.type));
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    cover: r.cover,
    commodityId: r.commodityId,
    authorStageName: r.authorStageName,
    startTime: r.startTime.toISOString(),
    endTime: r.endTime?.toISOString() ?? null,
    sort: r.sort,
    codes: counts.map((c) => ({ type: c.type as CodeType, total: Number(c.total), used: Number(c.used) })),
  };
}

async function commodityCover(db: Db, channelId: number, commodityId: number): Promise<string> {
  const [c] = await db
    .select({ cover: commodities.cover })
    .from(commodities)
    .where(and(eq(commodities.id, commodityId), eq(commodities.channelId, channelId)));
  if (!c) throw new AppError(400, msg('opsOfferCommodityOtherChannel'));
  return c.cover;
}

async function campaignOfChannel(db: Db, channelId: number, id: number, lock = false): Promise<Row> {
  const query = db
    .select()
    .from(chainCampaigns)
    .where(and(eq(chainCampaigns.id, id), eq(chainCampaigns.channelId, channelId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError(404, msg('opsChainCampaignNotFound'));
  return row;
}

/** The channel's chain-up campaigns in their order, with their codes' counts. */
export async function listChainCampaigns(db: Db, channelId: number): Promise<ChainCampaignRecord[]> {
  const rows = await db
    .select()
    .from(chainCampaigns)
    .where(eq(chainCampaigns.channelId, channelId))
    .orderBy(asc(chainCampaigns.sort), asc(chainCampaigns.id))
    .limit(200);
  return Promise.all(rows.map((r) => recordOf(db, r)));
}

/** Creates a chain-up campaign. Refused: closing before opening (`endTime`), a collectible of another channel (`commodity`). */
export async function createChainCampaign(
  db: Db,
  input: { channelId: number } & ChainCampaignFields,
  audit?: CampaignAudit,
): Promise<ChainCampaignRecord> {
  checkWindow(input);
  const cover = input.cover || (await commodityCover(db, input.channelId, input.commodityId));
  await commodityCover(db, input.channelId, input.commodityId);
  return writeInvalidating(db, async (tx, changed) => {
    changed([tags.campaigns(input.channelId)]);
    const [row] = await tx
      .insert(chainCampaigns)
      .values({ ...input, cover })
      .returning();
    const after = await recordOf(tx, row!);
    await audit?.(tx, { channelId: input.channelId, before: null, after });
    return after;
  });
}

/** How many of the campaign's codes were chained up: once above 0, what it gives and its opening stay (issue 32). */
export const chainedUp = (c: ChainCampaignRecord) => c.codes.reduce((n, t) => n + t.used, 0);

/**
 * Edits a chain-up campaign. Same refusals as `createChainCampaign`; once a buyer chained up one of its codes, a
 * changed collectible (`commodity`) or opening time (`startTime`) is refused, naming the field (issue 32: what a buyer
 * relied on stays; the closing time may still move). A chain-up at the very moment of the edit is not serialized with
 * it (the chain-up locks its code, not the campaign): it may mint the old collectible, as it would have a moment before.
 */
export async function updateChainCampaign(
  db: Db,
  input: { channelId: number; campaignId: number } & ChainCampaignFields,
  audit?: CampaignAudit,
): Promise<ChainCampaignRecord> {
  checkWindow(input);
  const cover = input.cover || (await commodityCover(db, input.channelId, input.commodityId));
  await commodityCover(db, input.channelId, input.commodityId);
  return writeInvalidating(db, async (tx, changed) => {
    const row0 = await campaignOfChannel(tx, input.channelId, input.campaignId, true);
    const before = await recordOf(tx, row0);
    if (chainedUp(before) > 0) {
      if (input.commodityId !== row0.commodityId)
        throw new AppError(400, msg('campaignEditFrozen', { field: 'commodity' }), { field: 'commodity' });
      if (input.startTime.getTime() !== row0.startTime.getTime())
        throw new AppError(400, msg('campaignEditFrozen', { field: 'startTime' }), { field: 'startTime' });
    }
    changed([tags.campaigns(input.channelId)]);
    const { channelId, campaignId, ...fields } = input;
    void channelId;
    const [row] = await tx
      .update(chainCampaigns)
      .set({ ...fields, cover })
      .where(eq(chainCampaigns.id, campaignId))
      .returning();
    const after = await recordOf(tx, row!);
    await audit?.(tx, { channelId: input.channelId, before, after });
    return after;
  });
}

/** Ends a chain-up campaign now, as `endCampaignNow` does a gift's. Refused: one already ended (`campaignId`). */
export async function endChainCampaignNow(
  db: Db,
  input: { channelId: number; campaignId: number; now: Date },
  audit?: CampaignAudit,
): Promise<ChainCampaignRecord> {
  return writeInvalidating(db, async (tx, changed) => {
    const row0 = await campaignOfChannel(tx, input.channelId, input.campaignId, true);
    if (row0.endTime && row0.endTime.getTime() <= input.now.getTime()) throw new AppError(400, msg('campaignEditEnded'));
    const before = await recordOf(tx, row0);
    changed([tags.campaigns(input.channelId)]);
    const [row] = await tx
      .update(chainCampaigns)
      .set({ endTime: input.now, startTime: row0.startTime.getTime() > input.now.getTime() ? input.now : row0.startTime })
      .where(eq(chainCampaigns.id, row0.id))
      .returning();
    const after = await recordOf(tx, row!);
    await audit?.(tx, { channelId: input.channelId, before, after });
    return after;
  });
}

/**
 * Adds product or certificate codes to a chain-up campaign: the given ones (`codes`), or `generate` new ones, answered
 * in plain text this once. Refused naming `codes` and the line: a line that is not a code, a code given twice or held
 * already (codes are unique everywhere). The audit entry names the count, never the codes.
 */
export async function addChainCodes(
  db: Db,
  input: { channelId: number; campaignId: number; type: CodeType; codes?: string[]; generate?: number },
  audit?: CampaignAudit,
): Promise<{ campaign: ChainCampaignRecord; codes: string[] }> {
  const campaign = await campaignOfChannel(db, input.channelId, input.campaignId);
  const plain = input.codes ?? Array.from({ length: input.generate ?? 0 }, () => generateCode());
  const seen = new Map<string, number>();
  plain.forEach((line, i) => {
    const code = normalizeCode(line);
    if (!/^[0-9A-HJKMNP-TV-Z]{6,64}$/.test(code)) throw new AppError(400, msg('opsBatchImportInvalid', { line: i + 1 }));
    if (seen.has(code)) throw new AppError(400, msg('opsChainCodeDuplicate', { line: i + 1 }));
    seen.set(code, i + 1);
  });
  const hashes = [...seen.keys()].map((c) => hashCode(c));
  if (hashes.length) {
    const [taken] = await db.select({ hash: chainCodes.codeHash }).from(chainCodes).where(inArray(chainCodes.codeHash, hashes)).limit(1);
    if (taken) throw new AppError(400, msg('opsChainCodeDuplicate', { line: [...seen].find(([c]) => hashCode(c) === taken.hash)![1] }));
  }
  return writeInvalidating(db, async (tx, changed) => {
    changed([tags.campaigns(input.channelId)]);
    const before = await recordOf(tx, campaign);
    if (hashes.length)
      await tx.insert(chainCodes).values(hashes.map((codeHash) => ({ campaignId: campaign.id, codeHash, type: input.type })));
    const after = await recordOf(tx, campaign);
    await audit?.(tx, { channelId: input.channelId, before, after });
    return { campaign: after, codes: input.codes ? [] : plain };
  });
}

/** Whether a chain-up code is held already (any campaign): the seed imports its fixed codes once. */
export async function chainCodeExists(db: Db, code: string): Promise<boolean> {
  const [row] = await db
    .select({ id: chainCodes.id })
    .from(chainCodes)
    .where(eq(chainCodes.codeHash, hashCode(code)));
  return Boolean(row);
}
