import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { apiCall } from '@/test/api';
import { makeSale, makeUsers } from '@/test/buying';
import { createSession, revokeToken } from '@/lib/auth/sessions';
import { buyerIdentities, channels, users, type IdentityPolicyJson } from '@/lib/db/schema';
import { invalidate, tags } from '@/lib/cache/store';
import { createOrder } from '../order/service';

// issue 34: /mine's HTML is the same for every buyer of a channel (the rendered-page cache), so what /mine shows of one
// buyer comes from one call, `userAttribute/mineSummary`: only the caller's own, only on the host's channel, and a
// visitor without a session (or with a revoked one) is answered 401, which the page shows as its login prompt.

const now = new Date('2026-11-27T08:00:00Z');
const db = seededTestDb(now);
const PATH = '/market/api/userAttribute/mineSummary';
const AURORA = 'aurora.localhost:3000';
const LUMEN = 'lumen.localhost:3000';

const call = (options: { token?: string; host?: string; body?: unknown } = {}) =>
  apiCall(db, PATH, options.body ?? {}, { token: options.token, host: options.host ?? AURORA, ip: '10.0.0.45', now });

/** The call's answer to a buyer: 200, with their part. */
async function mine(options: { token: string; host?: string }) {
  const { body } = await call(options);
  expect(body.code).toBe(200);
  return body.data!;
}

async function channelId(key: string): Promise<number> {
  const [row] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, key));
  return row!.id;
}

let seq = 0;
/** A buyer who joined at `joined`, with a session on `channelKey`. */
async function buyer(channelKey: string, joined = new Date('2026-01-01T04:00:00Z')) {
  const n = ++seq;
  const [userId] = await makeUsers(db, 1, `45${String(n).padStart(2, '0')}`);
  // A phone of its own to the last four digits, so one buyer's masked phone tells them apart from another's.
  await db
    .update(users)
    .set({ createdAt: joined, phone: `1390045${String(n * 1111).padStart(4, '0')}` })
    .where(eq(users.id, userId!));
  const [row] = await db.select({ phone: users.phone }).from(users).where(eq(users.id, userId!));
  const id = await channelId(channelKey);
  const { token } = await createSession(db, { userId: userId!, channelId: id, now, ip: null });
  return { userId: userId!, channelId: id, token, phone: row!.phone };
}

async function setPolicy(key: string, identityPolicy: IdentityPolicyJson): Promise<void> {
  await db.update(channels).set({ identityPolicy }).where(eq(channels.key, key));
  invalidate(db, [tags.channel(key)]);
}

it('answers 401 to a visitor, to another channel’s session and to a revoked one, and refuses a body that is not an object', async () => {
  expect((await call()).body).toMatchObject({ code: 401 });
  expect((await call({ token: 'made-up' })).body).toMatchObject({ code: 401 });
  const lumen = await buyer('LUMEN');
  expect((await call({ token: lumen.token })).body).toMatchObject({ code: 401 });
  expect((await call({ token: lumen.token, host: LUMEN })).body).toMatchObject({ code: 200 });
  await revokeToken(db, { token: lumen.token, now });
  expect((await call({ token: lumen.token, host: LUMEN })).body).toMatchObject({ code: 401 });
  const aurora = await buyer('AURORA');
  const bad = (await call({ token: aurora.token, body: [1] })).body;
  expect(bad.code).toBe(400);
});

it("tells each buyer their own phone, account number, counts and member-since day, and nothing of another's", async () => {
  // Joined at 20:00 UTC: already the next day in the channel's time zone (Asia/Shanghai, UTC+8).
  const a = await buyer('AURORA', new Date('2026-03-04T20:00:00Z'));
  const b = await buyer('AURORA');
  await db.update(channels).set({ timeZone: 'Asia/Shanghai' }).where(eq(channels.key, 'AURORA'));
  invalidate(db, [tags.channel('AURORA')]);
  for (const code of ['mine-state-1', 'mine-state-2']) {
    const sale = await makeSale(db, { code, amount: 5, limitPerUser: 2, now });
    await createOrder(
      { db, now, channelId: a.channelId, userId: a.userId },
      { saleId: sale.saleId, quantity: 1, idempotencyKey: code },
      300_000,
    );
  }

  const mineA = await mine({ token: a.token });
  expect(mineA).toMatchObject({
    phone: `${a.phone.slice(0, 3)}****${a.phone.slice(7)}`,
    nickname: null,
    avatar: null,
    accountNumber: expect.stringMatching(/^\d{10}$/),
    memberSince: '2026-03-05',
    collectibles: 0,
    boxes: 0,
    toPay: 2,
  });
  // The account number is made once and kept: the next visit reads the same one.
  expect((await mine({ token: a.token })).accountNumber).toBe(mineA.accountNumber);

  const mineB = await mine({ token: b.token });
  expect(mineB).toMatchObject({ toPay: 0 });
  expect(mineB.accountNumber).not.toBe(mineA.accountNumber);
  const textB = JSON.stringify(mineB);
  expect(textB).not.toContain(mineA.phone);
  expect(textB).not.toContain(a.phone.slice(7));
  expect(textB).not.toContain(mineA.accountNumber);
});

it("counts only the host channel's: A's orders on AURORA are not on A's LUMEN page, and the account number is per channel", async () => {
  const a = await buyer('AURORA');
  const sale = await makeSale(db, { code: 'mine-state-3', amount: 5, limitPerUser: 2, now });
  await createOrder(
    { db, now, channelId: a.channelId, userId: a.userId },
    { saleId: sale.saleId, quantity: 1, idempotencyKey: 'mine-state-3' },
    300_000,
  );
  const { token: lumenToken } = await createSession(db, { userId: a.userId, channelId: await channelId('LUMEN'), now, ip: null });
  const onAurora = await mine({ token: a.token });
  const onLumen = await mine({ token: lumenToken, host: LUMEN });
  expect(onAurora.toPay).toBe(1);
  expect(onLumen.toPay).toBe(0);
  expect(onLumen.accountNumber).not.toBe(onAurora.accountNumber);
});

it("says whether the channel asks for a real name, and the buyer's verified name, masked", async () => {
  const a = await buyer('AURORA');
  await setPolicy('AURORA', {});
  expect((await mine({ token: a.token })).identity).toEqual({ maskedName: null, asked: false });
  await setPolicy('AURORA', { realName: { buy: true } });
  expect((await mine({ token: a.token })).identity).toEqual({ maskedName: null, asked: true });
  await db.insert(buyerIdentities).values({
    userId: a.userId,
    idHash: 'mine-state-hash',
    nameSealed: 'sealed',
    idNumberSealed: 'sealed',
    keyId: 'test',
    birthDate: '1990-01-01',
    maskedName: '李*',
    maskedIdNumber: '1101**********1234',
    provider: 'demo',
    verifiedAt: now,
  });
  expect((await mine({ token: a.token })).identity).toEqual({ maskedName: '李*', asked: true });
});
