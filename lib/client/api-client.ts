/**
 * The one API client of the storefront (spec §7, §8), used by SWR and by every client call. Pure TypeScript: the
 * store, toasts and router are injected (components/shell/api-provider.tsx wires them), so every branch is testable.
 */

import type { z } from 'zod';
import type { ApiPath, Registry } from '../server/registry';

/** What a call of `path` sends: its input schema's input (defaults may be left out). */
export type ApiInput<P extends ApiPath> = z.input<Registry[P]['input']>;
/** What a call of `path` answers (the envelope's `data`): its output schema. */
export type ApiOutput<P extends ApiPath> = z.output<Registry[P]['output']>;
/** The body argument of `post`: optional when the call needs no field. */
type BodyArgs<P extends ApiPath> = Record<never, never> extends ApiInput<P> ? [body?: ApiInput<P>] : [body: ApiInput<P>];

/** spec §9 */
export const API_TIMEOUT_MS = 5000;
/** A watch with no byte for this long is taken for dead (the server writes an empty line every 15 s). */
export const WATCH_SILENCE_MS = 40_000;
/** spec §8 */
export const BUSY_MESSAGE = 'Too many buyers at the moment, system recovering, please retry later';

/** spec §5: the three message types. */
export type ToastType = 'success' | 'warn' | 'error';

/**
 * A failed call. `kind` tells callers apart: `service` when the call itself failed (HTTP status, network, timeout,
 * an answer that is not an envelope), `business` when the API answered with a code other than 200 (spec §8).
 * `code` is the envelope code when there was one; `status` the HTTP status when a response arrived.
 */
export class ApiError extends Error {
  constructor(
    readonly kind: 'service' | 'business',
    message: string,
    readonly code: number | null,
    readonly status: number | null,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ApiError';
  }
}

/** spec §8 "rejected as service error": HTTP status other than 200, network error, timeout, not an envelope. */
export class ServiceError extends ApiError {
  constructor(message: string, code: number | null, status: number | null, options?: ErrorOptions) {
    super('service', message, code, status, options);
    this.name = 'ServiceError';
  }
}

/** spec §8 "rejected as business error": HTTP 200 with an envelope code other than 200. */
export class BusinessError extends ApiError {
  declare readonly code: number;

  constructor(
    message: string,
    code: number,
    /** The envelope's `data` on a refusal: machine-readable detail such as `{reason: 'soldOut'}`. */
    readonly data: unknown = null,
  ) {
    super('business', message, code, 200);
    this.name = 'BusinessError';
  }
}

export type ApiClientDeps = {
  /** API_BASE, '/api' on the same origin by default (DESIGN §5). */
  baseUrl: string;
  fetch: typeof fetch;
  /** The token; sent as the Authorization header when present (spec §7). */
  getToken: () => string | null;
  /** The slider captcha result; sent as the behaviorVerify header when present (spec §7). */
  getCaptcha: () => string | null;
  /** Called exactly once per call, after the response or the failure (spec §4). */
  clearCaptcha: () => void;
  toast: (type: ToastType, message: string) => void;
  /** Clears the session and leaves for /login (spec §4); never called while on a login path. */
  logout: () => void;
  /** The browser path (with or without the query), to know whether we are on a login path. */
  currentPath: () => string;
  /** API_TIMEOUT_MS by default. */
  timeoutMs?: number;
  /** Localised busy text; BUSY_MESSAGE by default. */
  busyMessage?: string;
  /** The page's locale, sent as Accept-Language so the API's refusals read in the page's language (docs/api.md). */
  locale?: string;
};

/** A login path ('/login', '/login?…', '/login/…'): the client never logs out from there (spec §4, §8). */
export function isLoginPath(path: string): boolean {
  return /^\/login(?:[/?#]|$)/.test(path);
}

/** What the wire gave us, before any rule of spec §8 is applied. */
type Outcome =
  | { kind: 'failed'; timedOut: boolean; error: unknown }
  | { kind: 'answered'; status: number; body: unknown; json: boolean; headers: Headers };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createApiClient(deps: ApiClientDeps) {
  const busy = deps.busyMessage ?? BUSY_MESSAGE;
  const timeoutMs = deps.timeoutMs ?? API_TIMEOUT_MS;

  const logoutUnlessOnLogin = () => {
    if (!isLoginPath(deps.currentPath())) deps.logout();
  };

  /** Sends the request and reads the body; never throws, so the caller has one place to clear the captcha. */
  function callHeaders(): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (deps.locale) headers['accept-language'] = deps.locale;
    const token = deps.getToken();
    if (token) headers.Authorization = token;
    return headers;
  }

  async function exchange(path: string, bodyText: string): Promise<Outcome> {
    const headers = callHeaders();
    const captcha = deps.getCaptcha();
    if (captcha) headers.behaviorVerify = captcha;

    const controller = new AbortController();
    // spec §9: 5000 ms for the whole exchange, body included (a stalled body is a timeout too).
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await deps.fetch(`${deps.baseUrl}${path}`, {
        method: 'POST',
        headers,
        body: bodyText,
        credentials: 'same-origin',
        signal: controller.signal,
      });
      try {
        return {
          kind: 'answered',
          status: response.status,
          body: (await response.json()) as unknown,
          json: true,
          headers: response.headers,
        };
      } catch (error) {
        if (controller.signal.aborted) return { kind: 'failed', timedOut: true, error };
        return { kind: 'answered', status: response.status, body: null, json: false, headers: response.headers };
      }
    } catch (error) {
      return { kind: 'failed', timedOut: controller.signal.aborted, error };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Calls one procedure of the registry (lib/server/registry.ts, types only): the body is checked against its input and
   * the answer typed by its output schema, so a renamed field fails the type check.
   */
  function post<P extends ApiPath>(path: P, ...[body]: BodyArgs<P>): Promise<ApiOutput<P>> {
    return request(path, body ?? {}) as Promise<ApiOutput<P>>;
  }

  /** The call itself, untyped (SWR keys, tests): POSTs `body` to `path` and applies the rules of spec §8. */
  async function request(path: string, body: unknown = {}): Promise<unknown> {
    // Serialised before sending: a body that cannot be JSON is a caller bug; it rejects without touching the captcha.
    const bodyText = JSON.stringify(body);
    const outcome = await exchange(path, bodyText);
    // spec §4, §8: the captcha result is cleared after every response and every failure, exactly once.
    deps.clearCaptcha();
    return judge(path, outcome);
  }

  /** The rules of spec §8 applied to what the wire gave: the envelope's data, or a thrown ApiError (toasts said). */
  function judge(path: string, outcome: Outcome): unknown {
    if (outcome.kind === 'failed') {
      // spec §8: network error or timeout → busy toast, service error.
      deps.toast('error', busy);
      const why = outcome.timedOut ? `timed out after ${timeoutMs} ms` : `failed: ${describe(outcome.error)}`;
      throw new ServiceError(`${path} ${why}`, null, null, { cause: outcome.error });
    }

    const envelope = isRecord(outcome.body) ? outcome.body : null;
    const code = typeof envelope?.code === 'number' ? envelope.code : null;
    const message = typeof envelope?.message === 'string' ? envelope.message : '';

    if (outcome.status !== 200) {
      // spec §4, §8: any HTTP status but 200 is a service error with the busy toast; a 401 body also logs out.
      if (code === 401) logoutUnlessOnLogin();
      deps.toast('error', busy);
      throw new ServiceError(`${path} answered HTTP ${outcome.status}`, code, outcome.status);
    }
    if (envelope === null || code === null) {
      // A proxy page or a broken answer on HTTP 200: the call failed as a service, not as a business rule.
      deps.toast('error', busy);
      const what = outcome.json ? 'JSON that is not an API envelope' : 'a body that is not JSON';
      throw new ServiceError(`${path} answered ${what}`, null, 200);
    }
    if (code === 200) return envelope.data;
    if (code === 401) {
      // spec §8: log out unless on a login path. No toast (docs/decisions.md): the login page is the message, and
      // on the login page itself the form shows its own failure.
      logoutUnlessOnLogin();
      throw new BusinessError(message || 'not logged in', 401);
    }
    if (code === 500 || code === 1001) {
      // spec §8: the same busy toast; the server text is kept on the error for logs, not shown.
      deps.toast('error', busy);
      throw new BusinessError(message || busy, code);
    }
    // spec §8: any other code → warning toast with the server message, if there is one.
    if (message) deps.toast('warn', message);
    throw new BusinessError(message || `${path} failed with code ${code}`, code, envelope.data ?? null);
  }

  /**
   * auth/authCodeLoginV2 (spec §4, §7, §8): reads the whole response: the token from the `authorization` header, the
   * masked phone from `data.data.phone`. A refused login shows an error toast with the server's message and returns
   * false; a failed call shows the busy toast and returns false. Never logs out (the caller is the login page).
   */
  async function login(body: { phone: string; code: string }): Promise<{ token: string; phone: string } | false> {
    const outcome = await exchange(LOGIN_PATH, JSON.stringify(body));
    deps.clearCaptcha();
    if (outcome.kind === 'failed' || outcome.status !== 200) {
      deps.toast('error', busy);
      return false;
    }
    const envelope = isRecord(outcome.body) ? outcome.body : null;
    const data = isRecord(envelope?.data) ? envelope.data : null;
    const token = outcome.headers.get('authorization');
    if (envelope?.code === 200 && token && typeof data?.phone === 'string') return { token, phone: data.phone };
    const message = typeof envelope?.message === 'string' && envelope.message ? envelope.message : busy;
    deps.toast('error', message);
    return false;
  }

  /**
   * A watch call (`/market/api/queue/watch`): sent as `post` sends a call, then each line of the answer (an envelope
   * per line, `application/x-ndjson`) hands its `data` to `onData` as it arrives (`streamed` true), until the server
   * ends the stream, `signal` aborts it, no byte arrives for WATCH_SILENCE_MS (the server writes an empty line every
   * 15 s), or a line is not a 200 envelope. A plain JSON answer (the call answered once, e.g. the server full of
   * watches) is handed over too (`streamed` false). Answers how it ended: `closed` (streamed, then ended), `once`
   * (answered once: poll instead), `refused` (the API said no: an envelope code other than 200), `failed` (the
   * network, an HTTP status, the silence). Silent unless `say`: then a refusal or a failure of the call is said and
   * acted on as `post` does (spec §8: toasts, logout on 401), for a call the buyer made with a tap (joining).
   */
  async function watch(
    path: string,
    body: unknown,
    onData: (data: unknown, streamed: boolean) => void,
    signal: AbortSignal,
    options: { say?: boolean } = {},
  ): Promise<'closed' | 'once' | 'refused' | 'failed'> {
    const controller = new AbortController();
    const stop = () => controller.abort();
    signal.addEventListener('abort', stop, { once: true });
    let silence = setTimeout(stop, WATCH_SILENCE_MS);
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(stop, WATCH_SILENCE_MS);
    };
    /** A plain answer judged as `post` judges one: said when `say`, silent otherwise. */
    const answeredOnce = (outcome: Outcome): 'once' | 'refused' | 'failed' => {
      if (options.say) {
        try {
          onData(judge(path, outcome), false);
          return 'once';
        } catch (error) {
          return error instanceof BusinessError ? 'refused' : 'failed';
        }
      }
      if (outcome.kind === 'failed' || outcome.status !== 200) return 'failed';
      const envelope = isRecord(outcome.body) ? outcome.body : null;
      if (typeof envelope?.code !== 'number') return 'failed';
      if (envelope.code !== 200) return 'refused';
      onData(envelope.data, false);
      return 'once';
    };
    try {
      let response: Response;
      try {
        response = await deps.fetch(`${deps.baseUrl}${path}`, {
          method: 'POST',
          headers: callHeaders(),
          body: JSON.stringify(body),
          credentials: 'same-origin',
          signal: controller.signal,
        });
      } catch (error) {
        return answeredOnce({ kind: 'failed', timedOut: controller.signal.aborted, error });
      }
      const type = response.headers.get('content-type') ?? '';
      if (response.status !== 200 || !type.startsWith('application/x-ndjson') || !response.body) {
        let parsed: unknown = null;
        let json = true;
        try {
          parsed = JSON.parse(await response.text());
        } catch {
          json = false;
        }
        return answeredOnce({ kind: 'answered', status: response.status, body: parsed, json, headers: response.headers });
      }
      const reader = response.body.getReader();
      // Aborted (the page, or the silence): the read ends at once, whatever the body does.
      controller.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return controller.signal.aborted ? 'failed' : 'closed';
        heard();
        buffer += decoder.decode(value, { stream: true });
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        for (const line of lines) {
          if (line.trim() === '') continue;
          let envelope: unknown = null;
          try {
            envelope = JSON.parse(line);
          } catch {
            // not a line of the stream: ended below
          }
          if (!isRecord(envelope) || envelope.code !== 200) {
            void reader.cancel();
            return 'failed';
          }
          onData(envelope.data, true);
        }
      }
    } catch {
      return 'failed';
    } finally {
      clearTimeout(silence);
      signal.removeEventListener('abort', stop);
    }
  }

  return { post, request, login, watch };
}

/** spec §7: the login call. */
export const LOGIN_PATH = '/auth/api/auth/authCodeLoginV2';

export type ApiClient = ReturnType<typeof createApiClient>;

/** The SWR key: a path, or a path and its JSON body. */
export type ApiKey = string | readonly [path: string, body: unknown];

/** SWR fetcher over the client (spec §7): keys are `path` or `[path, body]`; failures reject, so SWR sets `error`. */
export function swrFetcher(client: ApiClient) {
  return <T>(key: ApiKey): Promise<T> => (typeof key === 'string' ? client.request(key) : client.request(key[0], key[1])) as Promise<T>;
}
