import 'server-only';
import { eq, sql, type AnyColumn } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { preparedOn } from '../db/prepared';
import { buyerIdentities, orders, saleQuotas, users, type ChannelRow } from '../db/schema';
import { ageOn, dayIn, identityRequirement, parseIdentityPolicy } from '../channel/identity-policy';
import { translator } from '../i18n/translator';
import type { Locale } from '../i18n/locale';
import { cookieValues } from '../security/cookies';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import type { UserScope } from '../procedure/scope';
import { ORDER_STATUS } from './status';
import { expireOverdueOrders, readBuyTerms, termsRefusal } from './service';
import { buyerEarlyOpening } from '../sale/priority';
import { REASON } from '../procedure/reasons';
import { lotteryRankOf, lotteryStanding } from '../sale/lottery';

/**
 * What differs per buyer on /pay/:saleId (issue 34): the page's shared part (sale, channel, price, the options, the
 * terms) is served from the rendered-page cache to every buyer alike, so everything of one buyer comes from this one
 * small call, read in the browser (`saleRecord/payState`, docs/api.md). Never cached: it is a few indexed reads, and a
 * buy or a payment changes it at once.
 */
export const payStateSchema = z.object({
  saleId: z.string().describe('the sale asked about'),
  /** The sale's per-buyer limit. */
  limit: z.number().int().describe("the sale's per-buyer limit"),
  /** Copies the buyer holds of this sale in unpaid or paid orders (the quota the database keeps, DESIGN §7). */
  held: z.number().int().describe('copies the buyer holds of this sale in unpaid or paid orders'),
  /** How many more the buyer may buy (the limit less what they hold; never below 0). Stock is the page's business. */
  left: z.number().int().describe('how many more the buyer may buy: limit less held, never below 0'),
  /** The channel's real-name and age rules for this buy as they stand for this buyer (issue 33). */
  identity: z.object({
    standing: z.enum(['ok', 'unverified', 'underAge']).describe("against the channel's real-name and age rules for this buy"),
    /** The notice above Pay in the caller's language (the channel's rule, never the buyer's age); null when 'ok'. */
    message: z.string().nullable().describe("the notice above Pay in the caller's language; null when 'ok'"),
  }),
  /** The buyer's WeChat openid cookie is there (JSAPI inside WeChat needs it; pay/create checks its signature). */
  hasWechatIdentity: z.boolean().describe('the WeChat openid cookie is there (JSAPI inside WeChat needs it)'),
  /** The buyer's unpaid order of this sale still in time, newest, or null. */
  unpaidOrder: z.object({ orderNo: z.string(), quantity: z.number().int(), amount: z.number().int(), expireTime: z.string() }).nullable(),
  /** A lottery sale's admission (issue 35): whether this buyer may buy now, and if not why, in the caller's language. */
  lottery: z
    .object({
      status: z
        .enum(['notRegistered', 'registered', 'winner', 'waitlist'])
        .describe('as lottery/status: registered is waiting for the draw'),
      mayBuy: z.boolean().describe('a winner within their purchase window: order/create admits them'),
      round: z.number().int().nullable().describe('the purchase round that admitted the buyer: 1 for the winners, 2 on for the waitlist'),
      purchaseEndsAt: z.string().nullable().describe("an admitted buyer's purchase window's end (ISO 8601); null otherwise"),
      waitlistPosition: z
        .number()
        .int()
        .nullable()
        .describe("a waitlisted buyer's place among those still waiting, 1 next; null otherwise"),
      refusal: z
        .enum(['notRegistered', 'notDrawn', 'waitlist', 'windowOver'])
        .nullable()
        .describe("why order/create would refuse this buyer (its `data.lottery`, with reason notAdmitted); null when 'mayBuy'"),
      message: z.string().nullable().describe("order/create's refusal in the caller's language; null when 'mayBuy'"),
    })
    .nullable()
    .describe('null for a first-come sale'),
  /** issue 35, priority purchase: in a sale's early window, a buyer not eligible is told the sale's opening. */
  notOpenYet: z
    .string()
    .nullable()
    .describe(
      "in a priority purchase's early window, order/create's 'not open yet' for a buyer who is not eligible, in the caller's language; null otherwise",
    ),
});
export type PayState = z.infer<typeof payStateSchema>;

/**
 * The WeChat openid cookie's names (lib/payment/clients.ts `WECHAT_OPENID_COOKIE`, which sits a layer above orders):
 * `__Host-` over HTTPS, bare on plain HTTP. Its presence is what the pay page always asked (pay/create checks it).
 */
const WECHAT_OPENID_NAMES = ['__Host-wxpay_openid', 'wxpay_openid'];

type PayStateScope = UserScope & { channel: Pick<ChannelRow, 'identityPolicy' | 'timeZone'> };

/**
 * Everything of one buyer the pay page needs from the database, in ONE statement (issue 34: the call must cost about
 * what a no-op costs): the quota they hold of the sale, their newest unpaid order of it on this channel, and their
 * birth date (null: not verified), read whether or not the channel asks for it (a primary-key lookup costs
 * less than a second round trip).
 */
async function readHeld(ctx: PayStateScope, saleId: number) {
  const query = preparedOn(ctx.db, 'pay_state', (db: Db) => {
    const userId = sql.placeholder('userId');
    const sale = sql.placeholder('saleId');
    const channelId = sql.placeholder('channelId');
    const unpaid = (column: AnyColumn) => sql`(select ${column} from ${orders} where ${orders.userId} = ${userId}
      and ${orders.saleId} = ${sale} and ${orders.channelId} = ${channelId} and ${orders.statusTrade} = ${ORDER_STATUS.toPay}
      order by ${orders.createdAt} desc, ${orders.id} desc limit 1)`;
    return db
      .select({
        reserved: sql<number | null>`(select ${saleQuotas.reserved} from ${saleQuotas}
          where ${saleQuotas.saleId} = ${sale} and ${saleQuotas.userId} = ${userId})`,
        // One row of the order, as a JSON object: its columns come back together or not at all.
        unpaid: sql<UnpaidRow | string | null>`(select json_build_object('orderNo', o.order_no, 'quantity', o.quantity,
          'amount', o.amount, 'expiresAt', (extract(epoch from o.expires_at) * 1000)::float8) from ${orders} o where o.id = ${unpaid(orders.id)})`,
        // A verified buyer has a birth date (the column is not null), so null here is "not verified"; as text, since a
        // bare date would come back as a Date from one driver and a string from another.
        birthDate: sql<
          string | null
        >`(select ${buyerIdentities.birthDate}::text from ${buyerIdentities} where ${buyerIdentities.userId} = ${userId})`,
      })
      .from(users)
      .where(eq(users.id, userId))
      .prepare('pay_state');
  });
  const [row] = await query.execute({ userId: ctx.userId, saleId, channelId: ctx.channelId });
  const json = row?.unpaid ?? null;
  const unpaid = typeof json === 'string' ? (JSON.parse(json) as UnpaidRow) : json;
  return {
    reserved: Number(row?.reserved ?? 0),
    unpaid: unpaid
      ? { orderNo: unpaid.orderNo, quantity: Number(unpaid.quantity), amount: Number(unpaid.amount), expiresAt: new Date(unpaid.expiresAt) }
      : null,
    birthDate: row?.birthDate ?? null,
  };
}
type UnpaidRow = { orderNo: string; quantity: number; amount: number; expiresAt: number };

export async function readPayState(
  ctx: PayStateScope,
  saleId: number,
  request: { locale: Locale; cookieHeader: string | null },
): Promise<PayState> {
  const terms = await readBuyTerms(ctx.db, ctx.channelId, saleId);
  // Another channel's sale reads as none (spec §6: every object is checked to be the host channel's).
  if (!terms) throw new AppError(404, msg('saleNotFound'), { field: 'id' });
  let held = await readHeld(ctx, saleId);
  if (held.unpaid && held.unpaid.expiresAt <= ctx.now) {
    // Overdue but not yet swept: it gives its copies and quota back first, so what the buyer is told is true.
    await expireOverdueOrders(ctx.db, ctx.now, { userId: ctx.userId, saleId, limit: 20 });
    held = await readHeld(ctx, saleId);
  }
  const limit = terms.sale.limitPerUser;
  const requirement = identityRequirement(parseIdentityPolicy(ctx.channel.identityPolicy), 'buy', {
    blindBox: terms.commodity.isBlindBox,
  });
  let standing: PayState['identity']['standing'] = 'ok';
  if (requirement.realName) {
    if (held.birthDate === null) standing = 'unverified';
    else if (requirement.minAge !== null && ageOn(held.birthDate, dayIn(ctx.channel.timeZone, ctx.now)) < requirement.minAge)
      standing = 'underAge';
  }
  const t = translator(request.locale);
  const age = requirement.minAge ?? 0;
  const message =
    standing === 'unverified'
      ? requirement.minAge
        ? t('identity.noticeAge', { age })
        : t('identity.noticeRealName')
      : standing === 'underAge'
        ? t('identity.underAge', { age })
        : null;
  // A lottery sale's admission (issue 35): one more indexed read, the buyer's rank; none for a first-come sale.
  let lottery: PayState['lottery'] = null;
  if (terms.lottery) {
    const standing = lotteryStanding(terms.lottery, await lotteryRankOf(ctx.db, saleId, ctx.userId), ctx.now);
    lottery = {
      status: standing.status,
      mayBuy: standing.refusal === null,
      round: standing.round,
      purchaseEndsAt: standing.purchaseEndsAt?.toISOString() ?? null,
      waitlistPosition: standing.waitlistPosition,
      refusal: standing.refused,
      message: standing.refusal?.messageIn(request.locale, ctx.channel.timeZone) ?? null,
    };
  }
  // Priority purchase (issue 35): the page offers to pay from the early opening, to everyone alike (it is cached); a
  // buyer not eligible is told the sale's own opening here. One indexed read, only within the early window.
  let notOpenYet: string | null = null;
  if (terms.priority && ctx.now.getTime() < terms.sale.saleStartTime.getTime()) {
    const early = await buyerEarlyOpening(
      ctx.db,
      { saleId, saleStartTime: terms.sale.saleStartTime, priority: terms.priority },
      ctx.userId,
      ctx.now,
    );
    const refusal = termsRefusal(terms, { quantity: 1 }, ctx.now, early);
    if (refusal?.data?.reason === REASON.notOpen) notOpenYet = refusal.messageIn(request.locale, ctx.channel.timeZone);
  }
  const hasWechatIdentity = WECHAT_OPENID_NAMES.some((name) => cookieValues(request.cookieHeader, name).length > 0);
  return {
    saleId: String(saleId),
    limit,
    held: held.reserved,
    left: Math.max(0, limit - held.reserved),
    identity: { standing, message },
    hasWechatIdentity,
    unpaidOrder: held.unpaid
      ? {
          orderNo: held.unpaid.orderNo,
          quantity: held.unpaid.quantity,
          amount: held.unpaid.amount,
          expireTime: held.unpaid.expiresAt.toISOString(),
        }
      : null,
    lottery,
    notOpenYet,
  };
}
