import 'server-only';
import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { channels, smsOutbox } from '../db/schema';
import { env as processEnv, SMS_LOTTERY_TEMPLATE_VARIABLE, SMS_REFUND_TEMPLATE_VARIABLE, type Env } from '../env';
import { AppError } from '../procedure/errors';
import { hit } from '../rate-limit/rate-limit';
import { AUTH_LIMITS } from './limits';
import { maskPhone } from './mask';
import { smsProvider, type SmsProvider } from './sms';
import { CarrierRefusedError } from './sms-carrier';
import { alertOnce } from './sms-codes';

/**
 * The SMS outbox's sender (issue 32: a refunded buyer "gets a text"). A service queues a text in `sms_outbox` inside the
 * transaction of the change it tells of (`queueText`), so the text exists exactly when the change does; it is sent
 * after commit (`sendText`, by the caller) and, when that fails or never happens (a carrier refusing or not answering,
 * a crash), by the background jobs' pass (`sendDueTexts`, lib/jobs/runner.ts). Nothing is sent inside a transaction,
 * and a text is never lost to a carrier's failure: it waits, with its attempts counted, until it is sent, refused for
 * good, or out of tries (each then an `[alert]` line). docs/security.md, "Texts to buyers".
 *
 * Carriers send only approved templates: each kind of text has its template per carrier (SMS_ALIYUN_REFUND_TEMPLATE,
 * SMS_TENCENT_REFUND_TEMPLATE_ID) and its parameters by name; the row's `text` is the same message in the channel's
 * language, what the demo outbox shows. Texts count against the channel's hourly SMS budget, as login codes do.
 */

/** The kinds of text the outbox sends through a template: a refund's (issue 32), a lottery turn's (issue 35). */
export type TextKind = 'refund' | 'lottery';

/** Each kind's template setting per carrier (lib/env.ts). */
const TEMPLATE_VARIABLE = { refund: SMS_REFUND_TEMPLATE_VARIABLE, lottery: SMS_LOTTERY_TEMPLATE_VARIABLE } as const;

export const OUTBOX_LIMITS = {
  /** Tries at the carrier before a text is given up (with an `[alert]`): about 3 hours of backoff. */
  maxAttempts: 8,
  /** A claimed text is its sender's for this long: another process skips it (a carrier answers within 5 s). */
  leaseMs: 60_000,
  /** The wait after the first failed try; doubled after each, up to `maxRetryMs`. */
  firstRetryMs: 60_000,
  maxRetryMs: 3600_000,
  /** A text older than this is news no more: given up rather than sent late (the outbox is swept after a day). */
  staleMs: 24 * 3600_000,
  /** Texts one pass of the jobs sends at most. */
  perPass: 50,
} as const;

/** How the deployment sends texts: its carrier, its sign name, and each kind's template there (null: none set). */
export type OutboxSender = {
  provider: SmsProvider;
  /** SMS_SIGN_NAME, for channels without a sign name of their own. */
  signName: string | null;
  templates: Record<TextKind, { id: string; setting: string } | null>;
};

/** The sender the environment configures: SMS_PROVIDER, SMS_SIGN_NAME and each kind's template at that carrier. */
export function outboxSender(e: Env = processEnv()): OutboxSender {
  const template = (kind: TextKind) => {
    const variable = TEMPLATE_VARIABLE[kind][e.SMS_PROVIDER];
    const id = variable ? e[variable] : undefined;
    return variable && id ? { id, setting: variable } : null;
  };
  return {
    provider: smsProvider(e.SMS_PROVIDER, e),
    signName: e.SMS_SIGN_NAME ?? null,
    templates: { refund: template('refund'), lottery: template('lottery') },
  };
}

/**
 * Queues a text in the caller's transaction: `pending`, to be sent once it commits. `params` are the template's, in
 * its order (Tencent Cloud numbers them so). Answers the row's id, for `sendText` after commit.
 */
export async function queueText(
  tx: Db,
  input: { channelId: number; phone: string; kind: TextKind; text: string; params: [string, string][]; now: Date },
): Promise<number> {
  const [row] = await tx
    .insert(smsOutbox)
    .values({
      channelId: input.channelId,
      phone: input.phone,
      kind: input.kind,
      text: input.text,
      params: input.params,
      status: 'pending',
      createdAt: input.now,
    })
    .returning({ id: smsOutbox.id });
  return row!.id;
}

/** Queues many texts of one kind in the caller's transaction, in one statement (a lottery's winners: hundreds at once). */
export async function queueTexts(
  tx: Db,
  texts: { channelId: number; phone: string; text: string; params: [string, string][] }[],
  kind: TextKind,
  now: Date,
): Promise<number> {
  if (texts.length === 0) return 0;
  const rows = await tx
    .insert(smsOutbox)
    .values(texts.map((t) => ({ ...t, kind, status: 'pending', createdAt: now })))
    .returning({ id: smsOutbox.id });
  return rows.length;
}

/** What became of one text on one try. */
export type TextOutcome = 'sent' | 'kept' | 'retry' | 'failed' | 'deferred' | 'notDue';

type OutboxRow = typeof smsOutbox.$inferSelect;

/** The wait after the `attempts`-th failed try. */
export function retryWaitMs(attempts: number): number {
  return Math.min(OUTBOX_LIMITS.firstRetryMs * 2 ** Math.max(0, attempts - 1), OUTBOX_LIMITS.maxRetryMs);
}

/**
 * Takes a due pending text for this sender: one UPDATE that counts the attempt and leases it, so two processes (the
 * refund's request and a jobs pass, or two workers) never send it twice. Null when it is not pending or not due.
 */
async function claim(db: Db, id: number, now: Date): Promise<OutboxRow | null> {
  const [row] = await db
    .update(smsOutbox)
    .set({ attempts: sql`${smsOutbox.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + OUTBOX_LIMITS.leaseMs) })
    .where(
      and(eq(smsOutbox.id, id), eq(smsOutbox.status, 'pending'), or(isNull(smsOutbox.nextAttemptAt), lte(smsOutbox.nextAttemptAt, now))),
    )
    .returning();
  return row ?? null;
}

async function settle(db: Db, id: number, change: Partial<typeof smsOutbox.$inferInsert>): Promise<void> {
  await db.update(smsOutbox).set(change).where(eq(smsOutbox.id, id));
}

/** A template's parameters as the row keeps them: [name, value] pairs, in the template's order. */
function paramsOf(row: OutboxRow): [string, string][] {
  return row.params ?? [];
}

/**
 * One try of one text. Never throws for the carrier's sake (the change it tells of is committed; its caller must not
 * fail for a text): a refusal or no answer leaves it pending for a later pass, after a doubling wait; a number the
 * carrier refuses, the last try, or a text a day old is given up (`failed`, `[alert]`). The demo outbox, or a carrier
 * with no template for this kind (allowed outside production only, lib/env.ts), keeps it (`kept`) and sends nothing.
 */
export async function sendText(db: Db, sender: OutboxSender, id: number, now: Date): Promise<TextOutcome> {
  const row = await claim(db, id, now);
  if (!row) return 'notDue';
  const to = `channel ${row.channelId}, ${maskPhone(row.phone)}`;
  if (now.getTime() - row.createdAt.getTime() > OUTBOX_LIMITS.staleMs) {
    await settle(db, row.id, { status: 'failed', nextAttemptAt: null, lastError: 'not sent within a day' });
    console.error(`[alert] [sms outbox] ${row.kind} text ${row.id} to ${to} was not sent within a day; given up`);
    return 'failed';
  }
  const template = sender.templates[row.kind as TextKind] ?? null;
  if (!sender.provider.sendTemplate || !template) {
    const why = sender.provider.sendTemplate ? 'no template for this kind of text' : 'the demo outbox sends nothing';
    await settle(db, row.id, { status: 'kept', attempts: row.attempts - 1, nextAttemptAt: null, lastError: why });
    if (sender.provider.sendTemplate) {
      const variables = TEMPLATE_VARIABLE[row.kind as TextKind] as Record<string, string | null> | undefined;
      const variable = variables?.[sender.provider.name] ?? null;
      console.error(`[alert] [sms outbox] ${row.kind} text to ${to} kept, not sent: set ${variable ?? 'its template'} to send it`);
    } else {
      console.info(`[sms outbox] to ${to}: ${row.text}`);
    }
    return 'kept';
  }
  // The channel's hourly SMS budget (lib/auth/sms-codes.ts), shared with login codes: spent, the text waits for the
  // next window rather than adding to the bill; the operator gets the budget's one alert for the hour.
  const budget = await hit(db, { bucket: `sms:channel:${row.channelId}`, max: AUTH_LIMITS.channelPerHour, windowMs: 3600_000 }, now);
  if (!budget.allowed) {
    await budget.undo();
    await settle(db, row.id, { attempts: row.attempts - 1, nextAttemptAt: budget.resetAt });
    await alertOnce(
      db,
      `sms-budget:${row.channelId}`,
      now,
      `[alert] channel ${row.channelId} used its SMS budget of ${AUTH_LIMITS.channelPerHour} texts this hour; ${row.kind} texts wait until ${budget.resetAt.toISOString()}`,
      row.channelId,
    );
    return 'deferred';
  }
  if (budget.count === Math.ceil(AUTH_LIMITS.channelPerHour * AUTH_LIMITS.channelAlertShare)) {
    console.error(`[alert] channel ${row.channelId} used ${budget.count} of its ${AUTH_LIMITS.channelPerHour} SMS texts this hour`);
  }
  const [channel] = await db.select({ signName: channels.smsSignName }).from(channels).where(eq(channels.id, row.channelId));
  try {
    await sender.provider.sendTemplate({
      channelId: row.channelId,
      phone: row.phone,
      signName: channel?.signName || sender.signName || '',
      templateId: template.id,
      params: paramsOf(row),
      templateSetting: template.setting,
    });
  } catch (error) {
    const reason =
      error instanceof CarrierRefusedError ? error.reason : error instanceof Error ? error.message.slice(0, 200) : 'unexpected error';
    // A number the carrier refuses (bad, opted out) will not take the next try either.
    const forGood = error instanceof AppError && error.code === 400;
    if (forGood || row.attempts >= OUTBOX_LIMITS.maxAttempts) {
      await settle(db, row.id, { status: 'failed', nextAttemptAt: null, lastError: reason });
      console.error(`[alert] [sms outbox] ${row.kind} text ${row.id} to ${to} given up after ${row.attempts} tries: ${reason}`);
      return 'failed';
    }
    await settle(db, row.id, { nextAttemptAt: new Date(now.getTime() + retryWaitMs(row.attempts)), lastError: reason });
    console.warn(`[sms outbox] ${row.kind} text ${row.id} to ${to} not sent (try ${row.attempts}): ${reason}; retried later`);
    return 'retry';
  }
  await settle(db, row.id, { status: 'sent', sentAt: now, nextAttemptAt: null, lastError: null });
  return 'sent';
}

/**
 * The jobs' pass over the outbox: every pending text that is due, oldest first, at most `limit`; counts by outcome.
 * A pass that finds the carrier down tries each due text once and leaves them for their next time.
 */
export async function sendDueTexts(
  db: Db,
  sender: OutboxSender,
  now: Date,
  limit: number = OUTBOX_LIMITS.perPass,
): Promise<Record<Exclude<TextOutcome, 'notDue'>, number>> {
  const due = await db
    .select({ id: smsOutbox.id })
    .from(smsOutbox)
    .where(and(eq(smsOutbox.status, 'pending'), or(isNull(smsOutbox.nextAttemptAt), lte(smsOutbox.nextAttemptAt, now))))
    .orderBy(asc(smsOutbox.id))
    .limit(limit);
  const counts = { sent: 0, kept: 0, retry: 0, failed: 0, deferred: 0 };
  for (const { id } of due) {
    const outcome = await sendText(db, sender, id, now);
    if (outcome !== 'notDue') counts[outcome]++;
  }
  return counts;
}
