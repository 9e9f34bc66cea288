import { API_TIMEOUT_MS, ApiError, BUSY_MESSAGE, createApiClient, isLoginPath, swrFetcher, type ApiClientDeps } from './client';

type Call = { url: string; init: RequestInit };

function setup(options: { respond?: (call: Call) => Promise<Response> | Response; token?: string | null; captcha?: string | null; path?: string } = {}) {
  const calls: Call[] = [];
  const toasts: [string, string][] = [];
  let captcha = options.captcha ?? null;
  const state = { logouts: 0, captchaClears: 0 };
  const deps: ApiClientDeps = {
    baseUrl: '/api',
    fetch: ((url: string, init: RequestInit) => {
      calls.push({ url, init });
      return Promise.resolve(options.respond ? options.respond({ url, init }) : json({ code: 200, message: 'ok', data: { ok: true } }));
    }) as unknown as typeof fetch,
    getToken: () => options.token ?? null,
    getCaptcha: () => captcha,
    clearCaptcha: () => {
      captcha = null;
      state.captchaClears += 1;
    },
    toast: (type, message) => toasts.push([type, message]),
    logout: () => {
      state.logouts += 1;
    },
    currentPath: () => options.path ?? '/goods/detail/1',
  };
  return { client: createApiClient(deps), calls, toasts, state, captcha: () => captcha };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('API client: request (spec §7)', () => {
  it('POSTs JSON to API_BASE + path with the token and captcha headers', async () => {
    const { client, calls } = setup({ token: 'tok-1', captcha: 'ticket-1' });
    await expect(client.post('/market/api/channel/detail', { key: 'AURORA' })).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/market/api/channel/detail');
    expect(calls[0]!.init.method).toBe('POST');
    expect(calls[0]!.init.body).toBe('{"key":"AURORA"}');
    expect(calls[0]!.init.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'tok-1', behaviorVerify: 'ticket-1' });
  });

  it('sends no Authorization or behaviorVerify header when there is none', async () => {
    const { client, calls } = setup();
    await client.post('/x');
    expect(Object.keys(calls[0]!.init.headers as Record<string, string>)).toEqual(['content-type']);
  });
});

describe('API client: error catalogue (spec §8)', () => {
  it('code 200 gives the data and clears the captcha', async () => {
    const t = setup({ captcha: 'ticket' });
    await expect(t.client.post('/x')).resolves.toEqual({ ok: true });
    expect(t.captcha()).toBeNull();
    expect(t.toasts).toEqual([]);
  });

  it('an HTTP status other than 200 is a service error with the busy toast', async () => {
    const t = setup({ respond: () => json({ code: 429, message: 'slow down' }, 429), captcha: 'ticket' });
    const error = await failure(t.client.post('/x'));
    expect(error).toMatchObject({ kind: 'service', status: 429 });
    expect(t.toasts).toEqual([['error', BUSY_MESSAGE]]);
    expect(t.captcha()).toBeNull();
    expect(t.state.logouts).toBe(0);
  });

  it('an HTTP error whose body says 401 also logs out', async () => {
    const t = setup({ respond: () => json({ code: 401, message: 'expired' }, 503) });
    expect(await failure(t.client.post('/x'))).toMatchObject({ kind: 'service', status: 503, code: 401 });
    expect(t.state.logouts).toBe(1);
  });

  it('code 401 logs out, unless already on a login path', async () => {
    const away = setup({ respond: () => json({ code: 401, message: 'not logged in', data: null }) });
    expect(await failure(away.client.post('/x'))).toMatchObject({ kind: 'business', code: 401 });
    expect(away.state.logouts).toBe(1);
    const onLogin = setup({ respond: () => json({ code: 401, message: 'not logged in', data: null }), path: '/login' });
    await failure(onLogin.client.post('/x'));
    expect(onLogin.state.logouts).toBe(0);
  });

  it.each([500, 1001])('code %i shows the busy toast and rejects as a business error', async (code) => {
    const t = setup({ respond: () => json({ code, message: 'busy', data: null }) });
    expect(await failure(t.client.post('/x'))).toMatchObject({ kind: 'business', code });
    expect(t.toasts).toEqual([['error', BUSY_MESSAGE]]);
  });

  it('any other code shows the server message as a warning and rejects with code and message', async () => {
    const t = setup({ respond: () => json({ code: 409, message: 'Sold out', data: null }), captcha: 'ticket' });
    const error = await failure(t.client.post('/x'));
    expect(error).toMatchObject({ kind: 'business', code: 409, message: 'Sold out', name: 'BusinessError' });
    expect(t.toasts).toEqual([['warn', 'Sold out']]);
    expect(t.captcha()).toBeNull();
  });

  it('any other code without a message rejects with no toast', async () => {
    const t = setup({ respond: () => json({ code: 403, message: '', data: null }) });
    expect(await failure(t.client.post('/x'))).toMatchObject({ kind: 'business', code: 403 });
    expect(t.toasts).toEqual([]);
  });

  it('a network error clears the captcha, shows the busy toast and rejects as a service error', async () => {
    const t = setup({ respond: () => Promise.reject(new TypeError('Failed to fetch')), captcha: 'ticket' });
    const error = await failure(t.client.post('/x'));
    expect(error).toMatchObject({ kind: 'service', status: null, name: 'ServiceError' });
    expect(t.toasts).toEqual([['error', BUSY_MESSAGE]]);
    expect(t.captcha()).toBeNull();
    expect(t.state.captchaClears).toBe(1);
  });

  it('a 200 answer that is not an envelope is a service error', async () => {
    const t = setup({ respond: () => new Response('<html>proxy error</html>', { status: 200 }) });
    expect(await failure(t.client.post('/x'))).toMatchObject({ kind: 'service', status: 200 });
    expect(t.toasts).toEqual([['error', BUSY_MESSAGE]]);
  });
});

describe('API client: timeout (spec §9: 5000 ms)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('aborts at 5000 ms, not before, and treats it as a network error', async () => {
    const t = setup({
      captcha: 'ticket',
      respond: ({ init }) =>
        new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    });
    const pending = failure(t.client.post('/slow'));
    await jest.advanceTimersByTimeAsync(API_TIMEOUT_MS - 1);
    expect(t.toasts).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error).toMatchObject({ kind: 'service', message: '/slow timed out' });
    expect(t.toasts).toEqual([['error', BUSY_MESSAGE]]);
    expect(t.captcha()).toBeNull();
  });
});

describe('helpers', () => {
  it('knows login paths', () => {
    expect(isLoginPath('/login')).toBe(true);
    expect(isLoginPath('/login?redirect=%2Fmine')).toBe(true);
    expect(isLoginPath('/loginx')).toBe(false);
    expect(isLoginPath('/mine')).toBe(false);
  });

  it('gives SWR a fetcher for path and [path, body] keys', async () => {
    const t = setup();
    const fetcher = swrFetcher(t.client);
    await fetcher('/a');
    await fetcher(['/b', { pageCount: 2 }] as const);
    expect(t.calls.map((c) => [c.url, c.init.body])).toEqual([
      ['/api/a', '{}'],
      ['/api/b', '{"pageCount":2}'],
    ]);
  });
});
