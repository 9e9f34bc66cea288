import 'server-only';
import type { Db } from '../db/client';
import type { OperatorSession } from '../procedure/scope';
import { maskPhone } from '../auth/mask';
import { buyerByAccountNumber, findOnChannel, orderPage, searchKind, type BuyerView, type Found, type OrderPage } from '../buyer/service';
import { recordAudit } from './audit';

/**
 * Looks at buyers and orders from the console (issue 32, "Orders and buyers"), the same for the console's pages and its
 * API: the full phone to owners only, and every look its own entry in the audit trail (who looked at whom), found or
 * not, with a phone typed into the search masked there.
 */
export type Looker = { db: Db; operator: OperatorSession; channelId: number; ip: string; now: Date };

async function audit(who: Looker, procedure: string, input: Record<string, unknown>): Promise<void> {
  await recordAudit(who.db, {
    at: who.now,
    operatorId: who.operator.operatorId,
    operatorName: who.operator.name,
    ip: who.ip,
    channelId: who.channelId,
    procedure,
    input,
  });
}

export async function searchBuyersAndOrders(who: Looker, channel: string, query: string): Promise<Found> {
  const found = await findOnChannel(who.db, who.channelId, query, who.now);
  const asTyped = searchKind(query) === 'phone' ? maskPhone(query) : query;
  await audit(who, 'buyer/find', { channel, query: asTyped, found });
  return found;
}

export async function lookAtBuyer(who: Looker, channel: string, accountNumber: string): Promise<BuyerView | null> {
  const view = await buyerByAccountNumber(who.db, who.channelId, accountNumber, { fullPhone: who.operator.role === 'owner' });
  await audit(who, 'buyer/view', { channel, accountNumber, found: view !== null });
  return view;
}

export async function lookAtOrder(who: Looker, channel: string, orderNo: string): Promise<OrderPage | null> {
  const page = await orderPage(who.db, who.channelId, orderNo, { fullPhone: who.operator.role === 'owner', now: who.now });
  await audit(who, 'buyer/order', { channel, orderNo, found: page !== null, buyer: page?.accountNumber ?? null });
  return page;
}
