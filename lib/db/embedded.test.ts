import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { openEmbedded, type Embedded } from './embedded';
import { migrate } from './migrate';
import type { Db } from './client';
import * as schema from './schema';

/** The embedded database in its own thread (lib/db/embedded.ts), as the server opens it without DATABASE_URL. */
describe('the embedded database in its own thread', () => {
  let dir: string;
  let embedded: Embedded | undefined;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'storefront-embedded-'));
  });
  afterEach(async () => {
    await embedded?.close();
    embedded = undefined;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers statements, keeps concurrent calls apart, and survives a failed statement and a failed transaction', async () => {
    embedded = openEmbedded(path.join(dir, 'a'));
    const { sql } = embedded;
    await sql`create table note (id serial primary key, body text not null)`;
    const ids = await Promise.all(
      Array.from({ length: 40 }, (_, i) => sql<{ id: number }[]>`insert into note (body) values (${`n${i}`}) returning id`),
    );
    expect(new Set(ids.map(([row]) => row!.id)).size).toBe(40);

    await expect(sql`select * from missing_table`).rejects.toThrow(/missing_table/);
    await expect(
      sql.begin(async (tx) => {
        await tx`insert into note (body) values ('kept?')`;
        throw new Error('the buyer left');
      }),
    ).rejects.toThrow('the buyer left');

    const [counts] = await sql<{ all: number; kept: number }[]>`
      select count(*)::int as all, count(*) filter (where body = 'kept?')::int as kept from note`;
    expect(counts).toEqual({ all: 40, kept: 0 });
  });

  it('answers each query of a pipelined batch on its own, a failing one among them', async () => {
    embedded = openEmbedded(undefined);
    const { sql } = embedded;
    await sql`select 1`;
    // Sent together, in one batch: the failure is the middle query's alone.
    const answers = await Promise.allSettled([
      sql`select 1 as n`,
      sql`select 1 / ${0}::int as n`,
      sql`select 3 as n`,
      sql.begin(async (tx) => [await tx`select 4 as n`, await tx`select 5 as n`]),
      sql`select 6 as n`,
    ]);
    expect(answers.map((a) => (a.status === 'fulfilled' ? 'ok' : String((a.reason as Error).message)))).toEqual([
      'ok',
      'division by zero',
      'ok',
      'ok',
      'ok',
    ]);
    const last = answers[4]!;
    expect(last.status === 'fulfilled' ? [...last.value] : null).toEqual([{ n: 6 }]);
  });

  it('keeps its data under its directory across a close and a reopen, with the migrations applied once', async () => {
    embedded = openEmbedded(path.join(dir, 'b'));
    await migrate(drizzle(embedded.sql, { schema }) as unknown as Db);
    const [first] = await embedded.sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
    await embedded.sql`create table kept_note (body text)`;
    await embedded.sql`insert into kept_note values ('still here')`;
    await embedded.close();

    embedded = openEmbedded(path.join(dir, 'b'));
    await migrate(drizzle(embedded.sql, { schema }) as unknown as Db);
    const [again] = await embedded.sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(first!.n).toBeGreaterThan(0);
    expect(again!.n).toBe(first!.n);
    expect(await embedded.sql`select body from kept_note`).toEqual([{ body: 'still here' }]);
  });

  it('delivers notifications, sent alone or from a transaction, to a listener', async () => {
    embedded = openEmbedded(undefined);
    const payloads: string[] = [];
    await embedded.listen('sale_stock_returned', (payload) => payloads.push(payload));
    await embedded.sql`select pg_notify('sale_stock_returned', '7')`;
    await embedded.sql.begin(async (tx) => {
      await tx`select pg_notify('sale_stock_returned', '8')`;
      await tx`select pg_notify('another_channel', '9')`;
    });
    await embedded.sql`select 1`;
    expect(payloads).toEqual(['7', '8']);
  });

  it("refuses a second connection (postgres.js's own LISTEN) and keeps the first one working", async () => {
    embedded = openEmbedded(undefined);
    const { sql } = embedded;
    await sql`select 1`;
    await expect(sql.listen('sale_stock_returned', () => {})).rejects.toThrow(/one connection/);
    expect(await sql`select 2 as two`).toEqual([{ two: 2 }]);
  });

  it('leaves the request thread free while a statement runs', async () => {
    embedded = openEmbedded(undefined);
    await embedded.sql`select 1`;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = performance.now();
    // A statement long enough for several timer turns (PGlite in process would run it without yielding once).
    await embedded.sql`select count(*) from generate_series(1, 2000000) as n where n % 7 = 3`;
    const took = performance.now() - started;
    clearInterval(timer);
    expect(took).toBeGreaterThan(50);
    expect(ticks).toBeGreaterThanOrEqual(Math.max(1, Math.floor(took / 50)));
  });
});
