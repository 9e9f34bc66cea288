import 'server-only';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { commodities, holdings, holdingTransfers, users } from '../db/schema';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import type { ChannelScope, UserScope } from '../procedure/scope';
import { randomToken } from '../security/crypto';
import { CHAIN_STATUS } from '../collection/schema';
import type { AcquiredHow, CertificateView, OwnCertificateView } from './schema';
import { expireDueTransfers, giftStates, holdingHoursOf, lockOf, maskedBuyerName, maskedNameOf, provenanceOf } from './service';

/**
 * A held edition's certificate (issue 36; docs/gifting.md, "Certificate"): its owner's page under /mine and its public
 * page at an opaque code. The code is random (not the holding's id, not derived from it), made the first time the owner
 * opens the certificate and kept when the edition is given: a link shared once shows whoever holds it now.
 */

/** A public code: 16 random bytes, URL-safe (22 characters). */
export const CERTIFICATE_CODE = /^[A-Za-z0-9_-]{22}$/;

type Row = { h: typeof holdings.$inferSelect; c: typeof commodities.$inferSelect };

const SOURCES: Record<string, AcquiredHow> = { order: 'bought', box: 'box', gift: 'campaign', exchange: 'exchange', chainUp: 'chainUp' };

async function viewOf(db: Db, { h, c }: Row, code: string): Promise<CertificateView> {
  let acquired: CertificateView['acquired'] = { how: SOURCES[h.source] ?? 'bought', at: h.createdAt.toISOString(), from: null };
  if (h.receivedAt) {
    // Received as a gift: the giver of the last gift its holder accepted.
    const [gift] = await db
      .select({ senderId: holdingTransfers.senderId })
      .from(holdingTransfers)
      .where(and(eq(holdingTransfers.holdingId, h.id), eq(holdingTransfers.receiverId, h.userId), eq(holdingTransfers.status, 'accepted')))
      .orderBy(desc(holdingTransfers.answeredAt), desc(holdingTransfers.id))
      .limit(1);
    acquired = { how: 'gift', at: h.receivedAt.toISOString(), from: gift ? await maskedNameOf(db, gift.senderId) : null };
  }
  const [holder] = await db.select({ nickname: users.nickname, phone: users.phone }).from(users).where(eq(users.id, h.userId));
  return {
    holdingId: String(h.id),
    code,
    name: c.name,
    cover: c.cover,
    pictures: c.actualPicture,
    number: h.number,
    amountNumber: c.amountSku,
    chainName: c.chainName,
    onChain: h.chainStatus === CHAIN_STATUS.onChain,
    tokenId: h.tokenId,
    txHash: h.tradeHash,
    acquired,
    holder: holder ? maskedBuyerName(holder) : '****',
    provenance: await provenanceOf(db, h),
  };
}

/** Still in someone's collection: not spent in an exchange, not taken back by a refund, not an unopened blind box. */
const held = and(isNull(holdings.destroyedAt), isNull(holdings.refundedAt), eq(commodities.isBlindBox, false));

/**
 * The owner's certificate of one of their editions on this channel, with its Give state; its public code made on the
 * first visit. Another buyer's edition, or one no longer held: 404, as an unknown one.
 */
export async function ownCertificate(ctx: UserScope, holdingId: number): Promise<OwnCertificateView> {
  await expireDueTransfers(ctx.db, ctx.now, { holdingId });
  const [row] = await ctx.db
    .select({ h: holdings, c: commodities })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(and(eq(holdings.id, holdingId), eq(holdings.userId, ctx.userId), eq(holdings.channelId, ctx.channelId), held))
    .limit(1);
  if (!row) throw new AppError(404, msg('transferHoldingNotFound'));
  const code = row.h.shareCode ?? (await shareCodeOf(ctx.db, row.h.id));
  const hours = await holdingHoursOf(ctx.db, ctx.channelId);
  const lock = await lockOf(ctx.db, row.h, row.c.isBlindBox, hours, ctx.now);
  return {
    ...(await viewOf(ctx.db, row, code)),
    canGive: lock === null,
    why: lock?.why ?? null,
    from: lock?.from?.toISOString() ?? null,
  };
}

/** The edition's code, made once (of two first visits at once, one code wins and both answer it). */
async function shareCodeOf(db: Db, holdingId: number): Promise<string> {
  await db
    .update(holdings)
    .set({ shareCode: randomToken(16) })
    .where(and(eq(holdings.id, holdingId), isNull(holdings.shareCode)));
  const [row] = await db.select({ code: holdings.shareCode }).from(holdings).where(eq(holdings.id, holdingId));
  return row!.code!;
}

/**
 * The public certificate behind a code on this channel, for anyone: whoever holds the edition now, masked. Null for an
 * unknown code, another channel's, or an edition no longer held (the page answers the store's 404).
 */
export async function publicCertificate(ctx: ChannelScope, code: string): Promise<CertificateView | null> {
  if (!CERTIFICATE_CODE.test(code)) return null;
  const [row] = await ctx.db
    .select({ h: holdings, c: commodities })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(and(eq(holdings.shareCode, code), eq(holdings.channelId, ctx.channelId), held))
    .limit(1);
  if (!row) return null;
  await expireDueTransfers(ctx.db, ctx.now, { holdingId: row.h.id });
  return viewOf(ctx.db, row, code);
}

/**
 * The buyer's editions they could give now, for the page a receiver's gift code opens (newest first, up to 100): the
 * same rules as the Give action.
 */
export async function giftableEditions(
  ctx: UserScope,
): Promise<{ holdingId: string; name: string; cover: string; number: number; amountNumber: number }[]> {
  await expireDueTransfers(ctx.db, ctx.now, { userId: ctx.userId });
  const rows = await ctx.db
    .select({ h: holdings, c: commodities })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(
      and(eq(holdings.userId, ctx.userId), eq(holdings.channelId, ctx.channelId), held, eq(holdings.chainStatus, CHAIN_STATUS.onChain)),
    )
    .orderBy(desc(holdings.createdAt), desc(holdings.id))
    .limit(100);
  const states = await giftStates(
    ctx,
    rows.map((r) => r.h.id),
  );
  return rows
    .filter(({ h }) => states.get(h.id) === null)
    .map(({ h, c }) => ({ holdingId: String(h.id), name: c.name, cover: c.cover, number: h.number, amountNumber: c.amountSku }));
}
