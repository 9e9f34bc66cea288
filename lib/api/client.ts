/**
 * The one API client of the storefront (spec §7, §8), used by SWR and by every client call. Dependencies are
 * injected (components/shell/api-provider.tsx wires the store, toasts and router), so every branch is testable.
 */

/** spec §9 */
export const API_TIMEOUT_MS = 5000;
/** spec §8 */
export const BUSY_MESSAGE = 'Too many buyers at the moment, system recovering, please retry later';

export type ToastType = 'success' | 'warn' | 'error';

/** A failed call: `service` when the call itself failed (HTTP, network, timeout), `business` when the API said no. */
export class ApiError extends Error {
  constructor(
    readonly kind: 'service' | 'business',
    message: string,
    readonly code: number | null,
    readonly status: number | null,
  ) {
    super(message);
    this.name = kind === 'service' ? 'ServiceError' : 'BusinessError';
  }
}

export type ApiClientDeps = {
  /** API_BASE, '/api' on the same origin by default (DESIGN §5). */
  baseUrl: string;
  fetch: typeof fetch;
  getToken: () => string | null;
  getCaptcha: () => string | null;
  clearCaptcha: () => void;
  toast: (type: ToastType, message: string) => void;
  logout: () => void;
  currentPath: () => string;
  timeoutMs?: number;
  /** Localised busy text; BUSY_MESSAGE by default. */
  busyMessage?: string;
};

/** A login path: the client never logs out from there (spec §4, §8). */
export function isLoginPath(path: string): boolean {
  return /^\/login(?:[/?#]|$)/.test(path);
}

type Envelope = { code?: unknown; message?: unknown; data?: unknown };

export function createApiClient(deps: ApiClientDeps) {
  const busy = deps.busyMessage ?? BUSY_MESSAGE;
  const logoutUnlessOnLogin = () => {
    if (!isLoginPath(deps.currentPath())) deps.logout();
  };

  async function post<T>(path: string, body: unknown = {}): Promise<T> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const token = deps.getToken();
    if (token) headers.authorization = token;
    const captcha = deps.getCaptcha();
    if (captcha) headers.behaviorVerify = captcha;

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), deps.timeoutMs ?? API_TIMEOUT_MS);
    let response: Response;
    let envelope: Envelope | null = null;
    try {
      response = await deps.fetch(`${deps.baseUrl}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        credentials: 'same-origin',
        signal: controller.signal,
      });
      try {
        envelope = (await response.json()) as Envelope;
      } catch {
        envelope = null;
      }
    } catch (error) {
      // Network error or timeout (spec §8): captcha cleared, busy toast.
      deps.clearCaptcha();
      deps.toast('error', busy);
      const timedOut = controller.signal.aborted;
      throw new ApiError('service', timedOut ? `${path} timed out` : `${path} failed: ${(error as Error).message}`, null, null);
    } finally {
      clearTimeout(timer);
    }
    // spec §4: the captcha result is cleared after every response, success or not.
    deps.clearCaptcha();

    const code = typeof envelope?.code === 'number' ? envelope.code : null;
    const message = typeof envelope?.message === 'string' ? envelope.message : '';
    if (response.status !== 200) {
      // spec §8: any HTTP status but 200 is a service error with the busy toast; a 401 body still logs out.
      if (code === 401) logoutUnlessOnLogin();
      deps.toast('error', busy);
      throw new ApiError('service', `${path} answered HTTP ${response.status}`, code, response.status);
    }
    if (envelope === null || code === null) {
      deps.toast('error', busy);
      throw new ApiError('service', `${path} answered something that is not an API envelope`, null, 200);
    }
    if (code === 200) return envelope.data as T;
    if (code === 401) {
      // The login page explains itself; elsewhere the user lands on it. No toast: the redirect is the message.
      logoutUnlessOnLogin();
      throw new ApiError('business', message || 'not logged in', 401, 200);
    }
    if (code === 500 || code === 1001) {
      deps.toast('error', busy);
      throw new ApiError('business', message || busy, code, 200);
    }
    if (message) deps.toast('warn', message);
    throw new ApiError('business', message || `${path} failed with code ${code}`, code, 200);
  }

  return { post };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** SWR fetcher over the client: keys are `path` or `[path, body]`. */
export function swrFetcher(client: ApiClient) {
  return <T>(key: string | readonly [string, unknown]): Promise<T> =>
    typeof key === 'string' ? client.post<T>(key) : client.post<T>(key[0], key[1]);
}
