import 'server-only';
import { z } from 'zod';
import { channelSettingsPatchSchema, skinPatchSchema, updateChannelSettings, updateChannelSkin } from '../channel/operator';
import { isValidChannelKey } from '../channel/key';
import { SKIN_COLOR_FIELDS } from '../channel/skin';
import type { Db } from '../db/client';
import { sameDigest, sha256 } from '../security/crypto';
import { readBodyWithin } from './http';

/** A skin or a channel's settings are a few hundred bytes of JSON; the body is not read past this. */
const MAX_OPERATOR_BODY_BYTES = 16_384;

type Answer = { code: number; message: string; data: unknown };

function answer(status: number, message: string, data: unknown = null, headers: HeadersInit = {}): Response {
  const body: Answer = { code: status, message, data };
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });
}

/** Whether `authorization` is `Bearer <token>` (compared in constant time, by digest). */
function authorized(authorization: string | null, token: string): boolean {
  const presented = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  return presented !== undefined && sameDigest(sha256(presented), sha256(token));
}

/**
 * Reads an operator call (docs/api.md, "Operator API"): off (404) unless OPERATOR_TOKEN is set; a missing or wrong
 * token is 401; an unknown channel key 404; a body over 16 KiB 413; a body that is not JSON 400. Answers the JSON body,
 * or the refusal to send.
 */
async function operatorBody(
  request: Request,
  key: string,
  token: string | undefined,
  what: string,
): Promise<{ json: unknown } | { refusal: Response }> {
  if (!token) return { refusal: answer(404, 'not found') };
  if (!authorized(request.headers.get('authorization'), token)) {
    return { refusal: answer(401, 'authorization: must be "Bearer <operator token>"', null, { 'www-authenticate': 'Bearer' }) };
  }
  if (!isValidChannelKey(key)) return { refusal: answer(404, `channel: ${key} does not exist`) };
  const text = await readBodyWithin(request, MAX_OPERATOR_BODY_BYTES);
  if (text === null) return { refusal: answer(413, 'body: must be 16 KiB or less', null, { connection: 'close' }) };
  try {
    return { json: JSON.parse(text) };
  } catch {
    return { refusal: answer(400, `body: must be a JSON object of ${what}`) };
  }
}

/**
 * PATCH /api/operator/channels/:key/skin (docs/api.md): an operator changes a channel's skin colours or images. A body
 * that is not a skin change is 400 naming the field and why. The answer is the skin the channel's pages now show.
 */
export async function handleOperatorSkin(request: Request, key: string, options: { db: Db; token: string | undefined }): Promise<Response> {
  const body = await operatorBody(request, key, options.token, 'skin fields');
  if ('refusal' in body) return body.refusal;
  const parsed = skinPatchSchema.safeParse(body.json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.') || 'body';
    const why = issue.code === 'unrecognized_keys' ? 'is not a skin field' : fieldProblem(issue);
    return answer(400, `${field}: ${why}`);
  }
  const skin = await updateChannelSkin(options.db, key, parsed.data);
  if (!skin) return answer(404, `channel: ${key} does not exist`);
  return answer(200, 'ok', skin);
}

/**
 * PATCH /api/operator/channels/:key/settings (docs/api.md): an operator sets which payment providers a channel offers
 * and its own SMS sign name and template (issue 18). 400 names the field and why; the answer is the settings now.
 */
export async function handleOperatorSettings(
  request: Request,
  key: string,
  options: { db: Db; token: string | undefined },
): Promise<Response> {
  const body = await operatorBody(request, key, options.token, 'channel settings');
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
  const settings = await updateChannelSettings(options.db, key, parsed.data);
  if (!settings) return answer(404, `channel: ${key} does not exist`);
  return answer(200, 'ok', settings);
}

function fieldProblem(issue: z.core.$ZodIssue): string {
  if (issue.path.length === 0) return issue.code === 'invalid_type' ? 'must be a JSON object of skin fields' : issue.message;
  if (issue.code !== 'invalid_format' && issue.code !== 'invalid_type') return issue.message;
  return (SKIN_COLOR_FIELDS as readonly PropertyKey[]).includes(issue.path[0]!)
    ? 'must be a CSS colour: #rgb, #rrggbb, rgb(), rgba(), hsl(), hsla() or a colour name'
    : 'must be a site path (/...) or an http(s) URL, without quotes, brackets or spaces';
}
