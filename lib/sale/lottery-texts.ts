import 'server-only';
import { and, between, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { channels, commodities, lotteryRanks, lotteryRegistrations, sales, users } from '../db/schema';
import { env, SMS_LOTTERY_TEMPLATE_VARIABLE } from '../env';
import { queueTexts } from '../auth/sms-outbox';
import { translator } from '../i18n/translator';
import { isLocale } from '../i18n/locale';
import { formatDate } from '../format/date';

/** The goods' name in a text: carriers cap a template parameter (Alibaba Cloud: 20 characters for a name). */
const GOODS_MAX = 20;

/**
 * The lottery's texts (issue 35: "notices tell winners"): when a purchase round opens (round 1 at the draw, each later
 * one for the waitlist, lib/sale/lottery.ts), every buyer it admits is sent a text saying their turn to buy and its end,
 * queued in the SMS outbox in the round's transaction and sent by the jobs' passes (lib/auth/sms-outbox.ts). A carrier
 * sends its approved lottery template with `goods` and `until` (`MM-dd HH:mm` in the channel's time zone); the row's
 * text is the same message in the channel's language. With a carrier but no lottery template (it is optional,
 * lib/env.ts), nothing is queued: the goods page and `lottery/status` tell the buyer. Answers how many were queued.
 */
export async function queueLotteryTexts(
  tx: Db,
  round: { saleId: number; round: number; from: number; through: number; endsAt: Date },
  now: Date,
): Promise<number> {
  const e = env();
  const variable = SMS_LOTTERY_TEMPLATE_VARIABLE[e.SMS_PROVIDER];
  if (variable && !e[variable]) return 0;
  const admitted = await tx
    .select({
      channelId: lotteryRegistrations.channelId,
      phone: users.phone,
      goods: commodities.name,
      locale: channels.locale,
      timeZone: channels.timeZone,
    })
    .from(lotteryRanks)
    .innerJoin(
      lotteryRegistrations,
      and(eq(lotteryRegistrations.saleId, lotteryRanks.saleId), eq(lotteryRegistrations.accountNumber, lotteryRanks.accountNumber)),
    )
    .innerJoin(users, eq(users.id, lotteryRegistrations.userId))
    .innerJoin(sales, eq(sales.id, lotteryRegistrations.saleId))
    .innerJoin(commodities, eq(commodities.id, sales.commodityId))
    .innerJoin(channels, eq(channels.id, lotteryRegistrations.channelId))
    .where(and(eq(lotteryRanks.saleId, round.saleId), between(lotteryRanks.rank, round.from, round.through)));
  const texts = admitted.map((buyer) => {
    const t = translator(isLocale(buyer.locale) ? buyer.locale : 'zh-CN');
    const goods = buyer.goods.slice(0, GOODS_MAX);
    const until = formatDate(round.endsAt, 'MM-dd HH:mm', buyer.timeZone);
    return {
      channelId: buyer.channelId,
      phone: buyer.phone,
      text: t(round.round === 1 ? 'lotteryText.won' : 'lotteryText.turn', { goods, until }),
      params: [
        ['goods', goods],
        ['until', until],
      ] as [string, string][],
    };
  });
  return queueTexts(tx, texts, 'lottery', now);
}
