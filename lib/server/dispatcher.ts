import 'server-only';
import type { z } from 'zod';
import { getDb, type Db } from '../db/client';
import { env } from '../env';
import { domainSettings, routeHostOrKeyRule } from '../channel/domains';
import { requireChannel } from '../channel/service';
import type { ChannelRow } from '../db/schema';
import { AppError, type Envelope } from '../procedure/errors';
import { registry } from './registry';
import { authSecret } from '../security/secret';
import { resolveToken } from '../auth/sessions';
import { refuseBlockedSession } from '../auth/blocks';
import type { SessionUser } from '../procedure/scope';
import { bearerToken, readWebSession, sessionCookieValue } from '../auth/session-claims';
import type { AnyProcedure } from '../procedure/procedure';
import { startLoadGauge, type LoadGauge } from './load-gauge';
import { noteBusyAnswer } from '../monitor/drop-meter';
import { findUnstorableText } from './text-check';
import { cookieCallProblem, guestCallProblem } from '../security/csrf';
import { describeInput, inputError, msg, renderMessage } from '../procedure/messages';
import { apiLocale, askedLocale, type Locale } from '../i18n/locale';
import type { OperatorSession } from '../procedure/scope';
import { cookieValue } from '../security/cookies';
import { isOperatorHost, OPERATOR_COOKIE } from '../operator/host';
import { resolveOperatorSession, sessionRecentlyProved } from '../operator/accounts';
import { resolveApiKey } from '../operator/api-keys';
import { operatorChannel } from '../operator/channels';

export type ApiRequest = {
  method: string;
  path: string;
  host: string;
  body: string;
  headers?: Headers;
  /** The client's address as seen by the server (rate limits); 'unknown' when not known. */
  ip?: string;
};
export type ApiResponse = { status: number; body: Envelope<unknown>; headers?: Record<string, string> };

/** The largest request body the API reads (lib/server/http.ts stops reading the stream there). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The calls that take a larger body, and how large: a priority purchase's whitelist (issue 35) is up to 100,000 account
 * numbers of CSV text in one call.
 */
const LARGE_BODIES: Readonly<Record<string, number>> = { '/ops/api/sale/priority/whitelist': 2 * 1024 * 1024 };

/** The largest body the call at `path` reads. */
export function bodyLimitOf(path: string): number {
  return LARGE_BODIES[path] ?? MAX_BODY_BYTES;
}

/** Turns a zod error into "field: why; field: why" (DESIGN §5: the message says which field and why). */
export function describeIssues(error: z.ZodError, locale: Locale = 'en'): string {
  return describeInput(error.issues, locale);
}

async function tokenUser(db: Db, token: string | null, channelId: number, now: Date): Promise<SessionUser | null> {
  return token ? resolveToken(db, { token, channelId, now }) : null;
}

function fail(
  code: Exclude<Envelope<unknown>['code'], 200>,
  message: string,
  status = 200,
  data: Record<string, unknown> | null = null,
): ApiResponse {
  return { status, body: { code, message, data } };
}

/**
 * Outside production, an answer is checked against its procedure's `output` (the typed wire): a handler whose answer
 * drifted from the schema the client and the docs are built from is a server fault, so tests catch it. The data sent
 * is the handler's own, never the parsed copy. In production nothing is parsed (the hot path); the type check stands.
 * Returns what is wrong, or null.
 */
export function answerDrift(proc: AnyProcedure, data: unknown): string | null {
  if (process.env.NODE_ENV === 'production') return null;
  const checked = proc.output.safeParse(data ?? null);
  return checked.success ? null : describeIssues(checked.error);
}

/**
 * The API dispatcher (DESIGN §3, §5): path → procedure, JSON body validated with zod, channel from host,
 * answer in the envelope. Business errors are HTTP 200 with their code; only real faults are HTTP 500.
 */
export async function dispatch(request: ApiRequest, options: { db?: Db; now?: Date } = {}): Promise<ApiResponse> {
  const proc = (registry as Record<string, AnyProcedure>)[request.path];
  if (!proc) return fail(404, `unknown API path ${request.path}`);
  if (!proc.shed) return run(proc, request, options);
  // Load shedding (DESIGN §5): a full house answers at once rather than queueing behind the database: too many buy calls
  // in progress here, or an event loop running late because calls arrive faster than they are answered.
  shedding.gauge ??= startLoadGauge();
  if (shedding.inFlight >= env().BUY_MAX_IN_FLIGHT || shedding.gauge.lagMs() > env().BUY_MAX_LAG_MS) {
    noteBusyAnswer(() => options.db ?? getDb()); // the live drop view and the busy alert (issue 32)
    return {
      status: 503,
      body: { code: 1001, message: renderMessage(msg('busy'), askedLocale(request.headers?.get('accept-language')) ?? 'en'), data: null },
      headers: { 'retry-after': '1' },
    };
  }
  shedding.inFlight++;
  try {
    return await run(proc, request, options);
  } finally {
    shedding.inFlight--;
  }
}

/** Calls of shedding procedures in progress in this process, and the event-loop lag (started with the first one). */
const shedding: { inFlight: number; gauge: LoadGauge | null } = { inFlight: 0, gauge: null };

async function run(proc: AnyProcedure, request: ApiRequest, options: { db?: Db; now?: Date }): Promise<ApiResponse> {
  if (request.method !== 'POST') return fail(400, `${request.path} must be called with POST`);
  const bodyLimit = bodyLimitOf(request.path);
  if (Buffer.byteLength(request.body) > bodyLimit) return fail(400, `body: must be ${bodyLimit} bytes or less`);

  const db = options.db ?? getDb();
  const e = env();
  // issue 31: the console's calls exist only on the operator host, and the market's only on channel hosts; on the
  // wrong host a call is as unknown as a path that does not exist.
  const onOperatorHost = isOperatorHost(request.host, e.OPERATOR_HOST);
  const consoleCall = proc.auth === 'operator' || proc.auth === 'operatorGuest';
  if (consoleCall !== onOperatorHost) return fail(404, `unknown API path ${request.path}`);
  const now = options.now ?? new Date();
  // The channel through its domains, the spec §1 key rule as the fallback (issue 31, lib/channel/domains.ts).
  const channelKey = (await routeHostOrKeyRule(db, request.host, domainSettings(e), now)).key;
  const headers = request.headers ?? new Headers();
  const responseHeaders: Record<string, string> = {};
  let channel: Promise<ChannelRow> | undefined;
  const loadChannel = () => (channel ??= requireChannel(channelKey, db));
  let token: Promise<string | null> | undefined;
  const loadToken = () =>
    (token ??= (async () => {
      const header = bearerToken(headers.get('authorization'));
      if (header) return header;
      const cookie = sessionCookieValue(headers.get('cookie'));
      if (!cookie) return null;
      // The cookie rides along with any request the browser sends, so it only counts from our own pages (finding 9).
      const problem = cookieCallProblem(headers, request.host);
      if (problem) throw new AppError(problem.code, problem.message);
      const session = await readWebSession(cookie, authSecret(), channelKey, now.getTime());
      return session?.apiToken ?? null;
    })());
  // The answer's language (docs/api.md, "Languages"): asked for by the caller, else the channel's; its moments in the
  // channel's time zone. Read only to refuse.
  const reader = async (): Promise<{ locale: Locale; timeZone?: string }> => {
    const found = await loadChannel().catch(() => null);
    return { locale: apiLocale(headers.get('accept-language'), found?.locale), timeZone: found?.timeZone };
  };
  const answerLocale = async (): Promise<Locale> => (await reader()).locale;
  let user: Promise<SessionUser> | undefined;
  const loadUser = () =>
    (user ??= (async () => {
      const sessionToken = await loadToken();
      const channelId = (await loadChannel()).id;
      const found = await tokenUser(db, sessionToken, channelId, now);
      // Issue 32: a buyer whose session a block ended reads the block's refusal, not "not logged in" (which logs the
      // client out to a login that refuses them again). Looked up only once the session check has refused.
      if (!found && sessionToken) await refuseBlockedSession(db, { token: sessionToken, channelId });
      if (!found) throw new AppError(401, msg('notLoggedIn'));
      return found;
    })());
  let operator: Promise<OperatorSession> | undefined;
  const loadOperator = () =>
    (operator ??= (async () => {
      // An API key (issue 31: automation "through the same procedures"): `Authorization: Bearer <key>`, no cookie, so
      // no cross-site check either (a browser never adds this header on its own). A call that carries the header is
      // judged by it alone; a buyer's token there is no key.
      const authorization = headers.get('authorization');
      if (authorization !== null) {
        const key = bearerToken(authorization);
        if (!key) throw new AppError(401, msg('opsApiKeyRefused'));
        return resolveApiKey(db, { key, now, ip: request.ip ?? 'unknown' });
      }
      // The console's own cookie (issue 31); a buyer's token or cookie is no operator's credential.
      const cookie = cookieValue(headers.get('cookie'), OPERATOR_COOKIE);
      if (!cookie) throw new AppError(401, msg('opsNotSignedIn'));
      const problem = cookieCallProblem(headers, request.host);
      if (problem) throw new AppError(problem.code, problem.message);
      const found = await resolveOperatorSession(db, cookie, now);
      if (!found) throw new AppError(401, msg('opsNotSignedIn'));
      return found;
    })());
  let scopedChannel: Promise<ChannelRow> | undefined;
  try {
    // Authentication comes first (finding 15): a caller who may not call this learns nothing about its payload.
    // The console's guest calls read no cookie but set one (sign-in, enrolment): a cross-site form post must not sign
    // this browser in to the attacker's account (issue 31, login CSRF), so they pass the cookie calls' checks too.
    if (proc.auth === 'operatorGuest') {
      const problem = guestCallProblem(headers, request.host);
      if (problem) throw new AppError(problem.code, problem.message);
    }
    if (proc.auth === 'buyer') await loadUser();
    if (proc.auth === 'operator') {
      const signedIn = await loadOperator();
      if (!proc.operator?.roles.includes(signedIn.role)) throw new AppError(403, msg('opsRoleRefused'));
      // A sensitive write (issue 31, lib/procedure/roles.ts `reauth`): the password and a fresh code proved on this
      // session within the last 5 minutes (sign-in counts; /ops/api/session/confirm renews it). The console asks for
      // them on `data.reauth` and retries. An API key cannot prove either, so it never makes such a write: a leaked key
      // must not be able to grant roles or mint more keys.
      if (proc.operator.reauth) {
        if (signedIn.apiKey) throw new AppError(403, msg('opsReauthApiKey'));
        if (!(await sessionRecentlyProved(db, signedIn.sessionId, now))) throw new AppError(403, msg('opsReauthNeeded'), { reauth: true });
      }
    }

    let json: unknown;
    try {
      json = request.body.trim() === '' ? {} : JSON.parse(request.body);
    } catch {
      return fail(400, 'body: is not valid JSON');
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      return fail(400, 'body: must be a JSON object');
    }
    const unstorable = findUnstorableText(json);
    if (unstorable) return fail(400, `${unstorable}: must not contain the NUL character or broken (lone surrogate) characters`);
    // English words where a schema has none of its own; the input kept on each issue so other languages can tell a
    // missing field from one of the wrong type (lib/procedure/messages.ts, describeInput).
    const parsed = proc.input.safeParse(json, { error: inputError, reportInput: true });
    if (!parsed.success) return fail(400, describeIssues(parsed.error, await answerLocale()));

    if (proc.auth === 'operator' && proc.operator?.channel === 'input') {
      const key = (parsed.data as { channel?: unknown }).channel;
      if (typeof key !== 'string') throw new Error(`${request.path} declares a channel scope but its input has no channel`);
      scopedChannel = operatorChannel(db, await loadOperator(), key);
      await scopedChannel;
    }
    const data = await proc.handler(
      {
        db,
        channelKey,
        channel: loadChannel,
        now,
        headers,
        ip: request.ip ?? 'unknown',
        setHeader: (name, value) => {
          responseHeaders[name.toLowerCase()] = value;
        },
        token: loadToken,
        user: loadUser,
        operator: loadOperator,
        operatorChannel: () => scopedChannel ?? Promise.reject(new Error(`${request.path} has no channel scope`)),
      },
      parsed.data,
    );
    const drift = answerDrift(proc, data);
    if (drift) {
      console.error(`[api] ${request.path} answered outside its output schema: ${drift}`);
      return fail(500, renderMessage(msg('internal'), await answerLocale()), 500);
    }
    return { status: 200, body: { code: 200, message: 'ok', data: data ?? null }, headers: responseHeaders };
  } catch (error) {
    if (error instanceof AppError) {
      const { locale, timeZone } = await reader();
      return fail(error.code, error.messageIn(locale, timeZone), 200, error.data);
    }
    console.error(`[api] ${request.path} failed`, error);
    return fail(500, renderMessage(msg('internal'), await answerLocale().catch(() => 'en' as const)), 500);
  }
}
