import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import * as schema from '@/lib/db/schema';
import { migrate, MIGRATIONS_FOLDER } from '@/lib/db/migrate';
import type { Db } from '@/lib/db/client';

/**
 * The migrated empty database the PGlite tests start from (test/db.ts): made once per set of migrations by jest's
 * global setup (test/global-setup.ts) and loaded by each test file, instead of every file starting PGlite from
 * nothing and applying every migration (about 4 s a file, most of the suite's time on a 2-core machine). Its name
 * carries a hash of the migrations and of PGlite's version, so a new migration makes a new template; a missing
 * template is not an error: test/db.ts then migrates as before.
 */
export function pgliteTemplatePath(): string {
  const hash = createHash('sha256');
  // PGlite's own version: a data folder is only read by the PGlite that wrote it.
  hash.update(readFileSync(path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json')));
  const files = readdirSync(MIGRATIONS_FOLDER)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  for (const file of [...files.map((f) => path.join(MIGRATIONS_FOLDER, f)), path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json')]) {
    hash.update(file);
    hash.update(readFileSync(file));
  }
  return path.join(os.tmpdir(), `storefront-test-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** Makes the template if this set of migrations has none yet (written under a temporary name, then renamed whole). */
export async function ensurePgliteTemplate(): Promise<string> {
  const target = pgliteTemplatePath();
  if (existsSync(target)) return target;
  const client = new PGlite();
  await migrate(drizzle(client, { schema }) as unknown as Db);
  const dump = await client.dumpDataDir('none');
  await client.close();
  const partial = `${target}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, target);
  return target;
}

/** A PGlite started from the template, or null when there is none (the caller migrates a fresh one). */
export function pgliteFromTemplate(): PGlite | null {
  const template = pgliteTemplatePath();
  if (!existsSync(template)) return null;
  return new PGlite({ loadDataDir: new Blob([readFileSync(template)]) });
}
