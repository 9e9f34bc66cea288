import { ensurePgliteTemplate } from './pglite-template';

/**
 * Jest's global setup: the migrated PGlite template the test files load (test/pglite-template.ts). On PostgreSQL
 * (DATABASE_URL set) each file makes its own database as before.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) return;
  try {
    await ensurePgliteTemplate();
  } catch (error) {
    // Without the template every file migrates its own database (test/db.ts): slower, never wrong.
    console.warn('[tests] no PGlite template; each test file migrates its own database:', error);
  }
}
