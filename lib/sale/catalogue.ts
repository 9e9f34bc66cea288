import 'server-only';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../db/client';
import { blindBoxPrizes, commodities, editionCounters, sales } from '../db/schema';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { isUniqueViolation } from '../db/errors';
import { writeInvalidating, tags } from '../cache/store';
import { editionBelowMinted, oddsAddUp, oddsTotal, percentOf } from './rules';

/**
 * The catalogue an operator keeps (issue 32, "Catalogue"): collectibles with their creator, publisher, series, pictures
 * (uploaded through lib/media and named here by their URL), edition size and chain information; and a blind box's
 * prizes with their odds in basis points and their values. Every write runs in one transaction with its audit entry
 * (`audit`, the row before and after) and drops the store's cached reads of the channel's sales (docs/caching.md).
 */

/** The audit hook of one console call (lib/operator/audit.ts `auditCall`), called inside the write's transaction. */
export type CatalogueAudit = (tx: Db, change: { channelId: number; before: unknown; after: unknown }) => Promise<void>;

/** What an operator writes of a collectible. */
export type CollectibleInput = {
  code: string;
  name: string;
  description: string;
  authorName: string;
  authorCover: string;
  publisherName: string;
  seriesName: string | null;
  cover: string;
  gallery: string[];
  amountSku: number;
  chainName: string;
  chainContract: string;
  contractAddress: string;
  isBlindBox: boolean;
};

/** A collectible as the console shows it: its fields and how many editions are minted. */
export type CollectibleView = CollectibleInput & { id: number; channelId: number; minted: number };

/** A prize of a box as the console writes it: which collectible, its odds (basis points) and value (fen). */
export type PrizeInput = { collectibleId: number; weight: number; value: number };
export type PrizeView = PrizeInput & { name: string; cover: string; percent: string };

type CommodityRow = typeof commodities.$inferSelect;

function toView(row: CommodityRow, minted: number | null): CollectibleView {
  return {
    id: row.id,
    channelId: row.channelId,
    code: row.code,
    name: row.name,
    description: row.description,
    authorName: row.authorName,
    authorCover: row.authorCover,
    publisherName: row.publisherName,
    seriesName: row.seriesName,
    cover: row.cover,
    gallery: row.actualPicture,
    amountSku: row.amountSku,
    chainName: row.chainName,
    chainContract: row.chainContract,
    contractAddress: row.contractAddress,
    isBlindBox: row.isBlindBox,
    minted: minted ?? 0,
  };
}

function columnsOf(input: CollectibleInput) {
  return {
    code: input.code,
    name: input.name,
    description: input.description,
    authorName: input.authorName,
    authorCover: input.authorCover,
    publisherName: input.publisherName,
    seriesName: input.seriesName,
    cover: input.cover,
    actualPicture: input.gallery,
    amountSku: input.amountSku,
    chainName: input.chainName,
    chainContract: input.chainContract,
    contractAddress: input.contractAddress,
    isBlindBox: input.isBlindBox,
  };
}

/** Every cached read that shows a collectible of the channel: the lists, and each sale's page and buy terms. */
async function catalogueTags(tx: Db, channelId: number, commodityId: number): Promise<string[]> {
  const saleIds = await tx.select({ id: sales.id }).from(sales).where(eq(sales.commodityId, commodityId));
  return [tags.sales(channelId), ...saleIds.flatMap((s) => [tags.sale(s.id), tags.saleTerms(s.id)])];
}

/** The channel's collectibles, newest last, with their minted counts. */
export async function listCollectibles(db: Db, channelId: number): Promise<CollectibleView[]> {
  const rows = await db
    .select({ c: commodities, minted: editionCounters.minted })
    .from(commodities)
    .leftJoin(editionCounters, eq(editionCounters.commodityId, commodities.id))
    .where(eq(commodities.channelId, channelId))
    .orderBy(asc(commodities.id));
  return rows.map((r) => toView(r.c, r.minted));
}

/** One collectible of the channel, or null (another channel's is not found). */
export async function findCollectible(db: Db, channelId: number, id: number): Promise<CollectibleView | null> {
  const [row] = await db
    .select({ c: commodities, minted: editionCounters.minted })
    .from(commodities)
    .leftJoin(editionCounters, eq(editionCounters.commodityId, commodities.id))
    .where(and(eq(commodities.id, id), eq(commodities.channelId, channelId)))
    .limit(1);
  return row ? toView(row.c, row.minted) : null;
}

async function collectibleOrRefuse(db: Db, channelId: number, id: number): Promise<CollectibleView> {
  const found = await findCollectible(db, channelId, id);
  if (!found) throw new AppError(404, msg('opsCollectibleNotFound'));
  return found;
}

/** Adds a collectible to the channel's catalogue; its code is unique in the channel (400 naming `code`). */
export async function createCollectible(
  db: Db,
  channelId: number,
  input: CollectibleInput,
  audit: CatalogueAudit,
): Promise<CollectibleView> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(commodities)
        .values({ channelId, ...columnsOf(input) })
        .returning();
      // The edition counter carries the size too (its check keeps minted within it: lib/collection/mint.ts).
      await tx.insert(editionCounters).values({ commodityId: row!.id, minted: 0, amountSku: input.amountSku });
      const view = toView(row!, 0);
      await audit(tx, { channelId, before: null, after: view });
      return view;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(400, msg('opsCollectibleCodeTaken'));
    throw error;
  }
}

/**
 * Changes a collectible. The edition size never goes below the editions already minted (400 naming `amountSku`); a
 * collectible that is a prize or has prizes keeps being a box or not (the box flag changes only while it has neither).
 */
export async function editCollectible(
  db: Db,
  channelId: number,
  id: number,
  input: CollectibleInput,
  audit: CatalogueAudit,
): Promise<CollectibleView> {
  try {
    return await writeInvalidating(db, async (tx, changed) => {
      const before = await collectibleOrRefuse(tx, channelId, id);
      // Read under the counter's row lock, so a mint racing this edit cannot slip past the new size.
      const [counter] = await tx.select().from(editionCounters).where(eq(editionCounters.commodityId, id)).for('update');
      const minted = counter?.minted ?? 0;
      if (editionBelowMinted(input.amountSku, minted)) throw new AppError(400, msg('opsEditionBelowMinted', { minted }));
      const [row] = await tx
        .update(commodities)
        .set(columnsOf(input))
        .where(and(eq(commodities.id, id), eq(commodities.channelId, channelId)))
        .returning();
      await tx
        .insert(editionCounters)
        .values({ commodityId: id, minted, amountSku: input.amountSku })
        .onConflictDoUpdate({ target: editionCounters.commodityId, set: { amountSku: input.amountSku } });
      const after = toView(row!, minted);
      await audit(tx, { channelId, before, after });
      changed(await catalogueTags(tx, channelId, id));
      return after;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(400, msg('opsCollectibleCodeTaken'));
    throw error;
  }
}

/** A box's prizes with their odds and values, most likely first. */
export async function listPrizes(db: Db, boxId: number): Promise<PrizeView[]> {
  const rows = await db
    .select({ p: blindBoxPrizes, name: commodities.name, cover: commodities.cover })
    .from(blindBoxPrizes)
    .innerJoin(commodities, eq(commodities.id, blindBoxPrizes.prizeCommodityId))
    .where(eq(blindBoxPrizes.boxCommodityId, boxId))
    .orderBy(asc(blindBoxPrizes.id));
  const total = rows.reduce((sum, r) => sum + r.p.weight, 0);
  return rows.map((r) => ({
    collectibleId: r.p.prizeCommodityId,
    weight: r.p.weight,
    value: r.p.value ?? 0,
    name: r.name,
    cover: r.cover,
    percent: percentOf(r.p.weight, total),
  }));
}

/**
 * Sets a box's prizes (issue 32, "Blind boxes"): each another collectible of the channel that is not a box, once, with
 * its odds in basis points and its value in fen; the odds add up to exactly 10000 (400 naming `prizes`, with the total
 * the operator typed), so what the page shows a buyer is what the draw uses (lib/collection/service.ts draws by these
 * weights). Replaces the box's prizes as a whole; the draws already made keep the weights they were drawn from.
 */
export async function setBoxPrizes(
  db: Db,
  channelId: number,
  boxId: number,
  prizes: readonly PrizeInput[],
  audit: CatalogueAudit,
): Promise<PrizeView[]> {
  if (!oddsAddUp(prizes)) throw new AppError(400, msg('opsBoxOddsTotal', { percent: percentOf(oddsTotal(prizes)) }));
  const ids = prizes.map((p) => p.collectibleId);
  if (new Set(ids).size !== ids.length) throw new AppError(400, msg('opsBoxPrizeTwice'));
  return writeInvalidating(db, async (tx, changed) => {
    const box = await collectibleOrRefuse(tx, channelId, boxId);
    if (!box.isBlindBox) throw new AppError(400, msg('opsBoxNotBox'));
    const found = await tx
      .select({ id: commodities.id })
      .from(commodities)
      .where(
        and(
          inArray(commodities.id, ids),
          eq(commodities.channelId, channelId),
          eq(commodities.isBlindBox, false),
          ne(commodities.id, boxId),
        ),
      );
    if (found.length !== ids.length) throw new AppError(400, msg('opsBoxPrizeUnknown'));
    const before = await listPrizes(tx, boxId);
    await tx.delete(blindBoxPrizes).where(eq(blindBoxPrizes.boxCommodityId, boxId));
    await tx
      .insert(blindBoxPrizes)
      .values(prizes.map((p) => ({ boxCommodityId: boxId, prizeCommodityId: p.collectibleId, weight: p.weight, value: p.value })));
    const after = await listPrizes(tx, boxId);
    await audit(tx, { channelId, before: { box: boxId, prizes: before }, after: { box: boxId, prizes: after } });
    changed(await catalogueTags(tx, channelId, boxId));
    return after;
  });
}
