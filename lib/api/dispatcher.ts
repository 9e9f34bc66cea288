import 'server-only';
import type { z } from 'zod';
import { getDb, type Db } from '../db/client';
import { env } from '../env';
import { channelKeyFromHost } from '../channel/key';
import { requireChannel, type ChannelRow } from '../channel/service';
import { AppError, type Envelope } from './errors';
import { registry } from './registry';
import type { Procedure } from './procedure';

export type ApiRequest = { method: string; path: string; host: string; body: string };
export type ApiResponse = { status: number; body: Envelope<unknown> };

const MAX_BODY_BYTES = 64 * 1024;

/** Turns a zod error into "field: why; field: why" (DESIGN §5: the message says which field and why). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`)
    .join('; ');
}

function fail(code: Exclude<Envelope<unknown>['code'], 200>, message: string, status = 200): ApiResponse {
  return { status, body: { code, message, data: null } };
}

/**
 * The API dispatcher (DESIGN §3, §5): path → procedure, JSON body validated with zod, channel from host,
 * answer in the envelope. Business errors are HTTP 200 with their code; only real faults are HTTP 500.
 */
export async function dispatch(request: ApiRequest, options: { db?: Db; now?: Date } = {}): Promise<ApiResponse> {
  const proc = (registry as Record<string, Procedure<z.ZodType>>)[request.path];
  if (!proc) return fail(404, `unknown API path ${request.path}`);
  if (request.method !== 'POST') return fail(400, `${request.path} must be called with POST`);
  if (Buffer.byteLength(request.body) > MAX_BODY_BYTES) return fail(400, `body: must be ${MAX_BODY_BYTES} bytes or less`);

  let json: unknown;
  try {
    json = request.body.trim() === '' ? {} : JSON.parse(request.body);
  } catch {
    return fail(400, 'body: is not valid JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return fail(400, 'body: must be a JSON object');
  }
  const parsed = proc.input.safeParse(json);
  if (!parsed.success) return fail(400, describeIssues(parsed.error));

  const db = options.db ?? getDb();
  const e = env();
  const channelKey = channelKeyFromHost(request.host, e.BRAND_WORD) || e.DEFAULT_CHANNEL || '';
  let channel: Promise<ChannelRow> | undefined;
  try {
    const data = await proc.handler(
      { db, channelKey, channel: () => (channel ??= requireChannel(channelKey, db)), now: options.now ?? new Date() },
      parsed.data,
    );
    return { status: 200, body: { code: 200, message: 'ok', data: data ?? null } };
  } catch (error) {
    if (error instanceof AppError) return fail(error.code, error.message);
    console.error(`[api] ${request.path} failed`, error);
    return fail(500, 'internal error, please retry later', 500);
  }
}
