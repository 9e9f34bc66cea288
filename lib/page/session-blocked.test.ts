/**
 * @jest-environment node
 * @jest-environment-options {"customExportConditions": ["react-server", "node", "node-addons"]}
 */
import { eq } from 'drizzle-orm';
import { encode } from 'next-auth/jwt';
import { createTestDb } from '@/test/db';
import { seed } from '@/lib/demo/seed';
import { signedInOperator } from '@/test/operator-fixtures';
import type { Db } from '@/lib/db/client';
import { channels } from '@/lib/db/schema';
import { findOrCreateUser } from '@/lib/auth/users';
import { createSession } from '@/lib/auth/sessions';
import { blockBuyer, unblockBuyer } from '@/lib/auth/blocks';
import { maskPhone } from '@/lib/auth/mask';
import { authSecret } from '@/lib/security/secret';
import { getPageUser, pageSessionBlocked } from './session';

// Issue 32: a buyer whose session a block ended is sent from the signed-in pages to /login, which must say why (the
// block's words) rather than offer a login that refuses them. What the login page asks: is this browser's session one
// a block on its buyer ended?

// What Next gives server components for next/navigation (its client hooks need React's client build).
jest.mock('next/navigation', () => jest.requireActual<object>('next/dist/client/components/navigation.react-server'));

const mockCookies = new Map<string, string>();
jest.mock('next/headers', () => ({
  cookies: async () => ({
    get: (name: string) => (mockCookies.has(name) ? { name, value: mockCookies.get(name) } : undefined),
    has: (name: string) => mockCookies.has(name),
  }),
}));

const now = new Date('2026-12-04T08:00:00Z');
const store = globalThis as unknown as { storefrontDb?: Db };
let db: Db;
let close: () => Promise<void>;
let aurora: { id: number; key: string };
beforeAll(async () => {
  ({ db, close } = await createTestDb());
  await seed(db, now);
  const [row] = await db.select({ id: channels.id, key: channels.key }).from(channels).where(eq(channels.key, 'AURORA'));
  aurora = row!;
  // getDb() answers this database to the page's loaders.
  store.storefrontDb = db;
});
afterAll(async () => {
  delete store.storefrontDb;
  await close();
});
afterEach(() => mockCookies.clear());

/** A buyer logged in on AURORA in this browser: the session cookie the store sets. */
async function logIn(phone: string): Promise<number> {
  const user = await findOrCreateUser(db, phone, now);
  const { token } = await createSession(db, { userId: user.id, channelId: aurora.id, now, ip: null });
  const cookie = await encode({
    token: { sub: user.uuid, apiToken: token, channel: aurora.key, phone: maskPhone(phone) },
    secret: authSecret(),
  });
  mockCookies.set('next-auth.session-token', cookie);
  return user.id;
}

describe("the login page's word for a blocked buyer (issue 32)", () => {
  it('is said for a session a block ended, and not for a live one, a visitor, or after the block is lifted', async () => {
    expect(await pageSessionBlocked(aurora)).toBe(false);
    const owner = await signedInOperator(db, { name: 'blocks.owner', role: 'owner', now });
    const userId = await logIn('13912340001');
    expect(await pageSessionBlocked(aurora)).toBe(false);

    await blockBuyer(db, { userId, channelId: aurora.id, reason: 'chargeback', operatorId: owner.operatorId, now });
    // The signed-in pages see no buyer (they send them to /login); the login page sees why.
    expect(await getPageUser(aurora)).toBeNull();
    expect(await pageSessionBlocked(aurora)).toBe(true);

    await unblockBuyer(db, {
      userId,
      channelId: aurora.id,
      everyChannel: false,
      reason: 'refund confirmed',
      operatorId: owner.operatorId,
      now,
    });
    expect(await pageSessionBlocked(aurora)).toBe(false);
  });
});
