import 'server-only';
import { createHmac } from 'node:crypto';
import { and, desc, eq, gte, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { alertGates, alerts } from '../db/schema';
import { env } from '../env';

/**
 * Alerts an operator must act on (issue 32, "Reports": a drop sold out, busy answers above a threshold, the SMS budget
 * spent, a domain check failing, a provider refusing). Each is raised by one line where its event already happens,
 * recorded in `alerts` (the reports page lists them), logged with `[alert]`, and posted to the deployment's webhook
 * (ALERT_WEBHOOK_URL: WeCom, DingTalk, Feishu or plain JSON; docs/reports.md). One per event per hour: the same
 * (kind, channel, subject) raised again within the hour, by any process, is dropped (`alert_gates`).
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

export const WEBHOOK_FORMATS = ['json', 'wecom', 'dingtalk', 'feishu'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export type Webhook = { url: string; format: WebhookFormat; secret?: string };

/** What posts a webhook: `fetch`, or a test's double. Answers the HTTP status. */
export type WebhookPost = (url: string, init: { headers: Record<string, string>; body: string }) => Promise<number>;

const fetchPost: WebhookPost = async (url, init) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: init.headers,
    body: init.body,
    redirect: 'error',
    signal: AbortSignal.timeout(5_000),
  });
  await response.arrayBuffer().catch(() => undefined);
  return response.status;
};

/** The deployment's webhook from the environment; null when none is set. */
export function configuredWebhook(): Webhook | null {
  const e = env();
  if (!e.ALERT_WEBHOOK_URL) return null;
  return { url: e.ALERT_WEBHOOK_URL, format: e.ALERT_WEBHOOK_FORMAT, secret: e.ALERT_WEBHOOK_SECRET };
}

/** The request one alert makes to a webhook of `format`: its URL (DingTalk signs in the query), headers and body. */
export function webhookRequest(
  hook: Webhook,
  alert: AlertInput & { channelKey?: string | null },
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

/** The answer of one webhook call that means "taken": DingTalk and WeCom answer 200 with errcode in the body too. */
const taken = (status: number) => status >= 200 && status < 300;

export type RaiseOptions = {
  webhook?: Webhook | null;
  post?: WebhookPost;
  channelKey?: string | null;
  /** The caller wrote its own `[alert]` line for this event (the SMS budget, the domains): not logged twice. */
  logged?: boolean;
};

/**
 * Raises an alert unless the same one was raised within the hour: answers whether it was. Never throws (a trigger is
 * a buyer's buy or a job's pass, which an alert must not break): a failure is logged. The triggers call it without
 * awaiting; tests await it.
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
    const [row] = await db
      .insert(alerts)
      .values({ kind: alert.kind, channelId: alert.channelId, subject: alert.subject.slice(0, 200), detail, createdAt: now })
      .returning({ id: alerts.id });
    if (!options.logged) console.error(`[alert] ${alert.kind}${alert.channelId === null ? '' : ` channel ${alert.channelId}`}: ${detail}`);
    const hook = options.webhook === undefined ? configuredWebhook() : options.webhook;
    if (hook) {
      let deliveryError: string | null = null;
      try {
        const request = webhookRequest(hook, { ...alert, detail, channelKey: options.channelKey }, now);
        const status = await (options.post ?? fetchPost)(request.url, { headers: request.headers, body: request.body });
        if (!taken(status)) deliveryError = `HTTP ${status}`;
      } catch (error) {
        deliveryError = (error as Error).message.slice(0, 200);
      }
      if (deliveryError) console.error(`[alert] the alert webhook did not take alert ${row!.id}: ${deliveryError}`);
      await db
        .update(alerts)
        .set(deliveryError ? { deliveryError } : { deliveredAt: new Date() })
        .where(eq(alerts.id, row!.id));
    }
    return true;
  } catch (error) {
    console.error(`[alert] could not record the ${alert.kind} alert (${alert.subject})`, error);
    return false;
  }
}

export type AlertView = {
  id: number;
  kind: AlertKind;
  subject: string;
  detail: string;
  createdAt: Date;
  delivered: boolean;
  deliveryError: string | null;
};

/** The latest alerts of a channel and of the whole deployment since `since`, newest first. */
export async function listAlerts(db: Db, channelId: number, since: Date, limit = 50): Promise<AlertView[]> {
  const rows = await db
    .select()
    .from(alerts)
    .where(and(or(eq(alerts.channelId, channelId), isNull(alerts.channelId)), gte(alerts.createdAt, since)))
    .orderBy(desc(alerts.createdAt), desc(alerts.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as AlertKind,
    subject: r.subject,
    detail: r.detail,
    createdAt: r.createdAt,
    delivered: r.deliveredAt !== null,
    deliveryError: r.deliveryError,
  }));
}
