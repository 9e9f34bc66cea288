import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { makeSale } from '@/test/buying';
import { signedInOperator } from '@/test/operator-fixtures';
import { lotteryStory, type LotteryStory } from '@/test/lottery-fixtures';
import { sales } from '@/lib/db/schema';
import type { Db } from '@/lib/db/client';

/**
 * What the waiting room's tests share (issue 35; lib/sale/queue.test.ts, lib/sale/queue-watch.test.ts): a test API, an
 * owner signed in to the console (calls from `ip`), the AURORA channel, and sales that open an hour after the test's
 * start, put through a waiting room by the console's call.
 */
export type QueueStory = {
  api: TestApi;
  story: LotteryStory;
  aurora: number;
  /** When every sale here opens: an hour after the test's start. */
  opening: () => Date;
  atOpening: (ms: number) => Date;
  /** A sale of `copies` at 1 a buyer opening at `opening()`, through a waiting room whose joining opens 10 minutes before. */
  queueSale: (code: string, copies: number, settings?: Record<string, number>) => Promise<number>;
  /** A buyer's call scope on AURORA. */
  scope: (db: Db, userId: number, now: Date) => { db: Db; now: Date; channelId: number; userId: number };
};

export async function queueStory(owner: string, ip: string): Promise<QueueStory> {
  const api = await createTestApi();
  const signedIn = await signedInOperator(api.db, { name: owner, role: 'owner', now: new Date(api.now.getTime() - 60_000) });
  const story = lotteryStory(api, signedIn, ip);
  const aurora = await api.channelId('AURORA');
  const opening = () => new Date(api.now.getTime() + 60 * 60_000);
  return {
    api,
    story,
    aurora,
    opening,
    atOpening: (ms) => new Date(opening().getTime() + ms),
    queueSale: async (code, copies, settings = {}) => {
      const { saleId } = await makeSale(api.db, { code, amount: copies, limitPerUser: 1, now: api.now });
      await api.db.update(sales).set({ saleStartTime: opening() }).where(eq(sales.id, saleId));
      const set = await story.ops('/ops/api/sale/queue/set', { channel: 'AURORA', sale: code, joinMinutes: 10, ...settings });
      expect(set).toMatchObject({ code: 200 });
      return saleId;
    },
    scope: (db, userId, now) => ({ db, now, channelId: aurora, userId }),
  };
}
