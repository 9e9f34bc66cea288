import 'server-only';
import type { Db } from '../db/client';
import { operatorAudit } from '../db/schema';

/**
 * The audit trail (issue 31, "An audit trail"): who, when, from which address, which channel, what (procedure and
 * input, secrets redacted) and the row before and after. Every operator write calls `recordAudit`; there is no update
 * or delete path in the code (rows leave only through the retention job, once it has a documented period).
 */
export type AuditEntry = {
  at: Date;
  operatorId: number | null;
  operatorName: string;
  ip: string;
  channelId?: number | null;
  procedure: string;
  input: unknown;
  before?: unknown;
  after?: unknown;
};

/** Field names whose values never reach the trail: passwords, second-factor codes, tokens, secrets. */
const SECRET_FIELD = /pass|code|token|secret|recovery/i;

/** The input as the trail keeps it: every secret field's value replaced, at any depth. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_FIELD.test(k) ? '[redacted]' : redact(v)]));
  }
  return value;
}

/** Appends one entry (in the caller's transaction when it passes one). */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(operatorAudit).values({
    at: entry.at,
    operatorId: entry.operatorId,
    operatorName: entry.operatorName,
    ip: entry.ip,
    channelId: entry.channelId ?? null,
    procedure: entry.procedure,
    input: redact(entry.input ?? {}),
    before: entry.before === undefined ? null : redact(entry.before),
    after: entry.after === undefined ? null : redact(entry.after),
  });
}
