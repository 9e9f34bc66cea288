import path from 'node:path';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Db } from './client';

export const MIGRATIONS_FOLDER = path.join(process.cwd(), 'drizzle');

/** Applies the committed migrations under drizzle/ (never `drizzle-kit push`). */
export async function migrate(db: Db): Promise<void> {
  if (db instanceof PgliteDatabase) {
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } else {
    await migratePostgres(db as Parameters<typeof migratePostgres>[0], { migrationsFolder: MIGRATIONS_FOLDER });
  }
}
