import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { executedRows } from '../db/rows';

/**
 * The audit trail's retention (issue 31): the only code that deletes from operator_audit (a test reads every module
 * for another, lib/operator/audit-append-only.test.ts). The table's trigger refuses any DELETE outside a transaction
 * that has set `storefront.audit_retention` (migration 0016), so this is also the only way rows can leave.
 */

/** Entries deleted per transaction: short transactions, so a sweep of a large backlog never holds the table long. */
export const AUDIT_SWEEP_BATCH = 1_000;

const DAY_MS = 24 * 3600_000;

/**
 * Deletes the entries older than `retentionDays` before `now`, oldest first, in batches of `batch`; answers how many
 * went. The worker runs it with the other retention sweeps (lib/jobs/retention.ts), AUDIT_RETENTION_DAYS.
 */
export async function sweepAuditTrail(db: Db, now: Date, retentionDays: number, batch = AUDIT_SWEEP_BATCH): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  let total = 0;
  for (;;) {
    const deleted = await db.transaction(async (tx) => {
      // Transaction-local (is_local = true): the permission ends with this batch's transaction.
      await tx.execute(sql`select set_config('storefront.audit_retention', 'on', true)`);
      const rows = await tx.execute(
        sql`delete from operator_audit where id in (select id from operator_audit where at < ${cutoff}::timestamptz order by at, id limit ${batch}) returning id`,
      );
      return executedRows(rows).length;
    });
    total += deleted;
    if (deleted < batch) return total;
  }
}
