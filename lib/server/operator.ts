import 'server-only';
import { z } from 'zod';
import { channelSettingsPatchSchema, skinPatchSchema, updateChannelSettings, updateChannelSkin } from '../channel/operator';
import { isValidChannelKey } from '../channel/key';
import { SKIN_COLOR_FIELDS, skinImageRule } from '../channel/skin';
import type { Db } from '../db/client';
import { hit, type Limit } from '../rate-limit/rate-limit';
import { sameDigest, sha256 } from '../security/crypto';
import { clientIp } from './client-ip';
import { readBodyWithin } from './http';

/** A skin or a channel's settings are a few hundred bytes of JSON; the body is not read past this. */
const MAX_OPERATOR_BODY_BYTES = 16_384;

/**
 * Wrong operator tokens one client address may present (issue 29): 10 per 15 minutes, counted before the comparison
 * and given back when the token is right. The token has 32+ characters, so the limit does not protect it from being
 * guessed; it keeps a scanner from hammering the API and gets an operator's attention (`[alert]`). Per address, never
 * per account: a stranger cannot lock the real operator out from elsewhere.
 */
export const OPERATOR_WRONG_TOKENS = { max: 10, windowMs: 15 * 60_000 } as const;

export type OperatorOptions = {
  db: Db;
  token: string | undefined;
  /** The deployment's media hosts a skin image may name (MEDIA_ORIGINS). */
  mediaOrigins?: readonly string[];
  /** The clock of the wrong-token limit; tests set it. */
  now?: Date;
};

type Answer = { code: number; message: string; data: unknown };

function answer(status: number, message: string, data: unknown = null, headers: HeadersInit = {}): Response {
  const body: Answer = { code: status, message, data };
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });
}

/** The token of `Authorization: Bearer <token>`, or null when the header is not of that form. */
function presentedToken(authorization: string | null): string | null {
  return /^Bearer (\S+)$/.exec(authorization ?? '')?.[1] ?? null;
}

/**
 * Whether the call carries the operator token (compared in constant time, by digest). A call with an Authorization
 * header counts against its address's wrong-token limit before the comparison, so concurrent guesses cannot pass
 * it, and a right token is given back. Answers the refusal to send, or null.
 */
async function checkToken(request: Request, token: string, options: OperatorOptions): Promise<Response | null> {
  const authorization = request.headers.get('authorization');
  const refused = () => answer(401, 'authorization: must be "Bearer <operator token>"', null, { 'www-authenticate': 'Bearer' });
  // No credentials at all guess nothing; a browser or a probe without them is told what to send.
  if (authorization === null) return refused();
  const ip = clientIp(request.headers);
  const now = options.now ?? new Date();
  const limit: Limit = { bucket: `operator:wrong-token:${ip}`, ...OPERATOR_WRONG_TOKENS };
  const counted = await hit(options.db, limit, now);
  if (!counted.allowed) {
    const seconds = Math.max(1, Math.ceil((counted.resetAt.getTime() - now.getTime()) / 1000));
    // Once per address and window: the first call over the limit says so; the rest are refused quietly.
    if (counted.count === limit.max + 1) {
      console.error(
        `[alert] operator API: ${limit.max} wrong tokens from ${ip} within ${limit.windowMs / 60_000} minutes; ` +
          `its calls are refused until ${counted.resetAt.toISOString()}. If that is not an operator, block the address.`,
      );
    }
    const minutes = Math.ceil(seconds / 60);
    return answer(
      429,
      `authorization: too many wrong operator tokens from this address; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
      null,
      { 'retry-after': String(seconds) },
    );
  }
  const presented = presentedToken(authorization);
  if (presented !== null && sameDigest(sha256(presented), sha256(token))) {
    await counted.undo();
    return null;
  }
  console.warn(`[operator] wrong operator token from ${ip} (${counted.count} of ${limit.max} within ${limit.windowMs / 60_000} minutes)`);
  return refused();
}

/**
 * Reads an operator call (docs/api.md, "Operator API"): off (404) unless OPERATOR_TOKEN is set; a missing or wrong
 * token is 401, and too many wrong ones from the caller's address 429; an unknown channel key 404; a body over 16 KiB
 * 413; a body that is not JSON 400. Answers the JSON body, or the refusal to send.
 */
async function operatorBody(
  request: Request,
  key: string,
  options: OperatorOptions,
  what: string,
): Promise<{ json: unknown } | { refusal: Response }> {
  if (!options.token) return { refusal: answer(404, 'not found') };
  const refusal = await checkToken(request, options.token, options);
  if (refusal) return { refusal };
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
  const skin = await updateChannelSkin(options.db, key, parsed.data);
  if (!skin) return answer(404, `channel: ${key} does not exist`);
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
  const settings = await updateChannelSettings(options.db, key, parsed.data);
  if (!settings) return answer(404, `channel: ${key} does not exist`);
  return answer(200, 'ok', settings);
}

function fieldProblem(issue: z.core.$ZodIssue, imageRule: string): string {
  if (issue.path.length === 0) return issue.code === 'invalid_type' ? 'must be a JSON object of skin fields' : issue.message;
  if (issue.code !== 'invalid_format' && issue.code !== 'invalid_type') return issue.message;
  return (SKIN_COLOR_FIELDS as readonly PropertyKey[]).includes(issue.path[0]!)
    ? 'must be a CSS colour: #rgb, #rrggbb, rgb(), rgba(), hsl(), hsla() or a colour name'
    : imageRule;
}
