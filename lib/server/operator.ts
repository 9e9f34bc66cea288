import 'server-only';
import { z } from 'zod';
import { channelSettingsPatchSchema, skinPatchSchema, updateChannelSettings, updateChannelSkin } from '../channel/operator';
import { isValidChannelKey } from '../channel/key';
import { SKIN_COLOR_FIELDS, skinImageRule } from '../channel/skin';
import type { Db } from '../db/client';
import { resolveApiKey } from '../operator/api-keys';
import { operatorChannel } from '../operator/channels';
import { recordAudit } from '../operator/audit';
import { AppError } from '../procedure/errors';
import { msg, renderMessage } from '../procedure/messages';
import type { OperatorSession } from '../procedure/scope';
import { clientIp } from './client-ip';
import { readBodyWithin } from './http';

/** A skin or a channel's settings are a few hundred bytes of JSON; the body is not read past this. */
const MAX_OPERATOR_BODY_BYTES = 16_384;

export type OperatorOptions = {
  db: Db;
  /** The deployment's media hosts a skin image may name (MEDIA_ORIGINS). */
  mediaOrigins?: readonly string[];
  /** The clock of the key's last use and the wrong-key limit; tests set it. */
  now?: Date;
};

type Answer = { code: number; message: string; data: unknown };

function answer(status: number, message: string, data: unknown = null, headers: HeadersInit = {}): Response {
  const body: Answer = { code: status, message, data };
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });
}

/** These calls' kinds in the audit trail. */
const SKIN_KIND = 'PATCH /api/operator/channels/:key/skin';
const SETTINGS_KIND = 'PATCH /api/operator/channels/:key/settings';

/** The roles whose keys may change a channel here (issue 31): support reads, it does not write. */
const WRITER_ROLES = ['owner', 'manager'] as const;

/**
 * Who calls (issue 31: "`OPERATOR_TOKEN` goes"): an operator's API key, `Authorization: Bearer <key>`, of a manager or
 * an owner whose key works on channel `key`. 401 without a key or with one unknown, revoked or of a disabled operator;
 * 429 after too many wrong keys from the address (lib/operator/api-keys.ts); 403 for a support key; 404 for a channel
 * the key does not reach, in the same words as one that does not exist. Answers the operator and channel, or the
 * refusal to send.
 */
async function authorizeKey(
  request: Request,
  key: string,
  options: OperatorOptions,
): Promise<{ operator: OperatorSession; channelId: number } | { refusal: Response }> {
  const now = options.now ?? new Date();
  // Exactly `Bearer <key>`, as before the keys (issue 29): anything else is no credential.
  const presented = /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? null;
  if (!presented) {
    return { refusal: answer(401, 'authorization: must be "Bearer <API key>"', null, { 'www-authenticate': 'Bearer' }) };
  }
  try {
    const operator = await resolveApiKey(options.db, { key: presented, now, ip: clientIp(request.headers) });
    if (!(WRITER_ROLES as readonly string[]).includes(operator.role)) throw new AppError(403, msg('opsRoleRefused'));
    if (!isValidChannelKey(key)) throw new AppError(404, msg('opsChannelNotGranted'));
    const channel = await operatorChannel(options.db, operator, key);
    return { operator, channelId: channel.id };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const message = error.messageIn('en');
    if (error.code === 429) {
      const params: Record<string, unknown> = error.text?.params ?? {};
      const seconds = Math.max(1, Math.ceil(Number(params.waitMs ?? 1000) / 1000));
      return { refusal: answer(429, message, null, { 'retry-after': String(seconds) }) };
    }
    return { refusal: answer(error.code, message, null, error.code === 401 ? { 'www-authenticate': 'Bearer' } : {}) };
  }
}

/**
 * Reads an operator call (docs/api.md, "Operator API"): the key and channel first (authorizeKey), then a body over
 * 16 KiB is 413 and one that is not JSON 400. Answers the operator, the channel and the JSON body, or the refusal.
 */
async function operatorBody(
  request: Request,
  key: string,
  options: OperatorOptions,
  what: string,
): Promise<{ json: unknown; operator: OperatorSession; channelId: number } | { refusal: Response }> {
  const authorized = await authorizeKey(request, key, options);
  if ('refusal' in authorized) return authorized;
  const text = await readBodyWithin(request, MAX_OPERATOR_BODY_BYTES);
  if (text === null) return { refusal: answer(413, 'body: must be 16 KiB or less', null, { connection: 'close' }) };
  try {
    return { json: JSON.parse(text), ...authorized };
  } catch {
    return { refusal: answer(400, `body: must be a JSON object of ${what}`) };
  }
}

/**
 * The write in the audit trail (issue 31): the key's operator, the address, the channel, the change, before and after;
 * written by the change's own transaction (`tx`), so it exists exactly when the change does.
 */
function audit(request: Request, options: OperatorOptions, body: { operator: OperatorSession }, procedure: string, input: unknown) {
  return async (tx: Db, change: { channelId: number; before: unknown; after: unknown }): Promise<void> => {
    await recordAudit(tx, {
      at: options.now ?? new Date(),
      operatorId: body.operator.operatorId,
      operatorName: body.operator.name,
      ip: clientIp(request.headers),
      channelId: change.channelId,
      procedure,
      input,
      before: change.before,
      after: change.after,
    });
  };
}

/**
 * PATCH /api/operator/channels/:key/skin (docs/api.md): an operator changes a channel's skin colours or images. A body
 * that is not a skin change is 400 naming the field and why. The answer is the skin the channel's pages now show.
 */
export async function handleOperatorSkin(request: Request, key: string, options: OperatorOptions): Promise<Response> {
  const body = await operatorBody(request, key, options, 'skin fields');
  if ('refusal' in body) return body.refusal;
  const mediaOrigins = options.mediaOrigins ?? [];
  const parsed = skinPatchSchema(key, mediaOrigins).safeParse(body.json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.') || 'body';
    const why = issue.code === 'unrecognized_keys' ? 'is not a skin field' : fieldProblem(issue, skinImageRule(key, mediaOrigins));
    return answer(400, `${field}: ${why}`);
  }
  const skin = await updateChannelSkin(options.db, key, parsed.data, audit(request, options, body, SKIN_KIND, parsed.data));
  if (!skin) return answer(404, renderMessage(msg('opsChannelNotGranted'), 'en'));
  return answer(200, 'ok', skin);
}

/**
 * PATCH /api/operator/channels/:key/settings (docs/api.md): an operator sets which payment providers a channel offers
 * and its own SMS sign name and template (issue 18). 400 names the field and why; the answer is the settings now.
 */
export async function handleOperatorSettings(request: Request, key: string, options: OperatorOptions): Promise<Response> {
  const body = await operatorBody(request, key, options, 'channel settings');
  if ('refusal' in body) return body.refusal;
  const parsed = channelSettingsPatchSchema.safeParse(body.json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') return answer(400, `${issue.keys.join(', ')}: is not a channel setting`);
    const field = issue.path.filter((p) => typeof p === 'string').join('.') || 'body';
    return answer(
      400,
      `${field}: ${issue.path.length === 0 && issue.code === 'invalid_type' ? 'must be a JSON object of channel settings' : issue.message}`,
    );
  }
  // The payment providers are a sensitive write (issue 31, `reauth` on the console's savePayment): a key cannot make
  // one, here as there, or a leaked key could send a store's buyers to another provider.
  if (parsed.data.paymentProviders !== undefined) return answer(403, `paymentProviders: ${renderMessage(msg('opsReauthApiKey'), 'en')}`);
  const settings = await updateChannelSettings(options.db, key, parsed.data, audit(request, options, body, SETTINGS_KIND, parsed.data));
  if (!settings) return answer(404, renderMessage(msg('opsChannelNotGranted'), 'en'));
  return answer(200, 'ok', settings);
}

function fieldProblem(issue: z.core.$ZodIssue, imageRule: string): string {
  if (issue.path.length === 0) return issue.code === 'invalid_type' ? 'must be a JSON object of skin fields' : issue.message;
  if (issue.code !== 'invalid_format' && issue.code !== 'invalid_type') return issue.message;
  return (SKIN_COLOR_FIELDS as readonly PropertyKey[]).includes(issue.path[0]!)
    ? 'must be a CSS colour: #rgb, #rrggbb, rgb(), rgba(), hsl(), hsla() or a colour name'
    : imageRule;
}
