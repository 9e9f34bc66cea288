import 'server-only';
import { z } from 'zod';
import type { Db } from '../db/client';
import { env } from '../env';
import { procedure } from '../procedure/procedure';
import { ANY_ROLE, type OperatorRule } from '../procedure/roles';
import { AppError } from '../procedure/errors';
import { describeInput, inputError } from '../procedure/messages';
import { askedLocale } from '../i18n/locale';
import { cookieValue } from '../security/cookies';
import { AUDIT_CURSOR, AUDIT_PAGE_SIZE, auditCsv, formatInZone, listAudit, type AuditFilter } from './audit';
import { resolveOperatorSession } from './accounts';
import { isOperatorHost, OPERATOR_COOKIE } from './host';

/**
 * The audit trail in the console (issue 31, "An audit trail"): the list call, and the CSV export (a GET route, so the
 * browser downloads it) that declares its operator rule the same way and is checked by the same steps.
 */

const blankIsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const day = z
  .string({ error: 'must be a date yyyy-MM-dd' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date yyyy-MM-dd')
  .refine((d) => {
    const at = new Date(`${d}T00:00:00Z`);
    return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(d) && d >= '2000-01-01' && d <= '2999-12-31';
  }, 'must be a real date between 2000-01-01 and 2999-12-31');

/** The filters as the page's form and the list call send them; blank means "any". */
export const auditFilterInput = z
  .object({
    operator: z.preprocess(
      blankIsUnset,
      z.string({ error: 'must be a string' }).trim().toLowerCase().max(64, 'must be 64 characters or less').optional(),
    ),
    channel: z.preprocess(
      blankIsUnset,
      z
        .string({ error: 'must be a string' })
        .max(64, 'must be 64 characters or less')
        .regex(/^[A-Z0-9]{1,64}$/, 'must be a channel key: upper-case letters and digits')
        .optional(),
    ),
    kind: z.preprocess(
      blankIsUnset,
      z
        .string({ error: 'must be a string' })
        .max(64, 'must be 64 characters or less')
        .regex(/^[A-Za-z0-9/_.:-]+( [A-Za-z0-9/_.:-]+)?$/, 'must be a kind of entry, such as operator/invite')
        .optional(),
    ),
    from: z.preprocess(blankIsUnset, day.optional()),
    to: z.preprocess(blankIsUnset, day.optional()),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { path: ['to'], message: 'must be on or after the first day' });

export type AuditFilterInput = z.output<typeof auditFilterInput>;

/** The filter as the service reads it: the days in the console's time zone (CONSOLE_TIME_ZONE). */
export function auditFilterOf(input: AuditFilterInput): AuditFilter {
  return { ...input, timeZone: env().CONSOLE_TIME_ZONE };
}

const auditEntry = z.object({
  id: z.string(),
  at: z.string(),
  operator: z.string(),
  ip: z.string(),
  channel: z.string().nullable(),
  kind: z.string(),
  input: z.unknown(),
  before: z.unknown(),
  after: z.unknown(),
  changed: z.array(z.string()),
});

/** Who may read the trail: every operator, each seeing their part of it (lib/operator/audit.ts `visibleTo`). */
const READ_AUDIT: OperatorRule = { roles: ANY_ROLE, channel: 'none' };

export const auditProcedures = {
  '/ops/api/audit/list': procedure({
    summary:
      'The audit trail, newest first, a page at a time (keyset: pass `next` back as `after`), filtered by operator, channel, kind and days in the console time zone. Owners read every entry; managers and support the entries of their channels and their own sign-ins.',
    auth: 'operator',
    operator: READ_AUDIT,
    input: z.intersection(
      auditFilterInput,
      z.object({
        after: z.preprocess(blankIsUnset, z.string().regex(AUDIT_CURSOR, 'must be the `next` of a previous page').optional()),
        limit: z
          .number()
          .int('must be a whole number')
          .min(1, 'must be 1 or more')
          .max(200, 'must be 200 or less')
          .default(AUDIT_PAGE_SIZE),
      }),
    ),
    output: z.object({ entries: z.array(auditEntry), next: z.string().nullable(), timeZone: z.string() }),
    handler: async (ctx, input) => {
      const filter = auditFilterOf(input);
      const page = await listAudit(ctx.db, await ctx.operator(), filter, { cursor: input.after, limit: input.limit });
      return { ...page, timeZone: filter.timeZone };
    },
  }),
};

/** The CSV export's rule, declared like a procedure's (the dispatcher's steps below, in its order). */
export const AUDIT_EXPORT_RULE: { auth: 'operator'; operator: OperatorRule } = { auth: 'operator', operator: READ_AUDIT };

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });

/**
 * GET /audit/export?operator=&channel=&kind=&from=&to= on the operator host: the filtered trail as a CSV download.
 * As the dispatcher does for `auth: 'operator'`: 404 off the operator host; 401 without a live session (before the
 * query is read); 403 for a role the rule leaves out or a cross-site request; 400 naming the field; 404 for a channel
 * the operator does not work on. Streamed, so a large export never sits in memory.
 */
export async function exportAuditResponse(request: Request, options: { db: Db; now?: Date }): Promise<Response> {
  const url = new URL(request.url);
  const host = request.headers.get('host') ?? url.host;
  const locale = askedLocale(request.headers.get('accept-language')) ?? 'en';
  if (!isOperatorHost(host, env().OPERATOR_HOST)) return plain(404, 'Not found');
  const session = await resolveOperatorSession(
    options.db,
    cookieValue(request.headers.get('cookie'), OPERATOR_COOKIE),
    options.now ?? new Date(),
  );
  if (!session) return plain(401, 'Sign in to the console first.');
  if (!AUDIT_EXPORT_RULE.operator.roles.includes(session.role)) return plain(403, 'Your role may not export the audit trail.');
  const site = request.headers.get('sec-fetch-site')?.trim().toLowerCase();
  if (site && site !== 'same-origin' && site !== 'none') return plain(403, 'origin: export from the console itself');
  const parsed = auditFilterInput.safeParse(Object.fromEntries(url.searchParams), { error: inputError, reportInput: true });
  if (!parsed.success) return plain(400, describeInput(parsed.error.issues, locale));
  const filter = auditFilterOf(parsed.data);
  const rows = auditCsv(options.db, session, filter);
  let first: IteratorResult<string>;
  try {
    // The first chunk is read before answering, so a refused channel is a 404, not a broken download.
    first = await rows.next();
  } catch (error) {
    if (error instanceof AppError) return plain(error.code === 404 ? 404 : 400, error.messageIn(locale));
    throw error;
  }
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (!first.done) controller.enqueue(encoder.encode(first.value));
    },
    async pull(controller) {
      const next = await rows.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  const stamp = formatInZone(options.now ?? new Date(), filter.timeZone).slice(0, 10);
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="audit-${stamp}.csv"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
