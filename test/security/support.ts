import { eq } from 'drizzle-orm';
import { createTestDb } from '@/test/db';
import { seed } from '@/lib/db/seed';
import type { Db } from '@/lib/db/client';
import { channels } from '@/lib/db/schema';
import { dispatch } from '@/lib/api/dispatcher';
import { findOrCreateUser } from '@/lib/auth/users';
import { createSession } from '@/lib/auth/sessions';

/** A seeded database for one security test file, and calls through the real dispatcher as a client would make them. */
export function securityHarness(start = new Date('2026-11-23T08:00:00Z')) {
  const state: { db: Db; close: () => Promise<void>; clock: number } = { db: undefined as unknown as Db, close: async () => {}, clock: start.getTime() };
  beforeAll(async () => {
    const created = await createTestDb();
    state.db = created.db;
    state.close = created.close;
    await seed(state.db, start);
  });
  afterAll(() => state.close());

  let ipSeq = 0;
  const now = () => new Date(state.clock);
  const advance = (ms: number) => new Date((state.clock += ms));

  type CallOptions = { host?: string; headers?: Record<string, string>; ip?: string; raw?: boolean; at?: Date };
  async function call(path: string, body: unknown, options: CallOptions = {}) {
    const res = await dispatch(
      {
        method: 'POST',
        path,
        host: options.host ?? 'aurora.localhost:3000',
        body: options.raw ? String(body) : JSON.stringify(body),
        headers: new Headers({ 'content-type': 'application/json', ...options.headers }),
        ip: options.ip ?? `198.51.${(++ipSeq >> 8) & 255}.${ipSeq & 255}`,
      },
      { db: state.db, now: options.at ?? now() },
    );
    return { status: res.status, body: res.body as { code: number; message: string; data: unknown }, headers: res.headers ?? {} };
  }

  /** A buyer with a live API token on a channel (made directly: these tests are not about the login form). */
  async function buyer(phone: string, channelKey = 'AURORA') {
    const [channel] = await state.db.select({ id: channels.id }).from(channels).where(eq(channels.key, channelKey));
    const user = await findOrCreateUser(state.db, phone, now());
    const { token } = await createSession(state.db, { userId: user.id, channelId: channel!.id, now: now(), ip: null });
    return { token, userId: user.id, uuid: user.uuid, channelId: channel!.id };
  }

  return { state, call, buyer, now, advance, db: () => state.db };
}
