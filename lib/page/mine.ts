import 'server-only';
import { getDb } from '../db/client';
import { accountNumberOf } from '../auth/account-numbers';
import { readMineSummary, type MineSummary } from '../buyer/mine-summary';
import { pageLoader } from './loader';

/**
 * What /mine shows of the logged-in buyer (issue 34): their counts, account number and verified name in one statement
 * (lib/buyer/mine-summary.ts). The account number is made on the buyer's first visit (issue 32: made on first need),
 * the only visit that costs more than the one read. One buyer's: never on a page served from the shared cache.
 */
export const pageMineSummary = pageLoader(async (channelId: number, userId: number): Promise<MineSummary & { accountNumber: string }> => {
  const db = getDb();
  const summary = await readMineSummary({ db, now: new Date(), channelId, userId });
  return { ...summary, accountNumber: summary.accountNumber ?? (await accountNumberOf(db, channelId, userId)) };
});
