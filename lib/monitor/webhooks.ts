import 'server-only';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { channelAlertWebhooks } from '../db/schema';
import { env } from '../env';
import { AppError } from '../procedure/errors';
import { msg, type ApiMessage } from '../procedure/messages';
import { hostProblem, type WebhookRules } from './webhook-post';

/**
 * A channel's own alert webhook (issue 32, "Reports": alerts go "to a webhook the owner sets (WeCom, DingTalk,
 * Feishu, or any URL)"): set, changed and removed by an owner in the console (lib/operator/alert-procedures.ts), each
 * write audited with the webhook before and after as `webhookAudit` shows it: the URL with its tokens masked, the
 * format, whether it is signed; never the signing secret. The secret is sealed at rest (AES-256-GCM under a key derived
 * from AUTH_SECRET, bound to the channel, as redeem-code batches seal their codes) and opened only to sign a post.
 */

export const WEBHOOK_FORMATS = ['json', 'wecom', 'dingtalk', 'feishu'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** A webhook as a post needs it: the secret in the clear. */
export type Webhook = { url: string; format: WebhookFormat; secret?: string };

/** Formats with a signature: DingTalk's and Feishu's own, and ours for json. WeCom's robot is keyed by its URL. */
export const SIGNED_FORMATS: readonly WebhookFormat[] = ['json', 'dingtalk', 'feishu'];

/** The longest URL taken (a robot's URL with its token is about 120 characters). */
export const WEBHOOK_URL_MAX = 1_000;

/** The rules of the running deployment: production's unless NODE_ENV is not production or DEMO_MODE=1 (lib/env.ts). */
export function webhookRules(): WebhookRules {
  const e = env();
  return { production: e.NODE_ENV === 'production' && e.DEMO_MODE !== '1' };
}

/** Why a URL may not be a webhook under `rules`, as a refusal naming `url` (400-like, business code), or null. */
export function webhookUrlProblem(value: string, rules: WebhookRules): ApiMessage | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return msg('alertWebhookUrlInvalid');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return msg('alertWebhookUrlInvalid');
  if (url.username || url.password) return msg('alertWebhookUrlCredentials');
  // Alerts name a channel and its trouble: over TLS in production (http to loopback only for the tests' receivers).
  if (rules.production && url.protocol !== 'https:') return msg('alertWebhookUrlHttps');
  // The host as typed; the address a name resolves to is checked again at each post (lib/monitor/webhook-post.ts).
  const problem = hostProblem(url.hostname, rules);
  if (problem) return msg('alertWebhookUrlInternal', { host: url.hostname });
  return null;
}

/**
 * The URL as the console and the audit trail show it: a robot's URL is its key (WeCom `key=`, DingTalk
 * `access_token=`, Feishu's hook id in the path), so query values and long path parts keep only their last 4 characters.
 */
export function maskedUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return '…';
  }
  const mask = (part: string) => (part.length > 8 ? `…${part.slice(-4)}` : part);
  const path = url.pathname
    .split('/')
    .map((p) => (p.length >= 16 ? mask(p) : p))
    .join('/');
  const query = [...url.searchParams.entries()].map(([k, v]) => `${k}=${v.length > 4 ? `…${v.slice(-4)}` : '…'}`).join('&');
  return `${url.protocol}//${url.host}${path}${query ? `?${query}` : ''}`;
}

/** The key that seals the webhooks' signing secrets: derived from the deployment's secret, never the secret itself. */
export function webhookSealKey(secret: string = env().AUTH_SECRET): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'alert-webhooks', 'seal the signing secrets of alert webhooks', 32));
}

function seal(key: Buffer, channelId: number, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`alert-webhook:${channelId}`));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64')).join('.');
}

function unseal(key: Buffer, channelId: number, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64')) as [Buffer, Buffer, Buffer];
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(`alert-webhook:${channelId}`));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/** A channel's webhook as the console shows it (and the trail keeps it): no secret, the URL masked. */
export type WebhookView = { url: string; format: WebhookFormat; signed: boolean; updatedAt: Date };

type Row = typeof channelAlertWebhooks.$inferSelect;

const viewOf = (row: Row): WebhookView => ({
  url: maskedUrl(row.url),
  format: row.format as WebhookFormat,
  signed: row.secretSealed !== null,
  updatedAt: row.updatedAt,
});

/** What the audit trail keeps of a change: the webhook before and after (null: none), as the console shows it. */
export type WebhookAudit = (
  tx: Db,
  change: { channelId: number; before: { webhook: WebhookView | null }; after: { webhook: WebhookView | null } | null },
) => Promise<void>;

/** The channel's webhook as the console shows it, or null. */
export async function readChannelWebhook(db: Db, channelId: number): Promise<WebhookView | null> {
  const [row] = await db.select().from(channelAlertWebhooks).where(eq(channelAlertWebhooks.channelId, channelId));
  return row ? viewOf(row) : null;
}

/** The channel's webhook with its secret opened, to post to; null when none is set. */
export async function channelWebhook(db: Db, channelId: number, key: Buffer = webhookSealKey()): Promise<Webhook | null> {
  const [row] = await db.select().from(channelAlertWebhooks).where(eq(channelAlertWebhooks.channelId, channelId));
  if (!row) return null;
  const hook: Webhook = { url: row.url, format: row.format as WebhookFormat };
  if (row.secretSealed) hook.secret = unseal(key, channelId, row.secretSealed);
  return hook;
}

export type WebhookChange = {
  channelId: number;
  /** Omitted: keep the URL set (an owner changing only the format or the secret need not type it again). */
  url?: string;
  format: WebhookFormat;
  /** Omitted: keep the secret set, if the format signs; null: no signature. */
  secret?: string | null;
  now: Date;
  rules?: WebhookRules;
  key?: Buffer;
};

/**
 * Sets or changes a channel's webhook, with one audit entry (before and after) in the same transaction. Refused, naming
 * the field: no URL when none is set, a URL that is not http(s), carries credentials, is http in production or points
 * inside (production); a secret for WeCom, whose robot does not sign.
 */
export async function setChannelWebhook(db: Db, change: WebhookChange, audit: WebhookAudit): Promise<WebhookView> {
  const rules = change.rules ?? webhookRules();
  const key = change.key ?? webhookSealKey();
  if (change.url !== undefined) {
    const problem = webhookUrlProblem(change.url, rules);
    if (problem) throw new AppError(400, problem);
  }
  if (change.secret && !SIGNED_FORMATS.includes(change.format)) throw new AppError(400, msg('alertWebhookSecretUnsigned'));
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(channelAlertWebhooks)
      .where(eq(channelAlertWebhooks.channelId, change.channelId))
      .for('update');
    const url = change.url ?? current?.url;
    if (url === undefined) throw new AppError(400, msg('alertWebhookUrlRequired'));
    let secretSealed: string | null;
    if (!SIGNED_FORMATS.includes(change.format) || change.secret === null) secretSealed = null;
    else if (change.secret) secretSealed = seal(key, change.channelId, change.secret);
    else secretSealed = current?.secretSealed ?? null;
    const values = { url, format: change.format, secretSealed, updatedAt: change.now };
    const [row] = await tx
      .insert(channelAlertWebhooks)
      .values({ channelId: change.channelId, ...values })
      .onConflictDoUpdate({ target: channelAlertWebhooks.channelId, set: values })
      .returning();
    const after = viewOf(row!);
    await audit(tx, { channelId: change.channelId, before: { webhook: current ? viewOf(current) : null }, after: { webhook: after } });
    return after;
  });
}

/** Removes a channel's webhook (its alerts then go to the deployment's only), audited; refused when none is set. */
export async function removeChannelWebhook(db: Db, channelId: number, audit: WebhookAudit): Promise<void> {
  await db.transaction(async (tx) => {
    const [removed] = await tx.delete(channelAlertWebhooks).where(eq(channelAlertWebhooks.channelId, channelId)).returning();
    if (!removed) throw new AppError(404, msg('alertWebhookNone'));
    await audit(tx, { channelId, before: { webhook: viewOf(removed) }, after: null });
  });
}
