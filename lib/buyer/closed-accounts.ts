import 'server-only';
import { and, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  agreementAcceptances,
  buyerIdentities,
  holdingTransfers,
  lotteryRegistrations,
  offerQuotas,
  orderRefunds,
  orders,
  payments,
  saleQuotas,
  users,
} from '../db/schema';

/**
 * What a closed account keeps for the stated period, deleted when it ends (issue 36; docs/security.md, "Closed
 * accounts"). An account is due `days` after it closed and after its last trade (an order made, paid or cancelled, a
 * refund asked or done, a gift sent or received and answered), whichever is later. Then go: the verified identity
 * (sealed name and number, keyed hash, masked forms), the agreements it accepted, its per-buyer quotas, the identity's
 * hash on its lottery registrations, and the WeChat payer's openid on its payments. The trade records themselves
 * (orders, payments, refunds, holdings, gifts) stay: the report's figures were counted from them, and they no longer
 * name anyone (the phone went at closing). Answers how many accounts' identities went.
 */
export async function sweepClosedAccounts(db: Db, now: Date, days: number): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 24 * 3600_000);
  // As ISO text: a raw SQL parameter reaches each driver as given.
  const before = sql`${cutoff.toISOString()}::timestamptz`;
  const due = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        isNotNull(users.closedAt),
        sql`${users.closedAt} < ${before}`,
        sql`not exists (select 1 from ${orders} where ${orders.userId} = ${users.id}
          and greatest(${orders.createdAt}, ${orders.payTime}, ${orders.cancelTime}) >= ${before})`,
        sql`not exists (select 1 from ${orderRefunds} join ${orders} on ${orders.id} = ${orderRefunds.orderId}
          where ${orders.userId} = ${users.id} and greatest(${orderRefunds.createdAt}, ${orderRefunds.doneAt}) >= ${before})`,
        sql`not exists (select 1 from ${holdingTransfers}
          where (${holdingTransfers.senderId} = ${users.id} or ${holdingTransfers.receiverId} = ${users.id})
          and greatest(${holdingTransfers.createdAt}, ${holdingTransfers.answeredAt}) >= ${before})`,
        sql`(exists (select 1 from ${buyerIdentities} where ${buyerIdentities.userId} = ${users.id})
          or exists (select 1 from ${agreementAcceptances} where ${agreementAcceptances.userId} = ${users.id})
          or exists (select 1 from ${saleQuotas} where ${saleQuotas.userId} = ${users.id})
          or exists (select 1 from ${offerQuotas} where ${offerQuotas.userId} = ${users.id})
          or exists (select 1 from ${lotteryRegistrations} where ${lotteryRegistrations.userId} = ${users.id}
            and ${lotteryRegistrations.identityHash} is not null)
          or exists (select 1 from ${payments} join ${orders} on ${orders.id} = ${payments.orderId}
            where ${orders.userId} = ${users.id} and ${payments.payerOpenid} is not null))`,
      ),
    )
    .limit(500);
  if (due.length === 0) return 0;
  const ids = due.map((u) => u.id);
  return db.transaction(async (tx) => {
    const gone = await tx.delete(buyerIdentities).where(inArray(buyerIdentities.userId, ids)).returning({ userId: buyerIdentities.userId });
    await tx.delete(agreementAcceptances).where(inArray(agreementAcceptances.userId, ids));
    await tx.delete(saleQuotas).where(inArray(saleQuotas.userId, ids));
    await tx.delete(offerQuotas).where(inArray(offerQuotas.userId, ids));
    await tx
      .update(lotteryRegistrations)
      .set({ identityHash: null })
      .where(and(inArray(lotteryRegistrations.userId, ids), isNotNull(lotteryRegistrations.identityHash)));
    await tx
      .update(payments)
      .set({ payerOpenid: null })
      .where(
        and(
          isNotNull(payments.payerOpenid),
          sql`${payments.orderId} in (select ${orders.id} from ${orders} where ${inArray(orders.userId, ids)})`,
        ),
      );
    return gone.length;
  });
}
