import { createTestApi, type TestApi } from '@/test/api';

/**
 * The security suite's view of the market API (test/api.ts): a seeded database per file, calls through the real
 * dispatcher as a client would make them, at a fixed time unless a call says otherwise.
 */
export function securityHarness(start = new Date('2026-11-23T08:00:00Z')) {
  let api: TestApi;
  const clock = start.getTime();
  beforeAll(async () => {
    api = await createTestApi({ now: start });
  });
  afterAll(() => api.close());

  const now = () => new Date(clock);

  type CallOptions = { host?: string; headers?: Record<string, string>; ip?: string; raw?: boolean; at?: Date };
  async function call(path: string, body: unknown, options: CallOptions = {}) {
    const answer = await api.callApi(path, body, {
      host: options.host,
      headers: options.headers,
      ip: options.ip,
      rawBody: options.raw ? String(body) : undefined,
      now: options.at ?? now(),
    });
    return { status: answer.status, body: { code: answer.code, message: answer.message, data: answer.data }, headers: answer.headers };
  }

  /** A buyer with a live API token on a channel (made directly: these tests are not about the login form). */
  async function buyer(phone: string, channelKey = 'AURORA') {
    const made = await api.buyer(phone, channelKey);
    return { token: made.token, userId: made.userId, uuid: made.uuid, channelId: await api.channelId(channelKey) };
  }

  return { call, buyer, now, db: () => api.db };
}
