import 'server-only';
import { redirect } from 'next/navigation';
import { getDb } from '../db/client';
import { requirePageUser, type PageGuardChannel } from './session';
import { queryPayment } from '../payment/service';
import { configuredProviders } from '../payment/providers';
import type { OrderView } from '../order/schema';
import { foundOr404 } from './found';
import { pageLoader } from './loader';
import { ORDER_NO } from '../order/status';

const buyerOrder = pageLoader((channelId: number, userId: number, orderNo: string) => {
  const db = getDb();
  return foundOr404(queryPayment({ db, now: new Date(), channelId, userId, providers: configuredProviders(db) }, orderNo));
});

/**
 * The order a pay-result page shows (`?orderNo=`), as it truly stands: the provider is asked about open payments
 * first (the fallback for a late notification), once per request (lib/page/loader.ts). Needs the buyer's session;
 * another buyer's or a bad number → /404.
 */
export async function loadPageOrder(channel: PageGuardChannel, path: string, orderNo: string | string[] | undefined): Promise<OrderView> {
  const user = await requirePageUser(channel, path);
  const no = Array.isArray(orderNo) ? orderNo[0] : orderNo;
  if (!no || !ORDER_NO.test(no)) redirect('/404');
  return buyerOrder(channel.id, user.id, no);
}
