import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { makeSale } from '@/test/buying';
import { createSession } from '@/lib/auth/sessions';
import { buyerIdentities, holdings, orderRefunds, orders, payments, users } from '@/lib/db/schema';
import { createOrder } from '../order/service';
import { findOrCreateUser } from '../auth/users';
import { verifyCode } from '../auth/sms-codes';
import { accountNumberOf } from '../auth/account-numbers';
import { env } from '../env';
import { deviceInWords, maskAddress } from './profile';
import { nicknameProblem, refusedWordsOf } from './nickname';
import { buyerData } from './data-export';

// issue 36: the profile a buyer owns (docs/profile.md): nickname and avatar, their logins, signing out elsewhere, their
// data as a file, and closing the account. Runs on PGlite, and on PostgreSQL under scripts/with-postgres.sh.

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7 Build/UQ1A.240105.004) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi({ now: new Date('2026-11-28T08:00:00Z') });
});
afterAll(async () => api.close());

let phoneSeq = 0;
const freshPhone = () => `1390036${String(++phoneSeq).padStart(4, '0')}`;

async function mineName(token: string): Promise<unknown> {
  const answer = await api.callApi('/market/api/userAttribute/mineSummary', {}, { token });
  expect(answer.body.code).toBe(200);
  return (answer.data as { nickname: string | null }).nickname;
}

describe('nickname rules', () => {
  it('takes 2–20 letters, digits, CJK, _ and -, with single spaces inside', () => {
    for (const ok of ['Al', '王小明', 'moon_walker-7', 'Lucky Star', 'a'.repeat(20), '星星 Star']) expect(nicknameProblem(ok)).toBeNull();
    expect(nicknameProblem('A')).toBe('length');
    expect(nicknameProblem('a'.repeat(21))).toBe('length');
    expect(nicknameProblem(' Al')).toBe('spaces');
    expect(nicknameProblem('Al ')).toBe('spaces');
    expect(nicknameProblem('A  l')).toBe('spaces');
    expect(nicknameProblem('hi!')).toBe('chars');
    expect(nicknameProblem('<b>x</b>')).toBe('chars');
    expect(nicknameProblem('emoji😀')).toBe('chars');
  });

  it('refuses words that pass for the store, whatever their case or spacing, and takes another list through the hook', () => {
    expect(nicknameProblem('Store Admin')).toEqual({ refused: 'admin' });
    expect(nicknameProblem('ad_MIN')).toEqual({ refused: 'admin' });
    expect(nicknameProblem('官方客服')).toEqual({ refused: '官方' });
    const mine = refusedWordsOf(['banana']);
    expect(nicknameProblem('Admin', mine)).toBeNull();
    expect(nicknameProblem('Big Banana', mine)).toEqual({ refused: 'banana' });
  });
});

describe('profile/update', () => {
  it('refuses a bad nickname naming the field, in both languages, and changes nothing', async () => {
    const a = await api.buyer(freshPhone());
    const en = await api.callApi('/market/api/profile/update', { nickname: 'Official Shop' }, { token: a.token });
    expect(en.body.code).toBe(400);
    expect(en.body.data).toMatchObject({ field: 'nickname' });
    expect(en.message).toBe('This nickname cannot be used: “official” could pass for the store or its staff.');
    const zh = await api.callApi(
      '/market/api/profile/update',
      { nickname: 'x' },
      { token: a.token, headers: { 'accept-language': 'zh-CN' } },
    );
    expect(zh.body.code).toBe(400);
    expect(zh.message).toBe('昵称长度为 2 到 20 个字符');
    const avatar = await api.callApi('/market/api/profile/update', { avatar: 'https://evil.example/x.png' }, { token: a.token });
    expect(avatar.body.code).toBe(400);
    expect(avatar.body.data).toMatchObject({ field: 'avatar' });
    expect(await mineName(a.token)).toBeNull();
  });

  it('sets the nickname and avatar, shown on Mine at once (the cached session read is dropped)', async () => {
    const a = await api.buyer(freshPhone());
    expect(await mineName(a.token)).toBeNull(); // the session read is cached now
    const saved = await api.callApi(
      '/market/api/profile/update',
      { nickname: '星星 Star', avatar: '/brands/avatars/leaf.svg' },
      { token: a.token },
    );
    expect(saved.data).toEqual({ nickname: '星星 Star', avatar: '/brands/avatars/leaf.svg' });
    expect(await mineName(a.token)).toBe('星星 Star');
    const cleared = await api.callApi('/market/api/profile/update', { avatar: null }, { token: a.token });
    expect(cleared.data).toEqual({ nickname: '星星 Star', avatar: null });
  });
});

describe('logins', () => {
  it('lists the last 20 logins on this channel, newest first, with the device in words and the address masked', async () => {
    const a = await api.buyer(freshPhone());
    const channelId = await api.channelId('AURORA');
    for (let i = 0; i < 22; i++) {
      await createSession(api.db, {
        userId: a.userId,
        channelId,
        now: new Date(api.now.getTime() - (i + 1) * 60_000),
        ip: '203.0.113.9',
        userAgent: ANDROID,
      });
    }
    const other = await createSession(api.db, {
      userId: a.userId,
      channelId: await api.channelId('LUMEN'),
      now: api.now,
      ip: '198.51.100.1',
      userAgent: IPHONE,
    });
    const current = (
      await createSession(api.db, {
        userId: a.userId,
        channelId,
        now: new Date(api.now.getTime() + 1000),
        ip: '2408:8207:1:2::5',
        userAgent: IPHONE,
      })
    ).token;
    const list = (await api.callApi('/market/api/profile/logins', {}, { token: current })).data as Array<Record<string, unknown>>;
    expect(list).toHaveLength(20);
    expect(list[0]).toMatchObject({ current: true, live: true, device: 'iPhone, iOS 17.4, WeChat', address: '2408:8207:*' });
    expect(list[2]).toMatchObject({ current: false, device: 'Pixel 7, Android 14', address: '203.0.*.*' });
    expect(JSON.stringify(list)).not.toContain('113.9');
    expect(JSON.stringify(list)).not.toContain('198.51');
    expect(other.token).toBeTruthy();
  });

  it('words devices and masks addresses', () => {
    expect(deviceInWords(null)).toBe('');
    expect(deviceInWords('curl/8.0')).toBe('');
    expect(maskAddress('::ffff:10.1.2.3')).toBe('10.1.*.*');
    expect(maskAddress(null)).toBe('');
  });

  it('signs out every other session on this channel: their next call is refused, this one and other stores stay', async () => {
    const a = await api.buyer(freshPhone());
    const second = await api.session(a.userId, 'AURORA');
    const lumen = await api.session(a.userId, 'LUMEN');
    // Read once, so each session sits in the process's cache.
    expect((await api.callApi('/market/api/profile/read', {}, { token: second })).body.code).toBe(200);
    const ended = await api.callApi('/market/api/profile/signOutOthers', {}, { token: a.token });
    expect(ended.data).toEqual({ ended: 1 });
    expect((await api.callApi('/market/api/profile/read', {}, { token: second })).body.code).toBe(401);
    expect((await api.callApi('/market/api/profile/read', {}, { token: a.token })).body.code).toBe(200);
    expect((await api.callApi('/market/api/profile/read', {}, { token: lumen, host: 'lumen.localhost:3000' })).body.code).toBe(200);
    const list = (await api.callApi('/market/api/profile/logins', {}, { token: a.token })).data as Array<{
      current: boolean;
      live: boolean;
    }>;
    expect(list.filter((l) => l.live)).toEqual([expect.objectContaining({ current: true })]);
  });
});

describe('the data file', () => {
  it("holds the buyer's own profile, orders, holdings and logins on this channel, and nothing of another buyer", async () => {
    const a = await api.buyer(freshPhone());
    const b = await api.buyer(freshPhone());
    const channelId = await api.channelId('AURORA');
    const sale = await makeSale(api.db, { code: 'profile-data', amount: 5, limitPerUser: 2, now: api.now });
    await createOrder(
      { db: api.db, now: api.now, channelId, userId: a.userId },
      { saleId: sale.saleId, quantity: 1, idempotencyKey: 'data-a' },
      300_000,
    );
    await createOrder(
      { db: api.db, now: api.now, channelId, userId: b.userId },
      { saleId: sale.saleId, quantity: 1, idempotencyKey: 'data-b' },
      300_000,
    );
    await api.db.update(users).set({ nickname: 'Data Owner' }).where(eq(users.id, a.userId));
    const file = await buyerData({ db: api.db, now: api.now, channelId, userId: a.userId }, null);
    expect(file.profile).toMatchObject({ phone: a.phone, nickname: 'Data Owner' });
    expect(file.orders).toHaveLength(1);
    expect(file.orders[0]).toMatchObject({ status: 'toPay', quantity: 1 });
    expect(file.logins.length).toBeGreaterThan(0);
    expect(JSON.stringify(file)).not.toContain(b.phone);
  });
});

describe('closing the account', () => {
  const zh = { 'accept-language': 'zh-CN' };

  async function closingCode(token: string): Promise<string> {
    const sent = await api.callApi('/market/api/profile/closeCode', {}, { token });
    expect(sent.body.code).toBe(200);
    return (sent.data as { demoCode: string }).demoCode;
  }

  it('refuses while an order waits for payment or a refund is owed, in both languages', async () => {
    const a = await api.buyer(freshPhone());
    const channelId = await api.channelId('AURORA');
    const sale = await makeSale(api.db, { code: 'profile-close-pay', amount: 5, limitPerUser: 2, now: api.now });
    await createOrder(
      { db: api.db, now: api.now, channelId, userId: a.userId },
      { saleId: sale.saleId, quantity: 1, idempotencyKey: 'close-pay' },
      300_000,
    );
    const state = (await api.callApi('/market/api/profile/closing', {}, { token: a.token })).data;
    expect(state).toMatchObject({ canClose: false, blockers: { toPay: 1, refundsOwed: 0 } });
    const en = await api.callApi('/market/api/profile/closeCode', {}, { token: a.token });
    expect(en.body.code).toBe(409);
    expect(en.message).toBe('You have an order waiting for payment: pay or cancel it before closing your account.');
    const refused = await api.callApi('/market/api/profile/close', { code: '123456' }, { token: a.token, headers: zh });
    expect(refused.message).toBe('你有 1 笔待付款订单，请先付款或取消后再注销账号');

    // Paid, then a refund owed to them.
    const [order] = await api.db.update(orders).set({ statusTrade: 1, payTime: api.now }).where(eq(orders.userId, a.userId)).returning();
    const [payment] = await api.db
      .insert(payments)
      .values({
        paymentNo: `PCLOSE${a.userId}`,
        orderId: order!.id,
        provider: 'sandbox',
        amount: order!.amount,
        status: 1,
        createdAt: api.now,
      })
      .returning({ id: payments.id });
    await api.db.insert(orderRefunds).values({
      refundNo: `RCLOSE${a.userId}`,
      orderId: order!.id,
      channelId,
      paymentId: payment!.id,
      quantity: 1,
      amount: order!.amount,
      reason: 'test',
      idempotencyKey: 'close-refund',
      createdAt: api.now,
    });
    const owed = await api.callApi('/market/api/profile/close', { code: '123456' }, { token: a.token });
    expect(owed.body.code).toBe(409);
    expect(owed.message).toContain('A refund is still owed to you');
    expect((await api.db.select().from(users).where(eq(users.id, a.userId)))[0]!.closedAt).toBeNull();
  });

  it('lists what is held, takes only a closing code, then closes on every store; the phone signs up anew as a fresh account', async () => {
    const phone = freshPhone();
    const a = await api.buyer(phone);
    const lumen = await api.session(a.userId, 'LUMEN');
    const channelId = await api.channelId('AURORA');
    const sale = await makeSale(api.db, { code: 'profile-close-held', amount: 5, limitPerUser: 2, now: api.now });
    const made = await createOrder(
      { db: api.db, now: api.now, channelId, userId: a.userId },
      { saleId: sale.saleId, quantity: 1, idempotencyKey: 'close-held' },
      300_000,
    );
    expect(made).toBeTruthy();
    // Held: a copy as the paid order would mint it.
    await api.db.update(orders).set({ statusTrade: 1, payTime: api.now, cancelTime: null }).where(eq(orders.userId, a.userId));
    const [order] = await api.db.select().from(orders).where(eq(orders.userId, a.userId));
    await api.db
      .insert(holdings)
      .values({ channelId, userId: a.userId, commodityId: sale.commodityId, number: 1, orderId: order!.id, createdAt: api.now });
    await api.db.insert(buyerIdentities).values({
      userId: a.userId,
      idHash: `close-hash-${a.userId}`,
      nameSealed: 'x',
      idNumberSealed: 'x',
      keyId: 'k',
      birthDate: '1990-01-01',
      maskedName: '张*',
      maskedIdNumber: '1101**********1234',
      provider: 'demo',
      verifiedAt: api.now,
    });

    const state = (await api.callApi('/market/api/profile/closing', {}, { token: a.token })).data as { held: unknown[]; canClose: boolean };
    expect(state.canClose).toBe(true);
    expect(state.held).toEqual([expect.objectContaining({ number: 1, here: true })]);

    // A login code does not close the account.
    const wrong = await api.callApi('/market/api/profile/close', { code: '000000' }, { token: a.token });
    expect(wrong.body.code).toBe(400);
    expect(wrong.body.data).toMatchObject({ field: 'code' });

    const code = await closingCode(a.token);
    expect(code).toMatch(/^\d{6}$/);
    // A closing code logs no one in.
    await expect(
      verifyCode({ db: api.db, now: api.now, channelId, secret: env().AUTH_SECRET, ip: '10.9.9.9' }, phone, code),
    ).rejects.toThrow('This code has expired or was never sent. Please ask for a new one.');
    const friend = await api.buyer(freshPhone());
    const number = await accountNumberOf(api.db, channelId, a.userId, api.now);
    expect((await api.callApi('/market/api/transfer/lookup', { accountNumber: number }, { token: friend.token })).body.code).toBe(200);
    const closed = await api.callApi('/market/api/profile/close', { code }, { token: a.token });
    expect(closed.data).toEqual({ closed: true });

    // Signed out everywhere.
    expect((await api.callApi('/market/api/profile/read', {}, { token: a.token })).body.code).toBe(401);
    expect((await api.callApi('/market/api/profile/read', {}, { token: lumen, host: 'lumen.localhost:3000' })).body.code).toBe(401);
    const [row] = await api.db.select().from(users).where(eq(users.id, a.userId));
    expect(row).toMatchObject({ phone: `closed:${a.userId}`, nickname: null, avatar: null });
    expect(row!.closedAt).not.toBeNull();
    // The identity's keyed hash stays with the closed account, so identity blocks and limits still apply.
    expect((await api.db.select().from(buyerIdentities).where(eq(buyerIdentities.userId, a.userId)))[0]?.idHash).toBe(
      `close-hash-${a.userId}`,
    );

    // A gift can no longer be sent to the closed account's number.
    const lookup = await api.callApi('/market/api/transfer/lookup', { accountNumber: number }, { token: friend.token });
    expect(lookup.body.code).toBe(404);

    // The same phone signs up as a new account, holding nothing.
    const fresh = await findOrCreateUser(api.db, phone, api.now);
    expect(fresh.created).toBe(true);
    expect(fresh.id).not.toBe(a.userId);
    const again = await api.buyer(phone);
    const held = (await api.callApi('/market/api/profile/closing', {}, { token: again.token })).data as { held: unknown[] };
    expect(held.held).toEqual([]);
  });
});
