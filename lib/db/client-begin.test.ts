import postgres from 'postgres';
import { POSTGRES_OPTIONS } from './client';
import { openEmbedded, type Embedded } from './embedded';

/**
 * A transaction behind more statements in flight than postgres.js's default pipeline of 100 per connection, on the
 * database the store opens (lib/db/client.ts): PostgreSQL with its 10 connections when DATABASE_URL is set (`npm run
 * test:pg`), the embedded database otherwise. Before `max_pipeline` was lifted, a BEGIN that filled a pipeline failed
 * (UNSAFE_TRANSACTION on PostgreSQL after 1,009 statements in flight) and left its connection inside a transaction.
 */
it('commits a transaction sent behind 1,100 statements in flight, and the statements before and after it all land', async () => {
  const url = process.env.DATABASE_URL;
  let embedded: Embedded | null = null;
  const sql = url ? postgres(url, POSTGRES_OPTIONS) : (embedded = openEmbedded(undefined)).sql;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  const table = `begin_load_${process.pid}_${Date.now()}`;
  try {
    await sql`create table ${sql(table)} (id serial primary key, body text not null)`;
    // Every connection opened and warm, as under a drop's load.
    await Promise.all(Array.from({ length: 20 }, () => sql`select 1`));
    for (const before of [1_009, 1_100]) {
      const plain = Array.from({ length: before }, () => sql`insert into ${sql(table)} (body) values ('plain')`.execute());
      const inTransaction = sql.begin(async (tx) => {
        await tx`insert into ${tx(table)} (body) values ('tx')`;
        await tx`insert into ${tx(table)} (body) values ('tx')`;
        return 'committed';
      });
      const after = Array.from({ length: 20 }, () => sql`insert into ${sql(table)} (body) values ('after')`.execute());
      expect(await inTransaction).toBe('committed');
      await Promise.all([...plain, ...after]);
    }
    const counts = await sql<{ body: string; n: number }[]>`select body, count(*)::int as n from ${sql(table)} group by body order by body`;
    expect(counts).toEqual([
      { body: 'after', n: 40 },
      { body: 'plain', n: 2_109 },
      { body: 'tx', n: 4 },
    ]);
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await sql`drop table if exists ${sql(table)}`.catch(() => {});
    if (embedded) await embedded.close();
    else await sql.end();
  }
}, 60_000);
