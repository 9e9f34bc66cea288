import { drizzle } from 'drizzle-orm/postgres-js';
import { eq, sql as raw } from 'drizzle-orm';
import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import { openEmbedded, type Embedded } from './embedded';
import { preparingStatements } from './statements';

const note = pgTable('statement_note', { id: serial('id').primaryKey(), body: text('body').notNull(), n: integer('n').notNull() });

type Client = { sql: postgres.Sql; close: () => Promise<void> };

/** The embedded database always; PostgreSQL too when the suite runs on it (one connection: one session to look into). */
const setups: [string, () => Promise<Client>][] = [
  [
    'embedded',
    async () => {
      const embedded: Embedded = openEmbedded(undefined);
      return { sql: embedded.sql, close: embedded.close };
    },
  ],
];
if (process.env.DATABASE_URL) {
  setups.push([
    'PostgreSQL',
    async () => {
      const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      const name = `statements_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      await admin.unsafe(`create database ${name}`);
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${name}`;
      const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
      return {
        sql,
        close: async () => {
          await sql.end();
          await admin.unsafe(`drop database ${name} with (force)`);
          await admin.end();
        },
      };
    },
  ]);
}

describe.each(setups)('statements drizzle sends, prepared once per connection (%s)', (_name, open) => {
  let client: Client;
  beforeEach(async () => {
    client = await open();
    await client.sql`create table statement_note (id serial primary key, body text not null, n integer not null)`;
  });
  afterEach(() => client.close());

  /** The session's prepared statements that drizzle wrote (it quotes the table's name; the setup's own do not). */
  async function preparedTexts(): Promise<string[]> {
    const rows = await client.sql<{ statement: string }[]>`select statement from pg_prepared_statements order by statement`;
    return rows.map((r) => r.statement).filter((t) => t.includes('"statement_note"'));
  }

  it('prepares a query with parameters once and reuses it, however often and however many at once it runs', async () => {
    const db = drizzle(preparingStatements(client.sql));
    await db.insert(note).values([
      { body: 'a', n: 1 },
      { body: 'b', n: 2 },
    ]);
    const reads = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        db
          .select({ body: note.body })
          .from(note)
          .where(eq(note.n, (i % 2) + 1)),
      ),
    );
    expect(reads.map((rows) => rows[0]?.body).slice(0, 4)).toEqual(['a', 'b', 'a', 'b']);
    const texts = await preparedTexts();
    // One statement for the insert and one for the read, not one per run.
    expect(texts.filter((t) => t.startsWith('select'))).toHaveLength(1);
    expect(texts.filter((t) => t.startsWith('insert'))).toHaveLength(1);
  });

  it('sends drizzle queries unprepared without the wrapper (what it changes)', async () => {
    const db = drizzle(client.sql);
    await db.select().from(note).where(eq(note.n, 1));
    expect(await preparedTexts()).toEqual([]);
  });

  it('prepares the statements of transactions and of their savepoints, which commit and roll back as before', async () => {
    const db = drizzle(preparingStatements(client.sql));
    await db.transaction(async (tx) => {
      await tx.insert(note).values({ body: 'kept', n: 1 });
      await tx
        .transaction(async (inner) => {
          await inner.update(note).set({ body: 'undone' }).where(eq(note.n, 1));
          throw new Error('roll the savepoint back');
        })
        .catch(() => undefined);
    });
    expect(await db.select({ body: note.body }).from(note)).toEqual([{ body: 'kept' }]);
    const texts = await preparedTexts();
    expect(texts.some((t) => t.startsWith('insert'))).toBe(true);
    expect(texts.some((t) => t.startsWith('update'))).toBe(true);
  });

  it('prepares at most the bound of distinct texts; the others run unprepared, with the same answers', async () => {
    const db = drizzle(preparingStatements(client.sql, 2));
    await db.insert(note).values({ body: 'x', n: 5 });
    const answers = [];
    for (let extra = 0; extra < 4; extra++) {
      // Four texts: the value of `extra` is part of the text, as an inlined value would be.
      answers.push(
        await db
          .select({ n: raw<number>`${note.n} + ${raw.raw(String(extra))}` })
          .from(note)
          .where(eq(note.body, 'x')),
      );
    }
    expect(answers.map((rows) => rows[0]?.n)).toEqual([5, 6, 7, 8]);
    // The insert and the first read took the two places.
    expect(await preparedTexts()).toHaveLength(2);
  });
});
