import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// issue 31: the audit trail is append-only in the code too. No module but the retention sweep may write an UPDATE,
// DELETE or TRUNCATE of operator_audit, through drizzle or in SQL text, nor rename the table's handle to hide one.
// (The database refuses them as well: lib/operator/audit.test.ts.) Tests are left out: they prove the refusal.

const ROOT = process.cwd();
const ALLOWED = new Set(['lib/operator/audit-retention.ts']);
const SOURCES = ['app', 'components', 'lib', 'scripts', 'proxy.ts', 'server.ts', 'instrumentation.ts'];

/** What a write other than an insert looks like, through drizzle or in SQL. */
const WRITES = [
  /\.\s*(update|delete)\s*\(\s*(schema\s*\.\s*)?operatorAudit\b/,
  /\b(update|delete\s+from|truncate(\s+table)?)\s+(only\s+)?("?public"?\s*\.\s*)?"?operator_audit\b/i,
  /\boperatorAudit\s+as\s+\w+/,
];

export function writesAuditTrail(source: string): boolean {
  return WRITES.some((w) => w.test(source));
}

function files(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!statSync(full).isDirectory()) return /\.(ts|tsx|mjs|js|sql)$/.test(entry) && !/\.test\.tsx?$/.test(entry) ? [entry] : [];
  return readdirSync(full).flatMap((name) => (name === 'node_modules' ? [] : files(path.join(entry, name))));
}

it('finds a write of the trail however it is spelt (so the check below can fail)', () => {
  for (const spelt of [
    'await db.update(operatorAudit).set({ ip })',
    'tx.delete( operatorAudit ).where(x)',
    'db.delete(schema.operatorAudit)',
    'sql`UPDATE "operator_audit" SET ip = 1`',
    'sql`delete from public.operator_audit`',
    'sql`truncate table operator_audit`',
    "import { operatorAudit as trail } from '../db/schema'",
  ]) {
    expect({ spelt, found: writesAuditTrail(spelt) }).toEqual({ spelt, found: true });
  }
  expect(writesAuditTrail('await db.insert(operatorAudit).values(row)')).toBe(false);
  expect(writesAuditTrail('db.select().from(operatorAudit)')).toBe(false);
});

it('has no module but the retention sweep that updates or deletes audit entries', () => {
  const writers = SOURCES.flatMap(files).filter((f) => writesAuditTrail(readFileSync(path.join(ROOT, f), 'utf8')));
  expect(writers.sort()).toEqual([...ALLOWED]);
});
