import 'server-only';
import { z } from 'zod';
import { TZDate } from '@date-fns/tz';
import { procedure, type ProcedureContext } from '../procedure/procedure';
import { ANY_ROLE } from '../procedure/roles';
import { idSchema, channelKeySchema } from '../procedure/schemas';
import { pageSchema, pagingSchema } from '../procedure/paging';
import { NOTICE_BODY_MAX, NOTICE_TITLE_MAX, NOTICE_TYPES, noticeAdminViewSchema } from '../notice/schema';
import { createNotice, listChannelNotices, updateNotice, withdrawNotice, type NoticeAudit, type NoticeDraft } from '../notice/service';
import { AppError } from '../procedure/errors';
import { auditCall } from './audit';

/**
 * The Notices tab's calls (issue 32, "Notices and a drop calendar"; docs/operators.md): list a channel's notices
 * (scheduled, published, withdrawn), write one, edit one, withdraw one. Owners, and managers on the channels granted,
 * write; support reads. Each write is in the audit trail with the notice before and after, in the write's transaction,
 * and the store shows it at once (the channel's notices tag, lib/notice/service.ts).
 */

const channelKey = channelKeySchema;

/** A wall-clock time in the channel's zone as the console's field gives it (2026-12-01T20:00). */
const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const draftFields = z.object({
  channel: channelKey,
  type: z.enum(NOTICE_TYPES, { error: `must be one of: ${NOTICE_TYPES.join(', ')}` }),
  title: z
    .string({ error: 'is required and must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(NOTICE_TITLE_MAX, `must be ${NOTICE_TITLE_MAX} characters or less`),
  // Plain text only: the store shows it as text, paragraphs split on blank lines (never as HTML).
  body: z
    .string({ error: 'is required and must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(NOTICE_BODY_MAX, `must be ${NOTICE_BODY_MAX} characters or less`),
  /** In the channel's time zone, without a zone (the console names the zone beside the field). */
  publishAt: z.string({ error: 'must be a string' }).regex(LOCAL_TIME, 'must be a date and time like 2026-12-01T20:00').optional(),
  /** Publish at the moment of the call (the console's "publish now"). */
  publishNow: z.boolean({ error: 'must be true or false' }).optional(),
});

/** A publish time or "publish now" (400 naming publishAt without either). */
const timed = {
  check: (v: { publishAt?: string; publishNow?: boolean }) => v.publishNow === true || v.publishAt !== undefined,
  params: { path: ['publishAt'], message: 'is required unless publishNow is true' },
};
const draft = draftFields.refine(timed.check, timed.params);
const edit = draftFields.extend({ id: idSchema }).refine(timed.check, timed.params);

/** The UTC moment of a wall-clock time in `timeZone`; null for a time that does not exist (the 31st of November). */
export function zonedMoment(local: string, timeZone: string): Date | null {
  const m = LOCAL_TIME.exec(local);
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const at = new TZDate(y, mo - 1, d, h, mi, timeZone);
  if (at.getFullYear() !== y || at.getMonth() !== mo - 1 || at.getDate() !== d || at.getHours() !== h) return null;
  return new Date(at.getTime());
}

function draftOf(input: z.output<typeof draftFields>, timeZone: string, now: Date): NoticeDraft | string {
  const publishAt = input.publishNow ? now : zonedMoment(input.publishAt!, timeZone);
  if (!publishAt) return 'publishAt: is not a date and time that exists';
  return { type: input.type, title: input.title, body: input.body, publishAt };
}

function auditOf(ctx: ProcedureContext, path: string, input: unknown): NoticeAudit {
  return auditCall(ctx, path, input);
}

async function writer(ctx: ProcedureContext) {
  const [channel, by] = await Promise.all([ctx.operatorChannel(), ctx.operator()]);
  return { channel, by: { operatorId: by.operatorId, now: ctx.now } };
}

const WRITERS = ['owner', 'manager'] as const;

/** A refusal of the input naming the field (400), as the dispatcher's own for a schema. */
function badInput(text: string): never {
  throw new AppError(400, text);
}

export const noticeProcedures = {
  '/ops/api/notice/list': procedure({
    summary:
      "A channel's notices for the console, newest publish time first, paged: each with its state (scheduled, published, withdrawn) and the channel's time zone for showing its times.",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: pagingSchema.extend({ channel: channelKey }),
    output: pageSchema(noticeAdminViewSchema).extend({ timeZone: z.string() }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const page = await listChannelNotices(ctx.db, channel.id, ctx.now, input);
      return { ...page, timeZone: channel.timeZone };
    },
  }),
  '/ops/api/notice/create': procedure({
    summary:
      'Writes a notice (type drop, activity, airdrop or operations; a title; a plain-text body) published now or at a time in the channel’s time zone. The store shows it from then on, at once.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'creates' },
    input: draft,
    output: noticeAdminViewSchema,
    handler: async (ctx, input) => {
      const { channel, by } = await writer(ctx);
      const values = draftOf(input, channel.timeZone, ctx.now);
      if (typeof values === 'string') return badInput(values);
      return createNotice(ctx.db, channel.id, values, by, auditOf(ctx, '/ops/api/notice/create', input));
    },
  }),
  '/ops/api/notice/update': procedure({
    summary: 'Changes a notice of the channel (type, title, body, publish time). A withdrawn notice cannot be changed (409).',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: edit,
    output: noticeAdminViewSchema,
    handler: async (ctx, input) => {
      const { channel, by } = await writer(ctx);
      const values = draftOf(input, channel.timeZone, ctx.now);
      if (typeof values === 'string') return badInput(values);
      return updateNotice(ctx.db, channel.id, input.id, values, by, auditOf(ctx, '/ops/api/notice/update', input));
    },
  }),
  '/ops/api/notice/withdraw': procedure({
    summary:
      'Withdraws a notice: gone from the store at once, kept in the console and the audit trail. Withdrawing it again changes nothing.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, id: idSchema }),
    output: noticeAdminViewSchema,
    handler: async (ctx, input) => {
      const { channel, by } = await writer(ctx);
      return withdrawNotice(ctx.db, channel.id, input.id, by, auditOf(ctx, '/ops/api/notice/withdraw', input));
    },
  }),
};
