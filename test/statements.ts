import { eq } from 'drizzle-orm';
import { createTestDb } from '@/test/db';
import { seed } from '@/lib/demo/seed';
import { channels, type ChannelRow } from '@/lib/db/schema';
import type { Db } from '@/lib/db/client';
import { tagNoticesSent } from '@/lib/cache/store';

/**
 * A demo database that records every statement it runs, for tests that count what a hot path costs (issue 34's pay
 * state, issue 35's buy): `statementsOf(run)` answers the statements `run` made. On PostgreSQL a buy that moved stock
 * also tells the other processes (`pg_notify`, lib/cache/store.ts) after its answer: awaited, and left out of the count.
 */
export type CountingDb = {
  db: Db;
  close: () => Promise<void>;
  /** The demo channel AURORA's row, as the proxy hands it to a buyer's call. */
  channel: ChannelRow;
  statementsOf: (run: () => Promise<unknown>) => Promise<string[]>;
};

export async function countingTestDb(now: Date): Promise<CountingDb> {
  const statements: string[] = [];
  const { db, close } = await createTestDb({ logger: { logQuery: (query) => void statements.push(query) } });
  await seed(db, now);
  const [channel] = (await db.select().from(channels).where(eq(channels.key, 'AURORA'))) as [ChannelRow];
  const statementsOf = async (run: () => Promise<unknown>) => {
    await tagNoticesSent(db);
    statements.length = 0;
    await run();
    await tagNoticesSent(db);
    return statements.filter((query) => !/^select pg_notify\(/.test(query));
  };
  return { db, close, channel, statementsOf };
}
