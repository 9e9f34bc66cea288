import 'server-only';
import { mkdirSync } from 'node:fs';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { openEmbedded } from './embedded';
import { preparingStatements } from './statements';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { env } from '../env';

/** Both drivers share the PostgreSQL dialect; services see only this. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * PostgreSQL's client: 10 connections, and no cap on the statements in flight on each. postgres.js (3.4.9) lends a
 * connection to a transaction when it writes the BEGIN, but skips that when the BEGIN is the statement that fills a
 * connection's pipeline (`max_pipeline`, 100 by default; missing from its types): `sql.begin()` then fails
 * (UNSAFE_TRANSACTION) and the connection stays inside a transaction nobody ends, holding its locks (lib/db/embedded.ts
 * has the same fault and fix; lib/db/client-begin.test.ts). The driver still skips it when the socket refuses a write
 * (backpressure: more than 16 kB unsent), which the fix upstream (porsager/postgres PR #1218) closes.
 */
export const POSTGRES_OPTIONS: postgres.Options<Record<string, never>> & { max_pipeline: number } = {
  max: 10,
  max_pipeline: Number.POSITIVE_INFINITY,
  onnotice: () => {},
};

/**
 * Opens the database: PostgreSQL when DATABASE_URL is set, else embedded PGlite under PGLITE_DIR, in a thread of its
 * own (lib/db/embedded.ts) (DESIGN §1). Both are spoken to with postgres.js.
 */
export function openDb(): { db: Db; close: () => Promise<void> } {
  const e = env();
  if (e.DATABASE_URL) {
    const sql = postgres(e.DATABASE_URL, POSTGRES_OPTIONS);
    return { db: drizzlePostgres(preparingStatements(sql), { schema }), close: () => sql.end() };
  }
  mkdirSync(e.PGLITE_DIR, { recursive: true });
  const embedded = openEmbedded(e.PGLITE_DIR);
  const db = drizzlePostgres(preparingStatements(embedded.sql), { schema });
  listeners.set(db, embedded.listen);
  return { db, close: embedded.close };
}

type Listen = (channel: string, onNotice: (payload: string) => void, onListen?: () => void) => Promise<unknown>;

/**
 * The LISTEN of each embedded database handle (its worker's session; postgres.js would open a second connection).
 * Kept on globalThis: the server's bundles may each hold a copy of this module, and the handle is shared (getDb).
 */
const listeners = ((globalThis as unknown as { storefrontDbListeners?: WeakMap<object, EmbeddedListen> }).storefrontDbListeners ??=
  new WeakMap<object, EmbeddedListen>());
type EmbeddedListen = (channel: string, onNotice: (payload: string) => void) => Promise<void>;

/**
 * LISTEN on `db`, as one shape for every handle: `onListen` runs once listening, and again after a reconnect, when
 * notices may have been missed. postgres.js listens on a connection of its own and relistens after a reconnect; the
 * embedded database's worker listens on its one session; an in-process PGlite (the tests') resolves once listening.
 * Null when the handle cannot listen.
 */
export function listenerOf(db: Db): { listen: Listen } | null {
  const embedded = listeners.get(db);
  if (embedded) {
    return {
      listen: async (channel, onNotice, onListen) => {
        await embedded(channel, onNotice);
        onListen?.();
      },
    };
  }
  const client = (db as unknown as { $client?: { listen?: unknown } }).$client;
  if (!client || typeof client.listen !== 'function') return null;
  const listen = client.listen.bind(client) as Listen;
  // postgres.js is a function; PGlite a class instance.
  const isPostgresJs = typeof client === 'function';
  return {
    listen: async (channel, onNotice, onListen) => {
      if (isPostgresJs) return listen(channel, onNotice, onListen);
      const stop = await listen(channel, onNotice);
      onListen?.();
      return stop;
    },
  };
}

/**
 * Whether `db` is the embedded database of this process (lib/db/embedded.ts): one process owns it, so no other process
 * reads it and needs telling of a write (lib/cache/store.ts skips its notices there).
 */
export function isEmbeddedDb(db: Db): boolean {
  return listeners.has(db);
}

const globalForDb = globalThis as unknown as { storefrontDb?: Db };

/** The process-wide database handle (kept across dev reloads). */
export function getDb(): Db {
  globalForDb.storefrontDb ??= openDb().db;
  return globalForDb.storefrontDb;
}
