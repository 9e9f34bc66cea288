import 'server-only';
import { redirect } from 'next/navigation';
import { getDb } from '../db/client';
import { AppError } from '../procedure/errors';
import { requirePageUser } from './session';
import { queryPayment } from '../payment/service';
import { configuredProviders } from '../payment/providers';
import type { OrderView } from '../order/service';

/**
 * The order a pay-result page shows (`?orderNo=`), as it truly stands: the provider is asked about open payments
 * first (the fallback for a late notification). Needs the buyer's session; another buyer's or a bad number → /404.
 */
export async function loadPageOrder(
  channel: { id: number; key: string },
  path: string,
  orderNo: string | string[] | undefined,
): Promise<OrderView> {
  const user = await requirePageUser(channel, path);
  const no = Array.isArray(orderNo) ? orderNo[0] : orderNo;
  if (!no || !/^\d{22}$/.test(no)) redirect('/404');
  const db = getDb();
  try {
    return await queryPayment({ db, now: new Date(), channelId: channel.id, userId: user.id, providers: configuredProviders(db) }, no);
  } catch (error) {
    if (error instanceof AppError && error.code === 404) redirect('/404');
    throw error;
  }
}
