import 'server-only';
import { randomInt } from 'node:crypto';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { blindBoxPrizes, boxDraws, commodities, editionCounters, holdings } from '../db/schema';
import { AppError } from '../procedure/errors';
import { mintHoldings } from './mint';
import { pickByRoll, totalWeight } from './draw';
import type { UserScope } from '../procedure/scope';
import { toPage, type Page, type Paging } from '../procedure/paging';
import type { HoldingView } from './schema';
import { msg } from '../procedure/messages';

function toView(h: typeof holdings.$inferSelect, c: typeof commodities.$inferSelect): HoldingView {
  return {
    id: String(h.id),
    commodity: {
      id: String(c.id),
      name: c.name,
      cover: c.cover,
      actualPicture: c.actualPicture,
      chainName: c.chainName,
      contractAddress: c.contractAddress,
      isBlindBox: c.isBlindBox,
    },
    commoditySku: { number: h.number, amountNumber: c.amountSku },
    chainStatus: h.chainStatus === 1 ? 1 : 0,
    tokenId: h.tokenId,
    tradeHash: h.tradeHash,
    createTime: h.createdAt.toISOString(),
    openTime: h.openedAt?.toISOString() ?? null,
  };
}

/** My collection (channel/queryTreasureSku): the buyer's collectibles on this channel, newest first; blind boxes live in /mine/box, destroyed ones in /mine/destory. */
export async function listCollection(ctx: UserScope, paging: Paging): Promise<Page<HoldingView>> {
  const where = and(
    eq(holdings.userId, ctx.userId),
    eq(holdings.channelId, ctx.channelId),
    eq(commodities.isBlindBox, false),
    isNull(holdings.destroyedAt),
    // Taken back by a refund (issue 32): gone from the collection like a destroyed one.
    isNull(holdings.refundedAt),
  );
  const [totalRow] = await ctx.db
    .select({ value: count() })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(where);
  const total = totalRow?.value ?? 0;
  const rows = await ctx.db
    .select({ h: holdings, c: commodities })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(where)
    .orderBy(desc(holdings.createdAt), desc(holdings.id))
    .limit(paging.pageSize)
    .offset((paging.pageCount - 1) * paging.pageSize);
  return toPage(
    rows.map((r) => toView(r.h, r.c)),
    total,
    paging,
  );
}

/** What counts as one of the buyer's boxes still to open: a blind-box holding of theirs on this channel, unopened. */
function unopenedBoxesOf(ctx: UserScope) {
  return and(
    eq(holdings.userId, ctx.userId),
    eq(holdings.channelId, ctx.channelId),
    eq(commodities.isBlindBox, true),
    isNull(holdings.openedAt),
    isNull(holdings.refundedAt),
  );
}

/** How many boxes the buyer has still to open, all of them (Mine's summary), not the first page of the list. */
export async function countUnopenedBoxes(ctx: UserScope): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(unopenedBoxesOf(ctx));
  return row?.n ?? 0;
}

/** My blind boxes (channel/queryBox): the buyer's unopened boxes on this channel, oldest first (open them in order). */
export async function listUnopenedBoxes(ctx: UserScope): Promise<HoldingView[]> {
  const rows = await ctx.db
    .select({ h: holdings, c: commodities })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(unopenedBoxesOf(ctx))
    .orderBy(holdings.createdAt, holdings.id)
    .limit(200);
  return rows.map((r) => toView(r.h, r.c));
}

/**
 * Opens one of the buyer's boxes (DESIGN §7): marks it opened (only once, even when two taps race), draws a prize with
 * `crypto.randomInt` over the published weights of prizes that still have editions left, mints it, and records the
 * draw. One transaction: a failure leaves the box unopened.
 */
export async function openBox(
  ctx: UserScope,
  holdingId: number,
  random: (max: number) => number = (max) => randomInt(max),
): Promise<{ box: HoldingView; prize: HoldingView }> {
  return ctx.db.transaction(async (tx) => {
    const [box] = await tx
      .select({ h: holdings, c: commodities })
      .from(holdings)
      .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
      .where(
        and(
          eq(holdings.id, holdingId),
          eq(holdings.userId, ctx.userId),
          eq(holdings.channelId, ctx.channelId),
          isNull(holdings.refundedAt),
        ),
      )
      .limit(1);
    if (!box || !box.c.isBlindBox) throw new AppError(404, msg('boxNotFound'));
    // Not once refunded (issue 32): a refund that took the box meanwhile wins, and the box has nothing to open.
    const [opened] = await tx
      .update(holdings)
      .set({ openedAt: ctx.now })
      .where(and(eq(holdings.id, holdingId), isNull(holdings.openedAt), isNull(holdings.refundedAt)))
      .returning();
    if (!opened) throw new AppError(409, msg('boxOpen'));

    const prizes = await tx
      .select({ commodity: commodities, weight: blindBoxPrizes.weight, minted: editionCounters.minted })
      .from(blindBoxPrizes)
      .innerJoin(commodities, eq(commodities.id, blindBoxPrizes.prizeCommodityId))
      .leftJoin(editionCounters, eq(editionCounters.commodityId, commodities.id))
      .where(eq(blindBoxPrizes.boxCommodityId, box.c.id))
      .orderBy(blindBoxPrizes.prizeCommodityId);
    const available = prizes
      .filter((p) => (p.minted ?? 0) < p.commodity.amountSku)
      .map((p) => ({ commodityId: p.commodity.id, weight: p.weight, commodity: p.commodity }));
    const total = totalWeight(available);
    if (total === 0) throw new AppError(409, msg('boxEmpty'));
    const roll = random(total);
    const pick = pickByRoll(available, roll);
    const [prize] = await mintHoldings(tx, {
      channelId: ctx.channelId,
      userId: ctx.userId,
      commodity: pick.commodity,
      quantity: 1,
      fromBoxId: holdingId,
      now: ctx.now,
    });
    await tx.insert(boxDraws).values({
      boxHoldingId: holdingId,
      prizeHoldingId: prize!.id,
      prizeCommodityId: pick.commodityId,
      roll,
      totalWeight: total,
      weights: Object.fromEntries(available.map((p) => [String(p.commodityId), p.weight])),
      createdAt: ctx.now,
    });
    return { box: toView(opened, box.c), prize: toView(prize!, pick.commodity) };
  });
}
