import 'server-only';
import { createHmac } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { alertDeliveries, alertGates, alerts, channels } from '../db/schema';
import { env } from '../env';
import { channelWebhook, webhookRules, webhookSealKey, type Webhook } from './webhooks';
import { guardedPost, type WebhookAnswer, type WebhookPost } from './webhook-post';

/**
 * Alerts an operator must act on (issue 32, "Reports": a drop sold out, busy answers above a threshold, the SMS budget
 * spent, a domain check failing, a provider refusing). Each is raised by one line where its event already happens,
 * recorded in `alerts` (the reports page lists them), logged with `[alert]`, and posted to the deployment's webhook
 * (ALERT_WEBHOOK_URL: WeCom, DingTalk, Feishu or plain JSON; docs/reports.md), every alert, as before, and a channel's
 * alert also to the webhook its owner set (lib/monitor/webhooks.ts). One per event per hour: the same (kind, channel,
 * subject) raised again within the hour, by any process, is dropped (`alert_gates`). Each post is a row of
 * `alert_deliveries`: tried at once, and when it fails retried by the jobs after ALERT_RETRY_DELAYS_MS, then given up
 * and shown as failed on the alert.
 */

export const ALERT_KINDS = ['soldOut', 'busy', 'smsBudget', 'domainCheck', 'providerRefused'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export type AlertInput = {
  kind: AlertKind;
  /** The channel it concerns; null for the whole deployment (a payment provider, the buy lane). */
  channelId: number | null;
  /** What it is about within its kind: a sale id, a host, a provider; the hour's deduplication is per subject. */
  subject: string;
  /** One line for a person: what happened and what to check. */
  detail: string;
};

/** The same alert is raised at most once in this long (issue 32: "one per event per hour"). */
export const ALERT_QUIET_MS = 60 * 60 * 1000;

export { WEBHOOK_FORMATS, type Webhook, type WebhookFormat } from './webhooks';
export type { WebhookPost } from './webhook-post';

/**
 * When a failed post is tried again, after the try before: 1 minute, 5 minutes, 30 minutes; a post that fails its
 * fourth try is given up (issue 32: a receiver down for a deploy or a minute's outage still gets the alert; one down
 * for longer is a problem the console shows, not one to hammer).
 */
export const ALERT_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000] as const;
/** Tries of one post in all: the first and the retries. */
export const ALERT_MAX_TRIES = ALERT_RETRY_DELAYS_MS.length + 1;
/** A try taken by a process is its own for this long (longer than one post's time limit) before another may take it. */
export const ALERT_TRY_LEASE_MS = 60_000;

/** Where a post goes: the deployment's webhook (env) or the channel's own. */
export type DeliveryTarget = 'deployment' | 'channel';

/** The deployment's webhook from the environment; null when none is set. */
export function configuredWebhook(): Webhook | null {
  const e = env();
  if (!e.ALERT_WEBHOOK_URL) return null;
  return { url: e.ALERT_WEBHOOK_URL, format: e.ALERT_WEBHOOK_FORMAT, secret: e.ALERT_WEBHOOK_SECRET };
}

/** The request one alert makes to a webhook of `format`: its URL (DingTalk signs in the query), headers and body. */
export function webhookRequest(
  hook: Webhook,
  alert: { kind: string; subject: string; detail: string; channelKey?: string | null },
  now: Date,
): { url: string; headers: Record<string, string>; body: string } {
  const text = `[alert] ${alert.kind}${alert.channelKey ? ` ${alert.channelKey}` : ''}: ${alert.detail}`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  switch (hook.format) {
    case 'wecom':
      // WeCom's group robot is keyed by its URL and signs nothing.
      return { url: hook.url, headers, body: JSON.stringify({ msgtype: 'text', text: { content: text } }) };
    case 'dingtalk': {
      // DingTalk's "additional signature": timestamp (ms) and HmacSHA256(secret, "timestamp\nsecret"), base64, in the query.
      let url = hook.url;
      if (hook.secret) {
        const timestamp = String(now.getTime());
        const sign = createHmac('sha256', hook.secret).update(`${timestamp}\n${hook.secret}`).digest('base64');
        const u = new URL(hook.url);
        u.searchParams.set('timestamp', timestamp);
        u.searchParams.set('sign', sign);
        url = u.toString();
      }
      return { url, headers, body: JSON.stringify({ msgtype: 'text', text: { content: text } }) };
    }
    case 'feishu': {
      // Feishu's signature: HmacSHA256 keyed by "timestamp\nsecret" over nothing, base64; timestamp in seconds.
      const body: Record<string, unknown> = { msg_type: 'text', content: { text } };
      if (hook.secret) {
        const timestamp = String(Math.floor(now.getTime() / 1000));
        body.timestamp = timestamp;
        body.sign = createHmac('sha256', `${timestamp}\n${hook.secret}`).update('').digest('base64');
      }
      return { url: hook.url, headers, body: JSON.stringify(body) };
    }
    case 'json': {
      const body = JSON.stringify({
        kind: alert.kind,
        channel: alert.channelKey ?? null,
        subject: alert.subject,
        text,
        at: now.toISOString(),
      });
      if (hook.secret) {
        // Our own: HMAC-SHA256 over "timestamp.body", hex, so a receiver can tell our posts from anyone's.
        const timestamp = String(Math.floor(now.getTime() / 1000));
        headers['x-storefront-timestamp'] = timestamp;
        headers['x-storefront-signature'] = createHmac('sha256', hook.secret).update(`${timestamp}.${body}`).digest('hex');
      }
      return { url: hook.url, headers, body };
    }
  }
}

/**
 * Why a receiver's answer is not "taken", or null when it is: a status outside 2xx (a redirect too: none is followed),
 * or the vendor's refusal in a 200 body (WeCom and DingTalk answer `errcode`, Feishu `code`: a wrong signature, a
 * keyword the robot wants, a robot past its rate).
 */
export function answerProblem(format: Webhook['format'], answer: WebhookAnswer): string | null {
  const said = answer.body.replace(/\s+/g, ' ').trim().slice(0, 160);
  if (answer.status < 200 || answer.status >= 300) return `HTTP ${answer.status}${said ? `: ${said}` : ''}`;
  if (format === 'json') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    return null; // a 2xx the vendor did not explain: taken
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const o = parsed as Record<string, unknown>;
  const code = format === 'feishu' ? (o.code ?? o.StatusCode) : o.errcode;
  if (code === undefined || code === 0 || code === '0') return null;
  const why = format === 'feishu' ? (o.msg ?? o.StatusMessage) : o.errmsg;
  return `${format === 'feishu' ? 'code' : 'errcode'} ${String(code)}${typeof why === 'string' ? `: ${why.slice(0, 160)}` : ''}`;
}

/**
 * The poster of a target: a channel's webhook, typed by an owner, under the deployment's rules (production: https, no
 * address inside); the deployment's own, set by whoever runs the servers and checked by lib/env.ts (https, or http to
 * a relay on this machine), trusted as configured.
 */
function posterFor(target: DeliveryTarget): WebhookPost {
  return guardedPost(target === 'channel' ? webhookRules() : { production: false });
}

export type RaiseOptions = {
  /** The deployment's webhook; undefined: ALERT_WEBHOOK_URL's. */
  webhook?: Webhook | null;
  post?: WebhookPost;
  channelKey?: string | null;
  /** The caller wrote its own `[alert]` line for this event (the SMS budget, the domains): not logged twice. */
  logged?: boolean;
  /** The key that opens the channels' webhook secrets (tests); default from AUTH_SECRET. */
  sealKey?: Buffer;
};

type AlertText = { kind: string; subject: string; detail: string; channelKey?: string | null };

/** One post of an alert to a webhook: the receiver's answer, and why it was not taken (null: taken). */
export async function postAlert(
  hook: Webhook,
  alert: AlertText,
  now: Date,
  post: WebhookPost = guardedPost(webhookRules()),
): Promise<{ status: number | null; said: string; problem: string | null }> {
  try {
    const request = webhookRequest(hook, alert, now);
    const answer = await post(request.url, { headers: request.headers, body: request.body });
    return { status: answer.status, said: answer.body.slice(0, 500), problem: answerProblem(hook.format, answer) };
  } catch (error) {
    const why = ((error as Error).message || String(error)).slice(0, 200);
    return { status: null, said: why, problem: why };
  }
}

/**
 * Makes one try of a delivery the caller holds (its lease taken), records how it went: delivered; failed and due again
 * after the next delay; or, at the last try, given up. `attempts` is the tries before this one.
 */
async function tryDelivery(
  db: Db,
  delivery: { id: number; alertId: number; target: DeliveryTarget; attempts: number },
  hook: Webhook | null,
  alert: AlertText,
  now: Date,
  post: WebhookPost,
): Promise<boolean> {
  const tries = delivery.attempts + 1;
  const problem = hook ? (await postAlert(hook, alert, now, post)).problem : 'the webhook was removed';
  if (!problem) {
    await db
      .update(alertDeliveries)
      .set({ attempts: tries, deliveredAt: now, nextAttemptAt: null, lastError: null })
      .where(eq(alertDeliveries.id, delivery.id));
    await db
      .update(alerts)
      .set({ deliveredAt: now })
      .where(and(eq(alerts.id, delivery.alertId), isNull(alerts.deliveredAt)));
    return true;
  }
  const givenUp = !hook || tries >= ALERT_MAX_TRIES;
  const next = givenUp ? null : new Date(now.getTime() + ALERT_RETRY_DELAYS_MS[tries - 1]!);
  await db
    .update(alertDeliveries)
    .set({ attempts: tries, nextAttemptAt: next, failedAt: givenUp ? now : null, lastError: problem })
    .where(eq(alertDeliveries.id, delivery.id));
  await db.update(alerts).set({ deliveryError: problem }).where(eq(alerts.id, delivery.alertId));
  const target = delivery.target === 'channel' ? "the channel's alert webhook" : 'the alert webhook';
  console.error(
    givenUp
      ? `[alert] ${target} did not take alert ${delivery.alertId} (${problem}); given up after ${tries} ${tries === 1 ? 'try' : 'tries'}`
      : `[alert] ${target} did not take alert ${delivery.alertId} (${problem}); trying again at ${next!.toISOString()}`,
  );
  return false;
}

/**
 * Raises an alert unless the same one was raised within the hour: answers whether it was. Never throws (a trigger is
 * a buyer's buy or a job's pass, which an alert must not break): a failure is logged. The triggers call it without
 * awaiting; tests await it. The first try of each post is made here; the jobs retry those that fail.
 */
export async function raiseAlert(db: Db, alert: AlertInput, now: Date = new Date(), options: RaiseOptions = {}): Promise<boolean> {
  try {
    const key = `${alert.kind}|${alert.channelId ?? '-'}|${alert.subject}`.slice(0, 300);
    // One atomic statement: a first raise inserts; a later one takes the gate only an hour after the last.
    const gate = await db
      .insert(alertGates)
      .values({ key, raisedAt: now })
      .onConflictDoUpdate({
        target: alertGates.key,
        set: { raisedAt: now },
        // An ISO string with its cast: postgres.js and PGlite bind a bare Date differently.
        setWhere: sql`${alertGates.raisedAt} <= ${new Date(now.getTime() - ALERT_QUIET_MS).toISOString()}::timestamptz`,
      })
      .returning({ key: alertGates.key });
    if (gate.length === 0) return false;
    const detail = alert.detail.slice(0, 500);
    const subject = alert.subject.slice(0, 200);
    const [row] = await db
      .insert(alerts)
      .values({ kind: alert.kind, channelId: alert.channelId, subject, detail, createdAt: now })
      .returning({ id: alerts.id });
    if (!options.logged) console.error(`[alert] ${alert.kind}${alert.channelId === null ? '' : ` channel ${alert.channelId}`}: ${detail}`);
    const hooks: [DeliveryTarget, Webhook][] = [];
    const deployment = options.webhook === undefined ? configuredWebhook() : options.webhook;
    if (deployment) hooks.push(['deployment', deployment]);
    let channelKey = options.channelKey;
    if (alert.channelId !== null) {
      const own = await channelWebhook(db, alert.channelId, options.sealKey);
      if (own) {
        hooks.push(['channel', own]);
        channelKey ??= (await db.select({ key: channels.key }).from(channels).where(eq(channels.id, alert.channelId)))[0]?.key;
      }
    }
    if (hooks.length === 0) return true;
    // Each post held by this process for its first try (ALERT_TRY_LEASE_MS): the jobs take it only if this one dies.
    const deliveries = await db
      .insert(alertDeliveries)
      .values(hooks.map(([target]) => ({ alertId: row!.id, target, nextAttemptAt: new Date(now.getTime() + ALERT_TRY_LEASE_MS) })))
      .returning({ id: alertDeliveries.id, target: alertDeliveries.target });
    await Promise.all(
      deliveries.map((d) =>
        tryDelivery(
          db,
          { id: d.id, alertId: row!.id, target: d.target as DeliveryTarget, attempts: 0 },
          hooks.find(([target]) => target === d.target)![1],
          { kind: alert.kind, subject, detail, channelKey },
          now,
          options.post ?? posterFor(d.target as DeliveryTarget),
        ),
      ),
    );
    return true;
  } catch (error) {
    console.error(`[alert] could not record the ${alert.kind} alert (${alert.subject})`, error);
    return false;
  }
}

export type RetryReport = { tried: number; delivered: number; givenUp: number };

/**
 * The jobs' retry of failed posts (and of first tries a process died holding): each delivery due by `now`, at most
 * `limit` a pass, taken by one UPDATE so that two processes never post the same try. A channel's webhook is read again
 * at each try (an owner who fixed its URL gets the retries there); one removed since gives the post up.
 */
export async function retryAlertDeliveries(
  db: Db,
  now: Date,
  options: { webhook?: Webhook | null; post?: WebhookPost; sealKey?: Buffer; limit?: number } = {},
): Promise<RetryReport> {
  const report: RetryReport = { tried: 0, delivered: 0, givenUp: 0 };
  const due = await db
    .select({
      id: alertDeliveries.id,
      alertId: alertDeliveries.alertId,
      target: alertDeliveries.target,
      attempts: alertDeliveries.attempts,
      nextAttemptAt: alertDeliveries.nextAttemptAt,
      kind: alerts.kind,
      subject: alerts.subject,
      detail: alerts.detail,
      channelId: alerts.channelId,
      channelKey: channels.key,
    })
    .from(alertDeliveries)
    .innerJoin(alerts, eq(alerts.id, alertDeliveries.alertId))
    .leftJoin(channels, eq(channels.id, alerts.channelId))
    .where(lte(alertDeliveries.nextAttemptAt, now))
    .orderBy(asc(alertDeliveries.nextAttemptAt))
    .limit(options.limit ?? 20);
  for (const d of due) {
    // Taken only if no other process took it since it was read (its due time moves on when taken).
    const taken = await db
      .update(alertDeliveries)
      .set({ nextAttemptAt: new Date(now.getTime() + ALERT_TRY_LEASE_MS) })
      .where(and(eq(alertDeliveries.id, d.id), eq(alertDeliveries.attempts, d.attempts), lte(alertDeliveries.nextAttemptAt, now)))
      .returning({ id: alertDeliveries.id });
    if (taken.length === 0) continue;
    const target = d.target as DeliveryTarget;
    const hook =
      target === 'deployment'
        ? options.webhook === undefined
          ? configuredWebhook()
          : options.webhook
        : d.channelId === null
          ? null
          : await channelWebhook(db, d.channelId, options.sealKey);
    report.tried++;
    const ok = await tryDelivery(
      db,
      { id: d.id, alertId: d.alertId, target, attempts: d.attempts },
      hook,
      { kind: d.kind, subject: d.subject, detail: d.detail, channelKey: d.channelKey },
      now,
      options.post ?? posterFor(target),
    );
    if (ok) report.delivered++;
    else if (!hook || d.attempts + 1 >= ALERT_MAX_TRIES) report.givenUp++;
  }
  return report;
}

/** A post's state as the console shows it: being tried, taken, failed and due again, or given up. */
export type DeliveryState = 'sending' | 'delivered' | 'retrying' | 'failed';

export type DeliveryView = {
  target: DeliveryTarget;
  state: DeliveryState;
  tries: number;
  nextTryAt: Date | null;
  /** Why the last try failed; for the deployment's webhook not shown to a channel's operators (its address is not theirs). */
  lastError: string | null;
};

export type AlertView = {
  id: number;
  kind: AlertKind;
  subject: string;
  detail: string;
  createdAt: Date;
  delivered: boolean;
  deliveryError: string | null;
  deliveries: DeliveryView[];
};

function stateOf(d: typeof alertDeliveries.$inferSelect): DeliveryState {
  if (d.deliveredAt) return 'delivered';
  if (d.failedAt) return 'failed';
  return d.attempts === 0 ? 'sending' : 'retrying';
}

/** The latest alerts of a channel and of the whole deployment since `since`, newest first, with each post's state. */
export async function listAlerts(db: Db, channelId: number, since: Date, limit = 50): Promise<AlertView[]> {
  const rows = await db
    .select()
    .from(alerts)
    .where(and(or(eq(alerts.channelId, channelId), isNull(alerts.channelId)), gte(alerts.createdAt, since)))
    .orderBy(desc(alerts.createdAt), desc(alerts.id))
    .limit(limit);
  const posts =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(alertDeliveries)
          .where(
            inArray(
              alertDeliveries.alertId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(asc(alertDeliveries.id));
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as AlertKind,
    subject: r.subject,
    detail: r.detail,
    createdAt: r.createdAt,
    delivered: r.deliveredAt !== null,
    deliveryError: r.deliveryError,
    deliveries: posts
      .filter((d) => d.alertId === r.id)
      .map((d) => ({
        target: d.target as DeliveryTarget,
        state: stateOf(d),
        tries: d.attempts,
        nextTryAt: d.deliveredAt || d.failedAt ? null : d.nextAttemptAt,
        lastError: d.target === 'channel' ? d.lastError : null,
      })),
  }));
}

/**
 * The console's "send a test alert" (issue 32): posts a test alert to the channel's webhook now, as an alert would go,
 * and answers what the receiver said; nothing is recorded (it is not an alert). Null when the channel has none.
 */
export async function sendTestAlert(
  db: Db,
  channel: { id: number; key: string },
  now: Date,
  options: { post?: WebhookPost; sealKey?: Buffer } = {},
): Promise<{ taken: boolean; status: number | null; said: string; problem: string | null } | null> {
  const hook = await channelWebhook(db, channel.id, options.sealKey ?? webhookSealKey());
  if (!hook) return null;
  const outcome = await postAlert(
    hook,
    { kind: 'test', subject: 'test', detail: 'a test alert from the console: this webhook works.', channelKey: channel.key },
    now,
    options.post,
  );
  return { taken: outcome.problem === null, ...outcome };
}
