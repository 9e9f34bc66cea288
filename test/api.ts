import { eq } from 'drizzle-orm';
import { encode } from 'next-auth/jwt';
import { createTestDb } from '@/test/db';
import { seed, type DemoCodes } from '@/lib/demo/seed';
import type { Db } from '@/lib/db/client';
import { channels } from '@/lib/db/schema';
import { dispatch } from '@/lib/server/dispatcher';
import { authSecret } from '@/lib/security/secret';
import { findOrCreateUser } from '@/lib/auth/users';
import { createSession, revokeToken } from '@/lib/auth/sessions';
import { maskPhone } from '@/lib/auth/mask';

/**
 * The market API as a test drives it: a migrated, seeded database (the demo channels on `<key>.localhost`) and
 * `callApi` around the dispatcher. Buyers and their sessions are made with the service functions, not through the
 * captcha and SMS login (those have their own tests in lib/auth).
 */

export type CallOptions = {
  /** The request's host; `aurora.localhost:3000` unless told. */
  host?: string;
  /** Sent as the `Authorization` header. */
  token?: string;
  /** A web session cookie value (see `webCookie`), sent as `next-auth.session-token`. */
  cookie?: string;
  /** The client's address; a fresh one per call unless told, so the per-IP limits stay out of the way. */
  ip?: string;
  /** The body exactly as sent, instead of `JSON.stringify(body)`. */
  rawBody?: string;
  headers?: Record<string, string>;
  /** The request's clock; the API's fixed `now` unless told. */
  now?: Date;
};

/** The answer's body: the API's envelope (DESIGN §5). */
export type Envelope = { code: number; message: string; data: Record<string, unknown> | null };

export type ApiAnswer = {
  status: number;
  /** The envelope, as `{code, message, data}`. */
  body: Envelope;
  code: number;
  message: string;
  data: unknown;
  headers: Record<string, string>;
  /** The envelope as the client receives it, for "does not contain" checks. */
  text: string;
};

export type TestBuyer = { userId: number; uuid: string; phone: string; maskedPhone: string; channelKey: string; token: string };

export type TestApi = {
  db: Db;
  now: Date;
  /** The codes the demo seed printed (redeem and chain-up codes), per channel. */
  demoCodes: DemoCodes;
  callApi: (path: string, body: unknown, options?: CallOptions) => Promise<ApiAnswer>;
  channelId: (key: string) => Promise<number>;
  /** A buyer (signed up if new) logged in on a channel, with a fresh API token. */
  buyer: (phone: string, channelKey?: string) => Promise<TestBuyer>;
  /** Another live token for a user on a channel. */
  session: (userId: number, channelKey: string) => Promise<string>;
  /** A token of the user that was issued and then revoked (logged out). */
  revokedSession: (userId: number, channelKey: string) => Promise<string>;
  /** The web session cookie value the storefront would set for this token on this channel. */
  webCookie: (token: string, buyer: { uuid: string; phone: string }, channelKey: string) => Promise<string>;
  close: () => Promise<void>;
};

let ipSequence = 0;

/** A fresh client address: 10.x.y.z, distinct per call within a test file. */
export function freshIp(): string {
  ipSequence++;
  return `10.${(ipSequence >> 16) & 255}.${(ipSequence >> 8) & 255}.${ipSequence & 255}`;
}

/**
 * One call through the real dispatcher, as a client makes it: JSON body, `Authorization` and session cookie from the
 * options, a fresh client address unless told. For test files that have their database (seededTestDb) and need no more
 * of createTestApi.
 */
export async function apiCall(db: Db, path: string, body: unknown, call: CallOptions & { now: Date }): Promise<ApiAnswer> {
  const headers = new Headers({ 'content-type': 'application/json', ...call.headers });
  if (call.token !== undefined) headers.set('authorization', call.token);
  if (call.cookie !== undefined) headers.set('cookie', `next-auth.session-token=${call.cookie}`);
  const res = await dispatch(
    {
      method: 'POST',
      path,
      host: call.host ?? 'aurora.localhost:3000',
      body: call.rawBody ?? JSON.stringify(body ?? {}),
      headers,
      ip: call.ip ?? freshIp(),
    },
    { db, now: call.now },
  );
  const envelope = res.body as Envelope;
  return {
    status: res.status,
    body: envelope,
    code: envelope.code,
    message: envelope.message,
    data: envelope.data,
    headers: res.headers ?? {},
    text: JSON.stringify(res.body),
  };
}

export async function createTestApi(options: { now?: Date } = {}): Promise<TestApi> {
  const now = options.now ?? new Date('2026-11-22T08:00:00Z');
  const { db, close } = await createTestDb();
  const seeded = await seed(db, now);
  const channelIds = new Map<string, number>();

  async function channelId(key: string): Promise<number> {
    const known = channelIds.get(key);
    if (known !== undefined) return known;
    const [row] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, key));
    if (!row) throw new Error(`no channel ${key} in the seed`);
    channelIds.set(key, row.id);
    return row.id;
  }

  async function session(userId: number, channelKey: string): Promise<string> {
    return (await createSession(db, { userId, channelId: await channelId(channelKey), now, ip: null })).token;
  }

  const callApi = (path: string, body: unknown, call: CallOptions = {}) => apiCall(db, path, body, { ...call, now: call.now ?? now });

  return {
    db,
    now,
    demoCodes: seeded.codes,
    callApi,
    channelId,
    session,
    buyer: async (phone, channelKey = 'AURORA') => {
      const user = await findOrCreateUser(db, phone, now);
      return {
        userId: user.id,
        uuid: user.uuid,
        phone,
        maskedPhone: maskPhone(phone),
        channelKey,
        token: await session(user.id, channelKey),
      };
    },
    revokedSession: async (userId, channelKey) => {
      const token = await session(userId, channelKey);
      if (!(await revokeToken(db, { token, now }))) throw new Error('the new session could not be revoked');
      return token;
    },
    webCookie: (token, buyer, channelKey) =>
      encode({ token: { sub: buyer.uuid, apiToken: token, channel: channelKey, phone: maskPhone(buyer.phone) }, secret: authSecret() }),
    close,
  };
}
