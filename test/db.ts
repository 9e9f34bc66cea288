import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import type { Logger } from 'drizzle-orm/logger';
import * as schema from '@/lib/db/schema';
import { migrate, MIGRATIONS_FOLDER } from '@/lib/db/migrate';
import { preparingStatements } from '@/lib/db/statements';
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
    // As the store opens it (lib/db/client.ts): its statements prepared.
    const db = drizzlePostgres(preparingStatements(sql), { schema, logger: options.logger }) as unknown as Db;
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
  const client = await migratedPglite();
  const db = drizzlePglite(client, { schema, logger: options.logger }) as unknown as Db;
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
      // The driver's client (postgres.js's is a function) is a value, not a method of the database: handed as it is.
      if (property === '$client') return value;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current.db) : value;
    },
  });
  return stand;
}

/**
 * A new in-memory PGlite with every migration applied. Starting PGlite and migrating it costs about 3.5 s a file on
 * the two-core CI machine (and most test files make one); loading the data directory of a database migrated once
 * costs about 1 s. The migrated image is kept in node_modules/.cache, named after the migrations' contents and
 * PGlite's version, so a changed migration or a new PGlite makes a new one; the first file to need it makes it (files
 * running side by side may each make it; each writes it whole under a name of its own and renames it into place).
 */
async function migratedPglite(): Promise<PGlite> {
  const image = migratedImagePath();
  let bytes: Buffer | undefined;
  try {
    bytes = readFileSync(image);
  } catch {
    // Not made yet: made below.
  }
  if (bytes) {
    const client = new PGlite({ loadDataDir: new Blob([new Uint8Array(bytes)]) });
    try {
      await client.waitReady;
      return client;
    } catch (error) {
      console.warn(`[test db] the migrated image ${image} did not load; migrating afresh`, error);
      await client.close().catch(() => undefined);
    }
  }
  const client = new PGlite();
  await migrate(drizzlePglite(client, { schema }) as unknown as Db);
  const dump = Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
  mkdirSync(path.dirname(image), { recursive: true });
  const partial = `${image}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(partial, dump);
  renameSync(partial, image);
  return client;
}

function migratedImagePath(): string {
  const hash = createHash('sha256');
  const pglite = JSON.parse(readFileSync(path.join(process.cwd(), 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as {
    version: string;
  };
  hash.update(`pglite ${pglite.version}\n`);
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(`${path.relative(MIGRATIONS_FOLDER, full)}\n`).update(readFileSync(full));
    }
  };
  walk(MIGRATIONS_FOLDER);
  return path.join(process.cwd(), 'node_modules/.cache/storefront-test-db', `migrated-${hash.digest('hex').slice(0, 16)}.tar`);
}

/**
 * The transactions `db`'s driver is asked to open while `run` runs (postgres.js's `begin` on PostgreSQL, PGlite's
 * `transaction` in process), with what `run` answered: what holds a connection for more than one statement.
 */
export async function transactionsDuring<T>(db: Db, run: () => Promise<T>): Promise<{ value: T; transactions: number }> {
  const client = (db as unknown as { $client: Record<string, (...args: unknown[]) => unknown> }).$client;
  const method = typeof client === 'function' ? 'begin' : 'transaction';
  const original = client[method]!;
  let transactions = 0;
  client[method] = (...args: unknown[]) => {
    transactions++;
    return original.apply(client, args);
  };
  try {
    return { value: await run(), transactions };
  } finally {
    client[method] = original;
  }
}
