import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { apiCall } from '@/test/api';
import { makeSale, makeUsers } from '@/test/buying';
import { createSession } from '@/lib/auth/sessions';
import { buyerIdentities, channels, type IdentityPolicyJson } from '@/lib/db/schema';
import { invalidate, tags } from '@/lib/cache/store';
import { createOrder } from './service';

// issue 34: the pay page's HTML is the same for every buyer (served from the rendered-page cache), so what differs per
// buyer comes from one call, `saleRecord/payState`: their quota left, their unpaid order, their real-name standing,
// their WeChat identity. Only theirs, only on the host's channel.

const now = new Date('2026-11-22T08:00:00Z');
const db = seededTestDb(now);
const PATH = '/market/api/saleRecord/payState';
const AURORA = 'aurora.localhost:3000';
const LUMEN = 'lumen.localhost:3000';

const call = (body: unknown, options: { token?: string; host?: string; headers?: Record<string, string>; at?: Date } = {}) =>
  apiCall(db, PATH, body, {
    token: options.token,
    host: options.host ?? AURORA,
    headers: options.headers,
    ip: '10.0.0.34',
    now: options.at ?? now,
  });

let seq = 0;
async function buyer(channelKey: string, birthDate?: string): Promise<{ userId: number; channelId: number; token: string }> {
  const n = ++seq;
  const [channel] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, channelKey));
  const [userId] = await makeUsers(db, 1, `34${String(n).padStart(2, '0')}`);
  if (birthDate) {
    await db.insert(buyerIdentities).values({
      userId: userId!,
      idHash: `pay-state-hash-${n}`,
      nameSealed: 'sealed',
      idNumberSealed: 'sealed',
      keyId: 'test',
      birthDate,
      maskedName: '张*',
      maskedIdNumber: '1101**********1234',
      provider: 'demo',
      verifiedAt: now,
    });
  }
  const { token } = await createSession(db, { userId: userId!, channelId: channel!.id, now, ip: null });
  return { userId: userId!, channelId: channel!.id, token };
}

async function setPolicy(key: string, identityPolicy: IdentityPolicyJson): Promise<void> {
  await db.update(channels).set({ identityPolicy, timeZone: 'Asia/Shanghai' }).where(eq(channels.key, key));
  invalidate(db, [tags.channel(key)]);
}

it('needs a session of this channel, and reads no object of another channel', async () => {
  const sale = await makeSale(db, { code: 'pay-state-auth', amount: 10, limitPerUser: 3, now });
  expect((await call({ id: sale.saleId })).body).toMatchObject({ code: 401 });
  const lumenBuyer = await buyer('LUMEN');
  // Another channel's session is no session here.
  expect((await call({ id: sale.saleId }, { token: lumenBuyer.token })).body).toMatchObject({ code: 401 });
  // Another channel's sale, asked on that buyer's own channel: none.
  const answer = await call({ id: sale.saleId }, { token: lumenBuyer.token, host: LUMEN });
  expect(answer.body).toMatchObject({ code: 404, data: { field: 'id' } });
  const auroraBuyer = await buyer('AURORA');
  expect((await call({ id: 'x' }, { token: auroraBuyer.token })).body).toMatchObject({ code: 400 });
  expect((await call({ id: 2_000_000_000 }, { token: auroraBuyer.token })).body).toMatchObject({ code: 404 });
});

it('tells the buyer how many more they may buy and their unpaid order, and forgets an order once it ran out of time', async () => {
  const sale = await makeSale(db, { code: 'pay-state-quota', amount: 10, limitPerUser: 3, price: 1990, now });
  const a = await buyer('AURORA');
  const b = await buyer('AURORA');
  const fresh = await call({ id: sale.saleId }, { token: a.token });
  expect(fresh.body).toMatchObject({
    code: 200,
    data: {
      saleId: String(sale.saleId),
      limit: 3,
      held: 0,
      left: 3,
      identity: { standing: 'ok', message: null },
      hasWechatIdentity: false,
      unpaidOrder: null,
    },
  });

  const order = await createOrder(
    { db, now, channelId: a.channelId, userId: a.userId },
    { saleId: sale.saleId, quantity: 2, idempotencyKey: 'pay-state-a1' },
    300_000,
  );
  const after = (await call({ id: sale.saleId }, { token: a.token })).body.data;
  expect(after).toMatchObject({
    held: 2,
    left: 1,
    unpaidOrder: { orderNo: order.orderNo, quantity: 2, amount: 3980, expireTime: order.expireTime },
  });
  // B's answer is B's own.
  expect((await call({ id: sale.saleId }, { token: b.token })).body.data).toMatchObject({ held: 0, left: 3, unpaidOrder: null });

  // Past its time the order gives its copies and quota back, whether or not the sweep has passed.
  const later = new Date(now.getTime() + 301_000);
  expect((await call({ id: sale.saleId }, { token: a.token, at: later })).body.data).toMatchObject({ held: 0, left: 3, unpaidOrder: null });
});

it('knows the WeChat identity cookie by its name on HTTPS and on plain HTTP', async () => {
  const sale = await makeSale(db, { code: 'pay-state-wechat', amount: 10, limitPerUser: 1, now });
  const a = await buyer('AURORA');
  for (const cookie of ['__Host-wxpay_openid=o1.1.abc', 'theme=x; wxpay_openid=o1.1.abc']) {
    const answer = await call({ id: sale.saleId }, { token: a.token, headers: { cookie } });
    expect([cookie, answer.body.data]).toEqual([cookie, expect.objectContaining({ hasWechatIdentity: true })]);
  }
  expect((await call({ id: sale.saleId }, { token: a.token, headers: { cookie: 'xwxpay_openid=1' } })).body.data).toMatchObject({
    hasWechatIdentity: false,
  });
});

describe("the channel's real-name and age rules (issue 33), as they stand for this buyer", () => {
  afterAll(() => setPolicy('LUMEN', {}));

  it('unverified: the notice in the caller’s language; under age: the channel’s rule, never the buyer’s age; verified: nothing', async () => {
    await setPolicy('LUMEN', { realName: { buy: true }, minAge: 18 });
    const sale = await makeSale(db, { channelKey: 'LUMEN', code: 'pay-state-identity', amount: 10, limitPerUser: 1, now });
    const unverified = await buyer('LUMEN');
    const young = await buyer('LUMEN', '2010-05-01');
    const adult = await buyer('LUMEN', '1990-05-01');
    expect(
      (await call({ id: sale.saleId }, { token: unverified.token, host: LUMEN, headers: { 'accept-language': 'en' } })).body.data,
    ).toMatchObject({
      identity: {
        standing: 'unverified',
        message: 'This store sells this to buyers aged 18 and over, and asks them to verify their real name before buying.',
      },
    });
    const zh = (await call({ id: sale.saleId }, { token: unverified.token, host: LUMEN, headers: { 'accept-language': 'zh-CN' } })).body
      .data as {
      identity: { message: string };
    };
    expect(zh.identity.message).toMatch(/18/);
    expect(zh.identity.message).not.toMatch(/[A-Za-z]{3}/);
    const under = (await call({ id: sale.saleId }, { token: young.token, host: LUMEN, headers: { 'accept-language': 'en' } })).body
      .data as {
      identity: { standing: string; message: string };
    };
    expect(under.identity).toEqual({ standing: 'underAge', message: 'This store sells this to buyers aged 18 and over.' });
    expect(under.identity.message).not.toMatch(/\b16\b/);
    expect((await call({ id: sale.saleId }, { token: adult.token, host: LUMEN })).body.data).toMatchObject({
      identity: { standing: 'ok', message: null },
    });
  });
});
