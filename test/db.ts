import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import type { Logger } from 'drizzle-orm/logger';
import * as schema from '@/lib/db/schema';
import { migrate } from '@/lib/db/migrate';
import type { Db } from '@/lib/db/client';
import { seed } from '@/lib/demo/seed';
import { tagNoticesSent } from '@/lib/cache/store';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default; with DATABASE_URL set, a
 * new database on that PostgreSQL server (dropped by close), so the same suite runs on both (DESIGN §9).
 * `logger` (drizzle's) sees every statement: lib/page/loader.test.tsx counts a request's.
 */
export async function createTestDb(options: { logger?: Logger } = {}): Promise<{ db: Db; close: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    if (!/@(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(url)) throw new Error('tests refuse to run against a non-local DATABASE_URL');
    // A throwaway database per test file (the migrations name the public schema, so a schema would not do).
    const name = `storefront_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const testUrl = new URL(url);
    testUrl.pathname = `/${name}`;
    const sql = postgres(testUrl.toString(), { max: 5, onnotice: () => {} });
    const db = drizzlePostgres(sql, { schema, logger: options.logger }) as unknown as Db;
    await migrate(db);
    return {
      db,
      close: async () => {
        await tagNoticesSent(db);
        await sql.end();
        await admin.unsafe(`drop database ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const client = new PGlite();
  const db = drizzlePglite(client, { schema, logger: options.logger }) as unknown as Db;
  await migrate(db);
  return {
    db,
    close: async () => {
      await tagNoticesSent(db);
      await client.close();
    },
  };
}

/**
 * The seeded database of one test file: registers its beforeAll (a fresh database from createTestDb, with the demo
 * seed as of `now`) and its afterAll (close), and returns the database to use at module level. What it returns stands
 * for that database, which exists from the first beforeAll on (a file's own beforeAll, registered after this call,
 * runs after the seed); using it before then throws.
 */
export function seededTestDb(now: Date): Db {
  let current: { db: Db; close: () => Promise<void> } | undefined;
  beforeAll(async () => {
    current = await createTestDb();
    await seed(current.db, now);
  });
  afterAll(async () => {
    // The notice of the file's last write (sent after it, lib/cache/store.ts) goes out before the database closes.
    await tagNoticesSent(stand);
    await current?.close();
    current = undefined;
  });
  const stand = new Proxy({} as Db, {
    get(_, property) {
      if (!current) throw new Error('the seeded database is used before its beforeAll ran (or after its afterAll)');
      const value = Reflect.get(current.db, property, current.db) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current.db) : value;
    },
  });
  return stand;
}
