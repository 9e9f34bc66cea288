import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { buyerMessages, commodities, lotteryRanks, lotteryRegistrations, sales, type BuyerMessageKind } from '../db/schema';

/**
 * The lottery's in-app messages (issue 35: "notices tell winners"), beside its texts (lib/sale/lottery-texts.ts): when a
 * purchase round opens, every buyer it admits gets one message in their inbox (lib/notice/inbox.ts reads it): round 1's
 * winners `lotteryWon`, a later round's waitlist buyers `lotteryRound`, each with the goods' name and the window's end.
 *
 * ONE statement per round, in the round's transaction: the admitted ranks are read, joined to their registrations and
 * inserted in the database, whatever their number (the draw over 100,000 registrants stays within its 2 s). Nobody
 * else is written to: the registrants not drawn read their standing on the goods page and from `lottery/status`
 * (docs/drops.md). A round run again adds nothing (`buyer_messages_once`). Answers how many messages were added.
 *
 * The statement is here, not in lib/notice, because the notice layer sits above the sale layer (lib/layers.test.ts);
 * it writes the inbox's table as the texts write the SMS outbox's.
 */
export async function addLotteryRoundMessages(
  tx: Db,
  round: { saleId: number; round: number; from: number; through: number; endsAt: Date },
  now: Date,
): Promise<number> {
  const kind: BuyerMessageKind = round.round === 1 ? 'lotteryWon' : 'lotteryRound';
  const rows = await tx.execute<{ id: number }>(sql`insert into ${buyerMessages}
      (channel_id, user_id, kind, sale_id, params, created_at)
    select r.channel_id, r.user_id, ${kind}, ${round.saleId}::integer,
      jsonb_build_object('goods', g.name, 'until', ${round.endsAt.toISOString()}::text), ${now.toISOString()}::timestamptz
    from ${lotteryRanks} k
      inner join ${lotteryRegistrations} r on r.sale_id = k.sale_id and r.account_number = k.account_number
      cross join (select ${commodities.name} as name from ${sales} inner join ${commodities} on ${commodities.id} = ${sales.commodityId}
        where ${sales.id} = ${round.saleId}) g
    where k.sale_id = ${round.saleId} and k.rank between ${round.from} and ${round.through}
    on conflict (user_id, kind, sale_id) do nothing
    returning id`);
  return rowsOf(rows).length;
}

/** The rows of `execute`: PGlite answers `{rows}`, postgres.js an array. */
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
