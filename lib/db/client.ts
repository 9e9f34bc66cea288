import 'server-only';
import { mkdirSync } from 'node:fs';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { env } from '../env';

/** Both drivers share the PostgreSQL dialect; services see only this. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Opens the database: PostgreSQL when DATABASE_URL is set, else embedded PGlite under PGLITE_DIR (DESIGN §1). */
export function openDb(): { db: Db; close: () => Promise<void> } {
  const e = env();
  if (e.DATABASE_URL) {
    const sql = postgres(e.DATABASE_URL, { max: 10, onnotice: () => {} });
    return { db: drizzlePostgres(sql, { schema }), close: () => sql.end() };
  }
  mkdirSync(e.PGLITE_DIR, { recursive: true });
  const client = new PGlite(e.PGLITE_DIR);
  return { db: drizzlePglite(client, { schema }), close: () => client.close() };
}

const globalForDb = globalThis as unknown as { storefrontDb?: Db };

/** The process-wide database handle (kept across dev reloads). */
export function getDb(): Db {
  globalForDb.storefrontDb ??= openDb().db;
  return globalForDb.storefrontDb;
}
