import 'server-only';
import { and, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { TZDate } from '@date-fns/tz';
import type { Db } from '../db/client';
import type { ProcedureContext } from '../procedure/procedure';
import { channels, operatorAudit, operatorGrants } from '../db/schema';
import { seesEveryChannel } from '../procedure/roles';
import type { OperatorSession } from '../procedure/scope';
import { operatorChannel } from './channels';

/**
 * The audit trail (issue 31, "An audit trail"): who, when, from which address, which channel, what (procedure and
 * input, secrets redacted) and the row before and after. Every operator write calls `recordAudit`; there is no update
 * or delete path in the code (a test reads every module for one, lib/operator/audit-append-only.test.ts), the database
 * refuses both (migration 0016's trigger), and rows leave only through the retention sweep
 * (lib/operator/audit-retention.ts) after AUDIT_RETENTION_DAYS. docs/operators.md, "What the audit trail keeps".
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

/**
 * Field names whose values never reach the trail, by their exact name (compared without case): every secret the console
 * and its sign-in write (issue 32). A list, not a pattern: the old `/pass|code|token|secret|recovery/` blanked every
 * sale's, collectible's and campaign's `code`, which is a public identifier an owner needs to read in the trail.
 * - operator credentials: passwords, TOTP secrets (also the one waiting for enrolment), TOTP and recovery codes,
 *   enrolment and session tokens, an API key's plain text and its hash;
 * - codes buyers redeem: the plain redeem and chain-up codes an import or a generation carries (`codes`, `plainCodes`)
 *   and their hashes, and the key that seals a batch until its export;
 * - texts to buyers: an SMS login code;
 * - keys of outside services: a webhook's secret, a provider's secret or private key, a request's signature;
 * - a buyer's real-name identity (issue 33): the ID number and legal name, and their sealed forms.
 * A name added to a console call's input that holds a secret must be added here (lib/operator/audit.test.ts lists them).
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(
  [
    'password',
    'newPassword',
    'currentPassword',
    'passwordHash',
    'totp',
    'totpCode',
    'totpSecret',
    'pendingTotpSecret',
    'otpauth',
    'recoveryCode',
    'recoveryCodes',
    'token',
    'tokenHash',
    'apiKey',
    'secretHash',
    'codes',
    'plainCodes',
    'codeHash',
    'sealKey',
    'sealedCodes',
    'smsCode',
    'authCode',
    'secret',
    'webhookSecret',
    'accessKeySecret',
    'secretKey',
    'privateKey',
    'signature',
    // A buyer's real name and ID number (issue 33): an identity block or a lookup an operator types never keeps them raw.
    'idNumber',
    'legalName',
    'nameSealed',
    'idNumberSealed',
  ].map((name) => name.toLowerCase()),
);

/**
 * Calls whose `code` is a secret rather than the public code of a sale, a collectible or a campaign: a second-factor
 * code (a TOTP or a recovery code), or a buyer's redeem code an operator revokes by its text (whoever reads the trail
 * could otherwise redeem it before the revoke, or after a revoke undone).
 */
export const SECRET_CODE_CALLS: ReadonlySet<string> = new Set([
  'session/signIn',
  'session/confirm',
  'enrol/complete',
  'campaign/code/revoke',
]);

/** The input as the trail keeps it: every secret field's value replaced, at any depth. */
export function redact(value: unknown, procedure?: string): unknown {
  const secretCode = procedure !== undefined && SECRET_CODE_CALLS.has(procedure.replace(/^\/ops\/api\//, ''));
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v).map(([k, inner]) => {
          const name = k.toLowerCase();
          return [k, SECRET_FIELDS.has(name) || (secretCode && name === 'code') ? '[redacted]' : walk(inner)];
        }),
      );
    }
    return v;
  };
  return walk(value);
}

/** Appends one entry (in the caller's transaction when it passes one). */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(operatorAudit).values({
    at: entry.at,
    operatorId: entry.operatorId,
    operatorName: entry.operatorName,
    ip: entry.ip,
    channelId: entry.channelId ?? null,
    // One name per call, whichever way the caller spelled it: its path without the console API's prefix (`domain/add`).
    procedure: entry.procedure.replace(/^\/ops\/api\//, ''),
    input: redact(entry.input ?? {}, entry.procedure),
    before: entry.before === undefined ? null : redact(entry.before, entry.procedure),
    after: entry.after === undefined ? null : redact(entry.after, entry.procedure),
  });
}

/** The audit page's filters (issue 31): who, which channel, which kind (procedure), and calendar days in `timeZone`. */
export type AuditFilter = {
  operator?: string;
  channel?: string;
  kind?: string;
  /** First day shown, `yyyy-MM-dd` in `timeZone`, inclusive. */
  from?: string;
  /** Last day shown, `yyyy-MM-dd` in `timeZone`, inclusive. */
  to?: string;
  timeZone: string;
};

/** One line of the trail as the console lists it. */
export type AuditLine = { id: string; at: string; operator: string; ip: string; channel: string | null; kind: string };

/** One entry opened: its input, and the row before and after with the fields that changed. */
export type AuditDetail = AuditLine & { input: unknown; before: unknown; after: unknown; changed: string[] };

/** Entries per page of the audit page and the list call. */
export const AUDIT_PAGE_SIZE = 50;

/**
 * A page's place in the trail: the moment (ms) and id of its last entry; the next page starts strictly after it. A
 * moment is at most 13 digits (until the year 2286) and an id 10: anything longer is no cursor this page gave (a moment
 * past year 9999 is no date PostgreSQL takes).
 */
export const AUDIT_CURSOR = /^\d{1,13}\.\d{1,10}$/;

/** The procedure names of a sign-in: support and managers see their own (issue 31). */
const SIGN_IN = 'session/signIn';

/** The instant a calendar day `yyyy-MM-dd` starts in `timeZone` (`addDays` 1: the next day's start). */
export function dayStart(day: string, timeZone: string, addDays = 0): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d + addDays, timeZone).getTime());
}

/**
 * What an operator may read of the trail (issue 31): an owner everything; a manager or support the entries of the
 * channels granted to them and their own sign-ins. Null: nothing at all (the where clause is then `false`).
 */
async function visibleTo(db: Db, viewer: OperatorSession): Promise<SQL | undefined> {
  // An API key limited to some channels reads those channels' entries only, whatever its operator may (red team: a key
  // of AURORA read LUMEN's entries through its manager's grants); its channels are already among its operator's.
  const keyChannels = viewer.apiKey?.channels;
  if (!keyChannels && seesEveryChannel(viewer.role)) return undefined;
  const granted = keyChannels
    ? keyChannels.length
      ? (
          await db
            .select({ id: channels.id })
            .from(channels)
            .where(inArray(channels.key, [...keyChannels]))
        ).map((c) => c.id)
      : []
    : (await db.select({ id: operatorGrants.channelId }).from(operatorGrants).where(eq(operatorGrants.operatorId, viewer.operatorId))).map(
        (g) => g.id,
      );
  const ownSignIns = and(eq(operatorAudit.operatorId, viewer.operatorId), eq(operatorAudit.procedure, SIGN_IN));
  return granted.length ? or(inArray(operatorAudit.channelId, granted), ownSignIns) : ownSignIns;
}

/**
 * The where clause of a filter as `viewer` may read it. A channel filter names a channel the viewer works on, else
 * 404 with the same words whether it exists or not (lib/operator/channels.ts `operatorChannel`).
 */
export async function auditWhere(db: Db, viewer: OperatorSession, filter: AuditFilter): Promise<SQL | undefined> {
  const parts: (SQL | undefined)[] = [await visibleTo(db, viewer)];
  if (filter.channel) parts.push(eq(operatorAudit.channelId, (await operatorChannel(db, viewer, filter.channel)).id));
  if (filter.operator) parts.push(eq(operatorAudit.operatorName, filter.operator));
  if (filter.kind) parts.push(eq(operatorAudit.procedure, filter.kind));
  if (filter.from) parts.push(sql`${operatorAudit.at} >= ${dayStart(filter.from, filter.timeZone).toISOString()}::timestamptz`);
  if (filter.to) parts.push(sql`${operatorAudit.at} < ${dayStart(filter.to, filter.timeZone, 1).toISOString()}::timestamptz`);
  return and(...parts);
}

const lineColumns = {
  id: operatorAudit.id,
  at: operatorAudit.at,
  operator: operatorAudit.operatorName,
  ip: operatorAudit.ip,
  channel: channels.key,
  kind: operatorAudit.procedure,
};

type LineRow = { id: number; at: Date; operator: string; ip: string; channel: string | null; kind: string };

const toLine = (r: LineRow): AuditLine => ({
  id: String(r.id),
  at: r.at.toISOString(),
  operator: r.operator,
  ip: r.ip,
  channel: r.channel,
  kind: r.kind,
});

/** Rows of the trail matching `where`, newest first, strictly after `cursor` (keyset paging: no OFFSET to scan past). */
async function readLines(db: Db, where: SQL | undefined, cursor: string | undefined, limit: number) {
  const parts = [where];
  if (cursor) {
    const [ms, id] = cursor.split('.').map(Number) as [number, number];
    parts.push(sql`(${operatorAudit.at}, ${operatorAudit.id}) < (${new Date(ms).toISOString()}::timestamptz, ${id})`);
  }
  return db
    .select({ ...lineColumns, input: operatorAudit.input, before: operatorAudit.before, after: operatorAudit.after })
    .from(operatorAudit)
    .leftJoin(channels, eq(channels.id, operatorAudit.channelId))
    .where(and(...parts))
    .orderBy(desc(operatorAudit.at), desc(operatorAudit.id))
    .limit(limit);
}

const cursorOf = (r: { at: Date; id: number }) => `${r.at.getTime()}.${r.id}`;

/** One page of the trail, newest first, and the cursor of the next page (null on the last). */
export async function listAudit(
  db: Db,
  viewer: OperatorSession,
  filter: AuditFilter,
  page: { cursor?: string; limit?: number } = {},
): Promise<{ entries: AuditDetail[]; next: string | null }> {
  const limit = page.limit ?? AUDIT_PAGE_SIZE;
  const rows = await readLines(db, await auditWhere(db, viewer, filter), page.cursor, limit + 1);
  const shown = rows.slice(0, limit);
  return { entries: shown.map(toDetail), next: rows.length > limit ? cursorOf(shown[shown.length - 1]!) : null };
}

/** The top-level fields whose value differs between before and after (the console marks them). */
export function changedFields(before: unknown, after: unknown): string[] {
  const asObject = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const b = asObject(before);
  const a = asObject(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys.filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k])).sort();
}

function toDetail(r: LineRow & { input: unknown; before: unknown; after: unknown }): AuditDetail {
  return { ...toLine(r), input: r.input, before: r.before, after: r.after, changed: changedFields(r.before, r.after) };
}

/** One entry the viewer may read, or null (the same for one that does not exist and one they may not see). */
export async function readAuditEntry(db: Db, viewer: OperatorSession, id: number): Promise<AuditDetail | null> {
  const [row] = await readLines(db, and(await visibleTo(db, viewer), eq(operatorAudit.id, id)), undefined, 1);
  return row ? toDetail(row) : null;
}

/** The kinds (procedures) and operator names in the part of the trail the viewer may read, for the filters' choices. */
export async function auditChoices(db: Db, viewer: OperatorSession): Promise<{ kinds: string[]; operators: string[] }> {
  const where = await visibleTo(db, viewer);
  const kinds = await db.selectDistinct({ v: operatorAudit.procedure }).from(operatorAudit).where(where).orderBy(operatorAudit.procedure);
  const names = await db
    .selectDistinct({ v: operatorAudit.operatorName })
    .from(operatorAudit)
    .where(where)
    .orderBy(operatorAudit.operatorName);
  return { kinds: kinds.map((k) => k.v), operators: names.map((n) => n.v) };
}

/**
 * The most rows one CSV export carries (issue 31; docs/operators.md): 50,000 rows is a few tens of MB at most, opens in
 * Excel and WPS at once, and keeps one download from holding a server for long. Narrow the filters for more.
 */
export const AUDIT_EXPORT_MAX_ROWS = 50_000;
/** Rows read per query while an export streams. */
const EXPORT_BATCH = 500;

/**
 * A CSV cell (RFC 4180: quoted, quotes doubled), neutralised against formula injection (OWASP "CSV Injection"): a
 * value starting with = + - @ tab or CR would be run as a formula by Excel or WPS, so it gets a leading apostrophe.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

const csvLine = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** `yyyy-MM-dd HH:mm:ss` in `timeZone`, with its offset (so a sheet read elsewhere is not an hour off). */
export function formatInZone(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${offset}`;
}

/**
 * The filtered trail as CSV, streamed in batches: UTF-8 with a byte-order mark (so Excel opens Chinese text as such),
 * at most AUDIT_EXPORT_MAX_ROWS rows, with a last line saying so when the filter matched more. The caller has checked
 * the viewer; the filter's channel is checked here as on the page.
 */
export async function* auditCsv(
  db: Db,
  viewer: OperatorSession,
  filter: AuditFilter,
  maxRows = AUDIT_EXPORT_MAX_ROWS,
): AsyncGenerator<string> {
  const where = await auditWhere(db, viewer, filter);
  yield (
    '\uFEFF' + csvLine(['id', `at (${filter.timeZone})`, 'operator', 'address', 'channel', 'kind', 'input', 'before', 'after', 'changed'])
  );
  let cursor: string | undefined;
  let sent = 0;
  for (;;) {
    // One row past the bound is read, to tell "exactly the bound" from "more than the bound".
    const want = Math.min(EXPORT_BATCH, maxRows - sent + 1);
    const rows = await readLines(db, where, cursor, want);
    for (const r of rows) {
      if (sent === maxRows) {
        yield csvLine([`(stopped at ${maxRows} rows: narrow the filters to export the rest)`]);
        return;
      }
      const d = toDetail(r);
      yield csvLine([
        d.id,
        formatInZone(r.at, filter.timeZone),
        d.operator,
        d.ip,
        d.channel ?? '',
        d.kind,
        JSON.stringify(d.input),
        d.before === null ? '' : JSON.stringify(d.before),
        d.after === null ? '' : JSON.stringify(d.after),
        d.changed.join(' '),
      ]);
      sent++;
    }
    if (rows.length < want) return;
    cursor = cursorOf(rows[rows.length - 1]!);
  }
}

/** A change a console call made to one channel's data (or to none: `channelId` null), as its write reports it. */
export type AuditedChange = { channelId: number | null; before: unknown; after: unknown };

/**
 * The audit hook of one console call: the write calls it inside its transaction with the row before and after, and
 * the entry says who (the call's operator), when, from where, which call and its input (issue 31, "An audit trail").
 */
export function auditCall(ctx: ProcedureContext, procedure: string, input: unknown): (tx: Db, change: AuditedChange) => Promise<void> {
  return async (tx, change) => {
    const by = await ctx.operator();
    await recordAudit(tx, {
      at: ctx.now,
      operatorId: by.operatorId,
      operatorName: by.name,
      ip: ctx.ip,
      channelId: change.channelId,
      procedure,
      input,
      before: change.before,
      after: change.after,
    });
  };
}
