import {
  API_TIMEOUT_MS,
  ApiError,
  BUSY_MESSAGE,
  BusinessError,
  ServiceError,
  createApiClient,
  isLoginPath,
  swrFetcher,
  type ApiClientDeps,
} from './api-client';

type Call = { url: string; init: RequestInit };
type Respond = (call: Call) => Promise<Response> | Response;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const OK = () => json({ code: 200, message: 'ok', data: { ok: true } });

/** A fetch that only settles when the client aborts it (a server that never answers). */
const HANG: Respond = ({ init }) =>
  new Promise<Response>((_, reject) => {
    init.signal?.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')));
  });

function setup(
  options: {
    respond?: Respond;
    token?: string | null;
    captcha?: string | null;
    path?: string;
    deps?: Partial<ApiClientDeps>;
  } = {},
) {
  const calls: Call[] = [];
  const toasts: [string, string][] = [];
  const events: string[] = [];
  let captcha = options.captcha ?? null;
  const state = { logouts: 0, captchaClears: 0 };
  const deps: ApiClientDeps = {
    baseUrl: '/api',
    fetch: ((url: string, init: RequestInit) => {
      calls.push({ url, init });
      return Promise.resolve((options.respond ?? OK)({ url, init }));
    }) as unknown as typeof fetch, // the client only calls fetch(url, init)
    getToken: () => options.token ?? null,
    getCaptcha: () => captcha,
    clearCaptcha: () => {
      captcha = null;
      state.captchaClears += 1;
      events.push('clearCaptcha');
    },
    toast: (type, message) => {
      toasts.push([type, message]);
      events.push(`toast:${type}`);
    },
    logout: () => {
      state.logouts += 1;
      events.push('logout');
    },
    currentPath: () => options.path ?? '/goods/detail/1',
    ...options.deps,
  };
  return { client: createApiClient(deps), calls, toasts, events, state, captcha: () => captcha };
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

function headersOf(call: Call | undefined): Record<string, string> {
  return (call?.init.headers ?? {}) as Record<string, string>;
}

describe('API client: request (spec §7)', () => {
  it('POSTs the JSON body to API_BASE + path, same-origin, with the token and captcha headers', async () => {
    const { client, calls } = setup({ token: 'tok-1', captcha: 'ticket-1' });
    await expect(client.post('/market/api/channel/detail', { key: 'AURORA' })).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/market/api/channel/detail');
    expect(calls[0]!.init).toMatchObject({ method: 'POST', body: '{"key":"AURORA"}', credentials: 'same-origin' });
    expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal);
    expect(headersOf(calls[0])).toEqual({ 'content-type': 'application/json', Authorization: 'tok-1', behaviorVerify: 'ticket-1' });
  });

  it('sends neither Authorization nor behaviorVerify when there is no token and no captcha result', async () => {
    const { client, calls } = setup({ token: null, captcha: null });
    await client.request('/x');
    expect(headersOf(calls[0])).toEqual({ 'content-type': 'application/json' });
  });

  it('treats an empty token or captcha as absent', async () => {
    const { client, calls } = setup({ token: '', captcha: '' });
    await client.request('/x');
    expect(headersOf(calls[0])).toEqual({ 'content-type': 'application/json' });
  });

  it('sends the token alone, or the captcha alone', async () => {
    const withToken = setup({ token: 'tok-2' });
    await withToken.client.request('/x');
    expect(headersOf(withToken.calls[0])).toEqual({ 'content-type': 'application/json', Authorization: 'tok-2' });
    const withCaptcha = setup({ captcha: 'ticket-2' });
    await withCaptcha.client.request('/x');
    expect(headersOf(withCaptcha.calls[0])).toEqual({ 'content-type': 'application/json', behaviorVerify: 'ticket-2' });
  });

  it('reads the token and captcha at call time, not when the client is built', async () => {
    let token: string | null = null;
    const t = setup({ deps: { getToken: () => token } });
    token = 'late-token';
    await t.client.request('/x');
    expect(headersOf(t.calls[0]).Authorization).toBe('late-token');
  });

  it('sends an empty JSON object when there is no body', async () => {
    const { client, calls } = setup();
    await client.post('/market/api/userAttribute/queryByUserUuid');
    expect(calls[0]!.init.body).toBe('{}');
  });

  it('uses the configured base URL', async () => {
    const { client, calls } = setup({ deps: { baseUrl: 'https://api.example.test/v1' } });
    await client.request('/a/b');
    expect(calls[0]!.url).toBe('https://api.example.test/v1/a/b');
  });

  it('rejects a body that cannot be JSON without sending anything or using up the captcha', async () => {
    const t = setup({ captcha: 'ticket' });
    await expect(t.client.request('/x', { n: BigInt(1) })).rejects.toThrow(TypeError);
    expect(t.calls).toHaveLength(0);
    expect(t.captcha()).toBe('ticket');
  });
});

describe('API client: answers (spec §8)', () => {
  it('code 200 resolves the data, with no toast and no logout', async () => {
    const t = setup({ respond: () => json({ code: 200, message: 'ok', data: [1, 2] }) });
    await expect(t.client.request('/x')).resolves.toEqual([1, 2]);
    expect(t.toasts).toEqual([]);
    expect(t.state.logouts).toBe(0);
  });

  it('code 200 with null data resolves null', async () => {
    const t = setup({ respond: () => json({ code: 200, message: 'ok', data: null }) });
    await expect(t.client.request('/x')).resolves.toBeNull();
  });

  it('code 401 logs out and rejects as business error 401, without a toast', async () => {
    const t = setup({ respond: () => json({ code: 401, message: 'token expired', data: null }) });
    const error = await failure(t.client.request('/x'));
    expect(error).toBeInstanceOf(BusinessError);
    expect(error).toMatchObject({ kind: 'business', code: 401, status: 200, message: 'token expired' });
    expect(t.state.logouts).toBe(1);
    expect(t.toasts).toEqual([]);
  });

  it.each(['/login', '/login?redirect=%2Fmine', '/login/sms'])('code 401 on the login path %s does not log out', async (path) => {
    const t = setup({ respond: () => json({ code: 401, message: 'bad code', data: null }), path });
    expect(await failure(t.client.request('/x'))).toMatchObject({ kind: 'business', code: 401 });
    expect(t.state.logouts).toBe(0);
  });

  it.each([500, 1001])('code %i shows the busy toast and rejects as business error with that code', async (code) => {
    const t = setup({ respond: () => json({ code, message: 'internal', data: null }) });
    const error = await failure(t.client.request('/x'));
    expect(error).toBeInstanceOf(BusinessError);
    expect(error).toMatchObject({ kind: 'business', code });
    expect(t.toasts).toEqual([['error', BUSY_MESSAGE]]);
    expect(t.state.logouts).toBe(0);
  });

  it('any other code shows the server message as a warning and rejects with that code and message', async () => {
    const t = setup({ respond: () => json({ code: 409, message: 'Sold out', data: null }) });
    const error = await failure(t.client.request('/x'));
    expect(error).toBeInstanceOf(BusinessError);
    expect(error).toMatchObject({ kind: 'business', code: 409, status: 200, message: 'Sold out', name: 'BusinessError' });
    expect(t.toasts).toEqual([['warn', 'Sold out']]);
    expect(t.state.logouts).toBe(0);
  });

  it.each([
    ['an empty message', { code: 403, message: '', data: null }],
    ['no message', { code: 403, data: null }],
  ])('any other code with %s rejects with no toast', async (_, body) => {
    const t = setup({ respond: () => json(body) });
    expect(await failure(t.client.request('/x'))).toMatchObject({ kind: 'business', code: 403 });
    expect(t.toasts).toEqual([]);
  });
});

describe('API client: service errors (spec §8)', () => {
  it.each([429, 503, 502, 201])('HTTP %i is a service error with the busy toast, whatever the body code', async (status) => {
    const t = setup({ respond: () => json({ code: 409, message: 'Sold out', data: null }, status) });
    const error = await failure(t.client.request('/x'));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ kind: 'service', status, code: 409, name: 'ServiceError' });
    expect(t.toasts).toEqual([['error', BUSY_MESSAGE]]);
    expect(t.state.logouts).toBe(0);
  });

  it('HTTP 500 with a code-500 envelope (a server fault) shows the busy toast once', async () => {
    const t = setup({ respond: () => json({ code: 500, message: 'internal error', data: null }, 500) });
    expect(await failure(t.client.request('/x'))).toMatchObject({ kind: 'service', status: 500, code: 500 });
    expect(t.toasts).toEqual([['error', BUSY_MESSAGE]]);
  });

  it('HTTP 503 with a 401 body logs out and is still a service error with the busy toast', async () => {
    const t = setup({ respond: () => json({ code: 401, message: 'expired' }, 503) });
    expect(await failure(t.client.request('/x'))).toMatchObject({ kind: 'service', status: 503, code: 401 });
    expect(t.state.logouts).toBe(1);
    expect(t.toasts).toEqual([['error', BUSY_MESSAGE]]);
  });

  it('HTTP 503 with a 401 body on a login path does not log out', async () => {
    const t = setup({ respond: () => json({ code: 401, message: 'expired' }, 503), path: '/login' });
    expect(await failure(t.client.request('/x'))).toMatchObject({ kind: 'service', status: 503, code: 401 });
    expect(t.state.logouts).toBe(0);
  });

  it('an HTTP error with a body that is not JSON is a service error without a code', async () => {
    const t = setup({ respond: () => new Response('<html>Bad gateway</html>', { status: 502 }) });
    expect(await failure(t.client.request('/x'))).toMatchObject({ kind: 'service', status: 502, code: null });
    expect(t.toasts).toEqual([['error', BUSY_MESSAGE]]);
    expect(t.state.logouts).toBe(0);
  });

  it.each([
    ['HTML', () => new Response('<html>proxy error</html>', { status: 200 })],
    ['an empty body', () => new Response('', { status: 200 })],
    ['JSON without a numeric code', () => json({ code: '200', data: { ok: true } })],
    ['a JSON array', () => json([{ code: 200 }])],
    ['JSON null', () => json(null)],
  ])('HTTP 200 with %s is a service error with the busy toast', async (_, respond) => {
    const t = setup({ respond });
    const error = await failure(t.client.request('/x'));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ kind: 'service', status: 200, code: null });
    expect(t.toasts).toEqual([['error', BUSY_MESSAGE]]);
  });

  it('a network error shows the busy toast and rejects as a service error without status, keeping the cause', async () => {
    const cause = new TypeError('Failed to fetch');
    const t = setup({ respond: () => Promise.reject(cause) });
    const error = await failure(t.client.request('/x'));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ kind: 'service', status: null, code: null, name: 'ServiceError' });
    expect(error.message).toContain('Failed to fetch');
    expect(error.cause).toBe(cause);
    expect(t.toasts).toEqual([['error', BUSY_MESSAGE]]);
    expect(t.state.logouts).toBe(0);
  });

  it('uses the localised busy message when given', async () => {
    const t = setup({ respond: () => json({ code: 1001, message: 'busy', data: null }), deps: { busyMessage: '当前购买人数过多' } });
    await failure(t.client.request('/x'));
    expect(t.toasts).toEqual([['error', '当前购买人数过多']]);
  });
});

describe('API client: the captcha result is cleared once per call (spec §4)', () => {
  it.each<[string, Respond]>([
    ['success', OK],
    ['a business error', () => json({ code: 409, message: 'Sold out', data: null })],
    ['a 401', () => json({ code: 401, message: 'expired', data: null })],
    ['a busy code', () => json({ code: 1001, message: 'busy', data: null })],
    ['an HTTP error', () => json({ code: 500, message: 'fault', data: null }, 503)],
    ['a body that is not JSON', () => new Response('oops', { status: 200 })],
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('after %s', async (_, respond) => {
    const t = setup({ respond, captcha: 'ticket' });
    await t.client.request('/x').catch(() => undefined);
    expect(t.captcha()).toBeNull();
    expect(t.state.captchaClears).toBe(1);
  });

  it('before the toast and the logout (spec §8: "captcha cleared, logout if body code is 401, busy error toast")', async () => {
    const t = setup({ respond: () => json({ code: 401, message: 'expired' }, 503), captcha: 'ticket' });
    await failure(t.client.request('/x'));
    expect(t.events).toEqual(['clearCaptcha', 'logout', 'toast:error']);
  });
});

describe('API client: timeout (spec §9: 5000 ms)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('aborts at 5000 ms, not at 4999, then clears the captcha, toasts busy and rejects as a service error', async () => {
    const t = setup({ captcha: 'ticket', respond: HANG });
    let settled = false;
    const pending = failure(t.client.request('/slow')).finally(() => {
      settled = true;
    });
    await jest.advanceTimersByTimeAsync(API_TIMEOUT_MS - 1);
    expect(t.calls[0]!.init.signal?.aborted).toBe(false);
    expect(settled).toBe(false);
    expect(t.toasts).toEqual([]);
    expect(t.captcha()).toBe('ticket');

    await jest.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(t.calls[0]!.init.signal?.aborted).toBe(true);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ kind: 'service', status: null, code: null, message: '/slow timed out after 5000 ms' });
    expect(t.toasts).toEqual([['error', BUSY_MESSAGE]]);
    expect(t.captcha()).toBeNull();
    expect(t.state.captchaClears).toBe(1);
    expect(t.state.logouts).toBe(0);
  });

  it('counts the body too: a response whose body stalls times out at 5000 ms', async () => {
    const stalledBody: Respond = ({ init }) =>
      ({
        status: 200,
        json: () =>
          new Promise((_, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')));
          }),
      }) as unknown as Response; // only status and json() are read by the client
    const t = setup({ captcha: 'ticket', respond: stalledBody });
    const pending = failure(t.client.request('/slow-body'));
    await jest.advanceTimersByTimeAsync(API_TIMEOUT_MS);
    expect(await pending).toMatchObject({ kind: 'service', status: null, message: '/slow-body timed out after 5000 ms' });
    expect(t.toasts).toEqual([['error', BUSY_MESSAGE]]);
    expect(t.state.captchaClears).toBe(1);
  });

  it('honours a configured timeout', async () => {
    const t = setup({ respond: HANG, deps: { timeoutMs: 1000 } });
    const pending = failure(t.client.request('/slow'));
    await jest.advanceTimersByTimeAsync(999);
    expect(t.toasts).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ kind: 'service', message: '/slow timed out after 1000 ms' });
  });

  it('leaves no timer behind once a call has answered', async () => {
    const t = setup({ captcha: 'ticket' });
    await t.client.request('/x');
    expect(jest.getTimerCount()).toBe(0);
    expect(t.calls[0]!.init.signal?.aborted).toBe(false);
  });
});

describe('isLoginPath', () => {
  it.each(['/login', '/login?redirect=%2Fmine', '/login/', '/login/sms', '/login#top'])('%s is a login path', (path) => {
    expect(isLoginPath(path)).toBe(true);
  });

  it.each(['/loginx', '/logins', '/mine', '/mine/login', '/', '', 'login'])('%s is not a login path', (path) => {
    expect(isLoginPath(path)).toBe(false);
  });
});

describe('swrFetcher', () => {
  it('calls the client for path and [path, body] keys', async () => {
    const t = setup();
    const fetcher = swrFetcher(t.client);
    await expect(fetcher('/a')).resolves.toEqual({ ok: true });
    await fetcher(['/b', { pageCount: 2 }] as const);
    expect(t.calls.map((c) => [c.url, c.init.body])).toEqual([
      ['/api/a', '{}'],
      ['/api/b', '{"pageCount":2}'],
    ]);
  });

  it('rejects with the API error, so SWR reports it', async () => {
    const t = setup({ respond: () => json({ code: 404, message: 'no such sale', data: null }) });
    const error = await failure(swrFetcher(t.client)(['/market/api/saleRecord/detail/v2', { id: 9 }]));
    expect(error).toMatchObject({ kind: 'business', code: 404, message: 'no such sale' });
  });
});

describe('typed post (the typed wire)', () => {
  it('takes a path of the registry with its input and answers its output type (checked by tsc)', async () => {
    const { client, calls } = setup({ respond: () => json({ code: 200, message: 'ok', data: { orderNo: '2026' } }) });
    const order = await client.post('/market/api/order/detail', { orderNo: '2026' });
    const orderNo: string = order.orderNo;
    expect(orderNo).toBe('2026');
    // @ts-expect-error orderNo is required: this call has a required input.
    await client.post('/market/api/order/detail');
    // @ts-expect-error orderNo is a string.
    await client.post('/market/api/order/detail', { orderNo: 2026 });
    expect(calls.map((c) => c.init.body)).toEqual(['{"orderNo":"2026"}', '{}', '{"orderNo":2026}']);
  });
});

describe('watch (a waiting room’s pushed place, issue 35)', () => {
  const PATH = '/market/api/queue/watch';
  const line = (data: unknown, code = 200) => `${JSON.stringify({ code, message: code === 200 ? 'ok' : 'refused', data })}\n`;

  /** A streamed answer: `chunks` written one by one, then the end (unless `hold`: the stream stays open). */
  function streamed(chunks: string[], hold = false): Response {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        if (!hold) controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson; charset=utf-8' } });
  }

  it('hands each pushed line’s data over as it arrives, heartbeats skipped, lines split anywhere; the call sent as a call is', async () => {
    const first = line({ status: 'queued', position: 9 });
    const { client, calls, toasts } = setup({
      token: 'tok',
      respond: () => streamed([first.slice(0, 10), first.slice(10), '\n', line({ status: 'admitted' }) + line({ status: 'soldOut' })]),
    });
    const got: unknown[] = [];
    expect(await client.watch(PATH, { saleId: '7' }, (d) => got.push(d), new AbortController().signal)).toBe('closed');
    expect(got).toEqual([{ status: 'queued', position: 9 }, { status: 'admitted' }, { status: 'soldOut' }]);
    expect(calls[0]!.url).toBe(`/api${PATH}`);
    expect(calls[0]!.init.method).toBe('POST');
    expect(calls[0]!.init.body).toBe('{"saleId":"7"}');
    expect((calls[0]!.init.headers as Record<string, string>).Authorization).toBe('tok');
    expect(toasts).toEqual([]);
  });

  it('a plain answer is handed over once ("once": poll instead); a refusal or an HTTP error fails without a toast or a logout', async () => {
    const once = setup({ respond: () => json({ code: 200, message: 'ok', data: { status: 'queued' } }) });
    const got: unknown[] = [];
    expect(await once.client.watch(PATH, {}, (d) => got.push(d), new AbortController().signal)).toBe('once');
    expect(got).toEqual([{ status: 'queued' }]);

    const refused = setup({ respond: () => json({ code: 401, message: 'not logged in', data: null }) });
    expect(await refused.client.watch(PATH, {}, () => {}, new AbortController().signal)).toBe('refused');
    expect(refused.state.logouts).toBe(0);
    expect(refused.toasts).toEqual([]);

    const down = setup({ respond: () => new Response('bad gateway', { status: 502 }) });
    expect(await down.client.watch(PATH, {}, () => {}, new AbortController().signal)).toBe('failed');
    expect(down.toasts).toEqual([]);

    const badLine = setup({ respond: () => streamed([line({ status: 'queued' }), line(null, 500)]) });
    const seen: unknown[] = [];
    expect(await badLine.client.watch(PATH, {}, (d) => seen.push(d), new AbortController().signal)).toBe('failed');
    expect(seen).toEqual([{ status: 'queued' }]);
  });

  it('a tap’s watch (`say`) says its refusal and its failure as a call does', async () => {
    const notOpen = setup({ respond: () => json({ code: 409, message: 'The waiting room opens at 12-01 19:50.', data: null }) });
    expect(await notOpen.client.watch(PATH, { join: true }, () => {}, new AbortController().signal, { say: true })).toBe('refused');
    expect(notOpen.toasts).toEqual([['warn', 'The waiting room opens at 12-01 19:50.']]);

    const gone = setup({ respond: () => json({ code: 401, message: 'not logged in', data: null }) });
    expect(await gone.client.watch(PATH, { join: true }, () => {}, new AbortController().signal, { say: true })).toBe('refused');
    expect(gone.state.logouts).toBe(1);

    const down = setup({ respond: () => new Response('bad gateway', { status: 502 }) });
    expect(await down.client.watch(PATH, { join: true }, () => {}, new AbortController().signal, { say: true })).toBe('failed');
    expect(down.toasts).toEqual([['error', BUSY_MESSAGE]]);
  });

  it('ends when the page aborts it, and gives up on a stream silent for 40 s', async () => {
    const open = setup({ respond: () => streamed([line({ status: 'queued' })], true) });
    const page = new AbortController();
    const watching = open.client.watch(PATH, {}, () => {}, page.signal);
    await new Promise((r) => setTimeout(r, 10));
    page.abort();
    expect(await watching).toBe('failed');

    jest.useFakeTimers();
    try {
      const silent = setup({ respond: () => streamed([line({ status: 'queued' })], true) });
      const got: unknown[] = [];
      const quiet = silent.client.watch(PATH, {}, (d) => got.push(d), new AbortController().signal);
      await jest.advanceTimersByTimeAsync(39_000);
      expect(got).toEqual([{ status: 'queued' }]);
      let settled = false;
      void quiet.then(() => (settled = true));
      await jest.advanceTimersByTimeAsync(1);
      expect(settled).toBe(false);
      await jest.advanceTimersByTimeAsync(2_000);
      expect(await quiet).toBe('failed');
    } finally {
      jest.useRealTimers();
    }
  });
});
