import { eq } from 'drizzle-orm';
import { createTestDb, seededTestDb } from '@/test/db';
import { seed } from '@/lib/demo/seed';
import { alerts as alerts_, channelLoginDevices, channels, rateLimits, smsCodes, users } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import { msg } from '@/lib/procedure/messages';
import { phoneWaitMs, sendCode, verifyCode, type CodeCtx } from './sms-codes';
import { loginWithCode } from './service';
import { createSession, resolveToken, revokeToken } from './sessions';
import { findOrCreateUser } from './users';
import { sweepExpiredRecords } from '@/lib/jobs/retention';
import { RETENTION } from '@/lib/security/retention';
import { deviceHash } from '@/lib/security/device';
import { AUTH_LIMITS, DEFAULT_ADDRESS_LIMITS } from './limits';
import type { SmsProvider } from './sms';

let aurora: number;
let lumen: number;
const secret = 'test-secret-test-secret-test-secret-0123';
const t0 = new Date('2026-11-22T08:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

/** An SMS provider that remembers what it sent, so tests read the code like a buyer would. */
const sent: { phone: string; code: string }[] = [];
const recorder: SmsProvider = {
  name: 'test',
  showsCodes: false,
  async send(_db, message) {
    sent.push({ phone: message.phone, code: message.code });
  },
};
function lastCode(phone: string): string {
  const code = [...sent].reverse().find((m) => m.phone === phone)?.code;
  if (!code) throw new Error(`no code sent to ${phone}`);
  return code;
}
function wrong(code: string): string {
  return code === '000000' ? '111111' : '000000';
}

let phoneSeq = 0;
/** A fresh phone per test, so the per-phone limits of one test do not leak into the next. */
const newPhone = () => `1390000${String(++phoneSeq).padStart(4, '0')}`;
let ipSeq = 0;
const newIp = () => `10.0.0.${++ipSeq}`;

const ctx = (now: Date, over: Partial<CodeCtx> = {}): CodeCtx => ({
  db,
  now,
  channelId: aurora,
  ip: '10.9.9.9',
  secret,
  sms: recorder,
  ...over,
});

/** A refusal with this code, and the words (English) or the field it is about (the answer's `data.field`). */
async function expectAppError(promise: Promise<unknown>, code: number, expected: RegExp | { field: string }): Promise<void> {
  await expect(promise).rejects.toBeInstanceOf(AppError);
  await promise.catch((error: AppError) => {
    expect(error.code).toBe(code);
    if (expected instanceof RegExp) expect(error.message).toMatch(expected);
    else expect(error.data?.field).toBe(expected.field);
  });
}

const db = seededTestDb(t0);
beforeAll(async () => {
  const [a] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'AURORA'));
  const [l] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'LUMEN'));
  aurora = a!.id;
  lumen = l!.id;
});

describe('SMS codes (DESIGN §10)', () => {
  it('sends 6 CSPRNG digits and stores only a keyed hash', async () => {
    const phone = newPhone();
    const answer = await sendCode(ctx(t0, { ip: newIp() }), phone);
    expect(answer).toEqual({ cooldownSeconds: 60, expiresInSeconds: 300 });
    const code = lastCode(phone);
    expect(code).toMatch(/^\d{6}$/);
    const rows = await db.select().from(smsCodes).where(eq(smsCodes.phone, phone));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.codeHash).not.toContain(code);
    expect(rows[0]!.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives the same answer for a registered phone and an unknown one', async () => {
    const known = newPhone();
    await sendCode(ctx(t0, { ip: newIp() }), known);
    await loginWithCode({ ...ctx(t0), ip: '10.1.1.1' }, { phone: known, code: lastCode(known) });
    const [user] = await db.select().from(users).where(eq(users.phone, known));
    expect(user).toBeDefined();

    const later = at(2 * AUTH_LIMITS.phoneCooldownMs);
    const forKnown = await sendCode(ctx(later, { ip: newIp() }), known);
    const forUnknown = await sendCode(ctx(later, { ip: newIp() }), newPhone());
    expect(forUnknown).toEqual(forKnown);
  });

  it('works until the last millisecond of its 5 minutes and not at 5:00', async () => {
    const phone = newPhone();
    await sendCode(ctx(t0, { ip: newIp() }), phone);
    const code = lastCode(phone);
    await expectAppError(verifyCode(ctx(at(AUTH_LIMITS.codeTtlMs)), phone, code), 400, /^This code has expired/);
    await expect(verifyCode(ctx(at(AUTH_LIMITS.codeTtlMs - 1)), phone, code)).resolves.toBeUndefined();
  });

  it('is single use', async () => {
    const phone = newPhone();
    await sendCode(ctx(t0, { ip: newIp() }), phone);
    const code = lastCode(phone);
    await verifyCode(ctx(at(1000)), phone, code);
    await expectAppError(verifyCode(ctx(at(2000)), phone, code), 400, /^This code has expired or was never sent/);
  });

  it('counts wrong tries and burns the code on the fifth', async () => {
    const phone = newPhone();
    await sendCode(ctx(t0, { ip: newIp() }), phone);
    const code = lastCode(phone);
    for (let left = 4; left >= 1; left--) {
      await expectAppError(verifyCode(ctx(at(1000)), phone, wrong(code)), 400, new RegExp(`^The code is wrong\\. You have ${left} tr`));
    }
    await expectAppError(verifyCode(ctx(at(1000)), phone, wrong(code)), 400, /^The code was wrong 5 times and no longer works/);
    // The right code does not help any more.
    await expectAppError(verifyCode(ctx(at(2000)), phone, code), 400, /^This code has expired or was never sent/);
  });

  it('only works on the channel that sent it', async () => {
    const phone = newPhone();
    await sendCode(ctx(t0, { ip: newIp() }), phone);
    await expectAppError(verifyCode({ ...ctx(at(1000)), channelId: lumen }, phone, lastCode(phone)), 400, { field: 'code' });
  });

  it('lets only the newest code work', async () => {
    const phone = newPhone();
    await sendCode(ctx(t0, { ip: newIp() }), phone);
    const first = lastCode(phone);
    await sendCode(ctx(at(AUTH_LIMITS.phoneCooldownMs), { ip: newIp() }), phone);
    const second = lastCode(phone);
    if (first !== second)
      await expectAppError(verifyCode(ctx(at(AUTH_LIMITS.phoneCooldownMs + 1)), phone, first), 400, /^The code is wrong/);
    await expect(verifyCode(ctx(at(AUTH_LIMITS.phoneCooldownMs + 2)), phone, second)).resolves.toBeUndefined();
  });
});

describe('SMS rate limits (security review, finding 4)', () => {
  it('allows one code per phone per 60 s', async () => {
    const phone = newPhone();
    await sendCode(ctx(t0, { ip: newIp() }), phone);
    await expectAppError(
      sendCode(ctx(at(59_999), { ip: newIp() }), phone),
      429,
      /^A code was sent to this number a moment ago\. You can ask for another in 1 second\./,
    );
    await expect(sendCode(ctx(at(60_000), { ip: newIp() }), phone)).resolves.toBeDefined();
  });

  it('backs a flooded phone off, doubling up to 30 minutes, and never locks it for the day', async () => {
    const phone = newPhone();
    let now = 0;
    const waits: number[] = [];
    // Twenty codes, each as soon as allowed: what a flood of a victim's number can do in a day.
    for (let i = 0; i < 20; i++) {
      const answer = await sendCode(ctx(at(now), { ip: newIp() }), phone);
      waits.push(answer.cooldownSeconds);
      // One millisecond early is refused, on time is not.
      await expectAppError(sendCode(ctx(at(now + answer.cooldownSeconds * 1000 - 1), { ip: newIp() }), phone), 429, { field: 'phone' });
      now += answer.cooldownSeconds * 1000;
    }
    expect(waits.slice(0, 7)).toEqual([60, 60, 120, 240, 480, 960, 1800]);
    expect(Math.max(...waits)).toBe(AUTH_LIMITS.phoneMaxWaitMs / 1000);
    // Well within the day, the victim still gets a code.
    expect(now).toBeLessThan(12 * 3600_000);
    await expect(sendCode(ctx(at(now), { ip: newIp() }), phone)).resolves.toBeDefined();
    expect(phoneWaitMs(1000)).toBe(AUTH_LIMITS.phoneMaxWaitMs);
  });

  it('limits codes per IP per minute and per hour, whatever the phones, before any phone is touched', async () => {
    const ip = newIp();
    for (let i = 0; i < AUTH_LIMITS.ipPerMinute; i++) await sendCode(ctx(t0, { ip }), newPhone());
    const victim = newPhone();
    await expectAppError(sendCode(ctx(at(1000), { ip }), victim), 429, /from this network or device/);
    // The refusal cost the victim's phone nothing: it gets its code from elsewhere at once.
    await expect(sendCode(ctx(at(1000), { ip: newIp() }), victim)).resolves.toBeDefined();

    let now = 60_000;
    for (let sentThisHour = AUTH_LIMITS.ipPerMinute; sentThisHour < AUTH_LIMITS.ipPerHour; sentThisHour++) {
      await sendCode(ctx(at(now), { ip }), newPhone());
      if ((sentThisHour + 1) % AUTH_LIMITS.ipPerMinute === 0) now += 60_000;
    }
    await expectAppError(sendCode(ctx(at(now + 60_000), { ip }), newPhone()), 429, /from this network or device\. Please try again in/);
    await expect(sendCode(ctx(at(3600_000 + 60_000), { ip }), newPhone())).resolves.toBeDefined();
  });

  it('limits codes per device, even from fresh addresses', async () => {
    const deviceId = 'device-under-test-0000001';
    for (let i = 0; i < AUTH_LIMITS.devicePerHour; i++) await sendCode(ctx(t0, { ip: newIp(), deviceId }), newPhone());
    await expectAppError(sendCode(ctx(at(1000), { ip: newIp(), deviceId }), newPhone()), 429, /from this network or device/);
    await expect(sendCode(ctx(at(1000), { ip: newIp(), deviceId: 'another-device-000000001' }), newPhone())).resolves.toBeDefined();
  });

  it('counts concurrent requests from one IP atomically (finding 10: 45 at once, 30 allowed → 30 sent)', async () => {
    const ip = newIp();
    const before = sent.length;
    const results = await Promise.allSettled(
      Array.from({ length: 45 }, () =>
        sendCode(
          ctx(at(5000), {
            ip,
            addressLimits: { ...DEFAULT_ADDRESS_LIMITS, perMinute: 30, perHour: 30, networkPerMinute: 30, networkPerHour: 30 },
          }),
          newPhone(),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(30);
    expect(sent.length - before).toBe(30);
  });

  it('limits codes per channel per hour and alerts the operator at 80%', async () => {
    const { db: own, close: closeOwn } = await createTestDb();
    const alerts = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await seed(own, t0);
      const [row] = await own.select({ id: channels.id }).from(channels).where(eq(channels.key, 'GIFT'));
      const gift = row!.id;
      const hour = new Date(Math.floor(t0.getTime() / 3600_000) * 3600_000);
      const budget = (hits: number) =>
        own
          .insert(rateLimits)
          .values({ bucket: `sms:channel:${gift}`, windowStart: hour, hits, expiresAt: new Date(hour.getTime() + 3600_000) })
          .onConflictDoUpdate({ target: [rateLimits.bucket, rateLimits.windowStart], set: { hits } });
      // One short of 80%: the next code crosses it and the operator hears of it once.
      await budget(Math.ceil(AUTH_LIMITS.channelPerHour * AUTH_LIMITS.channelAlertShare) - 1);
      await sendCode({ db: own, now: t0, channelId: gift, ip: '10.3.0.1', secret, sms: recorder }, '13600000002');
      expect(alerts.mock.calls.map((c) => String(c[0])).filter((m) => m.startsWith('[alert]'))).toEqual([
        `[alert] channel ${gift} used ${Math.ceil(AUTH_LIMITS.channelPerHour * AUTH_LIMITS.channelAlertShare)} of its ${AUTH_LIMITS.channelPerHour} SMS codes this hour`,
      ]);
      // The budget used up: refused (and alerted), another channel is not affected.
      await budget(AUTH_LIMITS.channelPerHour);
      await expectAppError(
        sendCode({ db: own, now: t0, channelId: gift, ip: '10.3.0.1', secret, sms: recorder }, '13600000000'),
        429,
        /This store is sending too many codes/,
      );
      await expect(
        sendCode({ db: own, now: t0, channelId: lumen, ip: '10.3.0.2', secret, sms: recorder }, '13600000001'),
      ).resolves.toBeDefined();
      // A refused code does not count against the budget.
      const [after] = await own
        .select()
        .from(rateLimits)
        .where(eq(rateLimits.bucket, `sms:channel:${gift}`));
      expect(after!.hits).toBe(AUTH_LIMITS.channelPerHour);
    } finally {
      alerts.mockRestore();
      await closeOwn();
    }
  });

  it('limits wrong login codes per IP, across phones, and gives right ones back', async () => {
    const ip = newIp();
    const phones = Array.from({ length: 7 }, () => newPhone());
    for (const phone of phones) await sendCode(ctx(t0, { ip: newIp() }), phone);
    // A right code does not count.
    await verifyCode({ ...ctx(at(1000)), ip }, phones[6]!, lastCode(phones[6]!));
    let tries = 0;
    for (const phone of phones.slice(0, 6)) {
      for (let i = 0; i < 5 && tries < AUTH_LIMITS.wrongCodesPerIpPerHour; i++, tries++) {
        await verifyCode({ ...ctx(at(1000)), ip }, phone, wrong(lastCode(phone))).catch(() => undefined);
      }
    }
    expect(tries).toBe(AUTH_LIMITS.wrongCodesPerIpPerHour);
    await expectAppError(
      verifyCode({ ...ctx(at(2000)), ip }, phones[5]!, lastCode(phones[5]!)),
      429,
      /^Too many wrong codes from this network/,
    );
  });

  it('never sends a text when refused', async () => {
    const phone = newPhone();
    await sendCode(ctx(t0, { ip: newIp() }), phone);
    const before = sent.length;
    await sendCode(ctx(at(1000), { ip: newIp() }), phone).catch(() => undefined);
    expect(sent.length).toBe(before);
  });
});

describe('one client, many addresses (issue 29)', () => {
  it('counts the addresses of one IPv6 /64 as one client', async () => {
    // An attacker's /64 holds 2^64 addresses: each request from a fresh one.
    for (let i = 1; i <= AUTH_LIMITS.ipPerMinute; i++) await sendCode(ctx(t0, { ip: `2001:db8:64:1::${i.toString(16)}` }), newPhone());
    await expectAppError(
      sendCode(ctx(at(1000), { ip: '2001:db8:64:1:ffff:ffff:ffff:fff0' }), newPhone()),
      429,
      /^Too many codes were asked for from this network or device\. Please try again in 59 seconds/,
    );
    // The next /64 is another client.
    await expect(sendCode(ctx(at(1000), { ip: '2001:db8:64:2::1' }), newPhone())).resolves.toBeDefined();
  });

  it('counts one address once however it is spelt', async () => {
    // A network allowance out of the way, so the address's own limit is what refuses.
    const addressLimits = { ...DEFAULT_ADDRESS_LIMITS, networkPerMinute: 100, networkPerHour: 100, ipv4NetworkPrefix: 24 };
    const spellings = [
      '2001:db8:65::7',
      '2001:0DB8:0065:0000:0000:0000:0000:0007',
      '2001:db8:65:0::7',
      '2001:db8:65:0:0:0:0:7',
      '[2001:db8:65::7]',
    ];
    for (const ip of spellings) await sendCode(ctx(t0, { ip, addressLimits }), newPhone());
    await expectAppError(
      sendCode(ctx(at(1000), { ip: '2001:db8:65::0:7', addressLimits }), newPhone()),
      429,
      /from this network or device/,
    );

    const v4 = ['10.66.0.1', '::ffff:10.66.0.1', '::FFFF:10.66.0.1', '0:0:0:0:0:ffff:a42:1', '10.66.0.1:51234'];
    for (const ip of v4) await sendCode(ctx(t0, { ip, addressLimits }), newPhone());
    await expectAppError(sendCode(ctx(at(1000), { ip: '10.66.0.1', addressLimits }), newPhone()), 429, /from this network or device/);
  });

  it('groups IPv4 addresses by the configured prefix, and still limits each address on its own', async () => {
    const addressLimits = { ...DEFAULT_ADDRESS_LIMITS, networkPerMinute: 8, networkPerHour: 100, ipv4NetworkPrefix: 24 };
    // One address: its own 5 per minute, though its network may ask for 8.
    for (let i = 0; i < AUTH_LIMITS.ipPerMinute; i++) await sendCode(ctx(t0, { ip: '10.67.1.1', addressLimits }), newPhone());
    await expectAppError(sendCode(ctx(at(1000), { ip: '10.67.1.1', addressLimits }), newPhone()), 429, /from this network or device/);
    // Its neighbours share the network's 8.
    for (const host of [2, 3, 4]) await sendCode(ctx(at(1000), { ip: `10.67.1.${host}`, addressLimits }), newPhone());
    await expectAppError(sendCode(ctx(at(1000), { ip: '10.67.1.200', addressLimits }), newPhone()), 429, /from this network or device/);
    await expect(sendCode(ctx(at(1000), { ip: '10.67.2.1', addressLimits }), newPhone())).resolves.toBeDefined();
    // By default (prefix 32) IPv4 neighbours are separate clients: mainland carriers put many phones behind a few addresses.
    for (let i = 0; i < AUTH_LIMITS.ipPerMinute; i++) await sendCode(ctx(t0, { ip: '10.68.1.1' }), newPhone());
    await expect(sendCode(ctx(t0, { ip: '10.68.1.2' }), newPhone())).resolves.toBeDefined();
  });

  it('counts concurrent requests from many addresses of one /64 atomically (45 at once, 30 an hour → 30 sent)', async () => {
    const before = sent.length;
    const addressLimits = { ...DEFAULT_ADDRESS_LIMITS, perMinute: 30, networkPerMinute: 30 };
    const results = await Promise.allSettled(
      Array.from({ length: 45 }, (_, i) => sendCode(ctx(at(5000), { ip: `2001:db8:66:0:${i + 1}::1`, addressLimits }), newPhone())),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(AUTH_LIMITS.ipPerHour);
    expect(sent.length - before).toBe(AUTH_LIMITS.ipPerHour);
  });

  it('limits wrong login codes per /64, across its addresses', async () => {
    const phones = Array.from({ length: 7 }, () => newPhone());
    for (const phone of phones) await sendCode(ctx(t0, { ip: newIp() }), phone);
    let tries = 0;
    for (const phone of phones.slice(0, 6)) {
      for (let i = 0; i < 5 && tries < AUTH_LIMITS.wrongCodesPerIpPerHour; i++, tries++) {
        const ip = `2001:db8:67::${(tries + 1).toString(16)}`;
        await expectAppError(verifyCode({ ...ctx(at(1000)), ip }, phone, wrong(lastCode(phone))), 400, { field: 'code' });
      }
    }
    await expectAppError(
      verifyCode({ ...ctx(at(2000)), ip: '2001:db8:67::ffff' }, phones[6]!, lastCode(phones[6]!)),
      429,
      /^Too many wrong codes from this network/,
    );
    // Another network logs in with that code.
    await expect(verifyCode({ ...ctx(at(2000)), ip: '2001:db8:68::1' }, phones[6]!, lastCode(phones[6]!))).resolves.toBeUndefined();
  });
});

describe('the per-phone wait on each channel (issue 29)', () => {
  it("does not hold a phone's code on one channel because of its codes on another", async () => {
    const phone = newPhone();
    for (let i = 0; i < 3; i++) await sendCode(ctx(at(i * 3600_000), { ip: newIp() }), phone);
    // On AURORA the phone now waits (the backoff); LUMEN has sent it nothing yet: a code at once, with the first wait.
    await expectAppError(sendCode(ctx(at(2 * 3600_000 + 1000), { ip: newIp() }), phone), 429, { field: 'phone' });
    const onLumen = await sendCode(ctx(at(2 * 3600_000 + 1000), { ip: newIp(), channelId: lumen }), phone);
    expect(onLumen.cooldownSeconds).toBe(AUTH_LIMITS.phoneCooldownMs / 1000);
    await expect(verifyCode({ ...ctx(at(2 * 3600_000 + 2000)), channelId: lumen }, phone, lastCode(phone))).resolves.toBeUndefined();
    // And LUMEN's code does not add to AURORA's wait: its next code is the third one's backoff (2 min after it), not more.
    await expect(sendCode(ctx(at(2 * 3600_000 + 2 * AUTH_LIMITS.phoneCooldownMs), { ip: newIp() }), phone)).resolves.toBeDefined();
  });
});

describe("a channel's SMS budget spent (issue 29)", () => {
  /** Its own database: the budget is per channel and hour, and this test spends it. */
  let own: Awaited<ReturnType<typeof createTestDb>>;
  let gift: number;
  let otherChannel: number;
  const hour = new Date(Math.floor(t0.getTime() / 3600_000) * 3600_000);
  beforeAll(async () => {
    own = await createTestDb();
    await seed(own.db, t0);
    const rows = await own.db.select({ id: channels.id, key: channels.key }).from(channels);
    gift = rows.find((r) => r.key === 'GIFT')!.id;
    otherChannel = rows.find((r) => r.key === 'LUMEN')!.id;
  });
  afterAll(() => own.close());

  const spend = (bucket: string, hits: number) =>
    own.db
      .insert(rateLimits)
      .values({ bucket, windowStart: hour, hits, expiresAt: new Date(hour.getTime() + 3600_000) })
      .onConflictDoUpdate({ target: [rateLimits.bucket, rateLimits.windowStart], set: { hits } });
  const on = (channelId: number, now: Date, over: Partial<CodeCtx> = {}): CodeCtx => ({
    db: own.db,
    now,
    channelId,
    ip: newIp(),
    secret,
    sms: recorder,
    ...over,
  });

  it('still sends codes to buyers whose device or phone logged in on the channel, refuses new numbers, and alerts once', async () => {
    const alerts = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      // Before the flood: a buyer logs in on GIFT from their phone's browser (device cookie D).
      const device = 'returning-buyer-device-0001';
      const buyer = '13611110001';
      await sendCode(on(gift, t0, { deviceId: device }), buyer);
      await loginWithCode({ ...on(gift, at(1000)), deviceId: device }, { phone: buyer, code: lastCode(buyer) });
      // A buyer who logged in on GIFT from an app (no cookie): known by the phone.
      const appBuyer = '13611110002';
      const { id: appUser } = await findOrCreateUser(own.db, appBuyer, t0);
      await createSession(own.db, { userId: appUser, channelId: gift, now: t0, ip: null });
      // Known elsewhere only: a phone and a device that logged in on LUMEN.
      const lumenBuyer = '13611110003';
      const lumenDevice = 'lumen-buyer-device-000001';
      await sendCode(on(otherChannel, t0, { deviceId: lumenDevice }), lumenBuyer);
      await loginWithCode({ ...on(otherChannel, at(1000)), deviceId: lumenDevice }, { phone: lumenBuyer, code: lastCode(lumenBuyer) });

      // A flood of made-up numbers spends GIFT's budget for new numbers.
      await spend(`sms:channel:${gift}`, AUTH_LIMITS.channelPerHour);
      const later = at(2 * AUTH_LIMITS.phoneCooldownMs);
      await expectAppError(
        sendCode(on(gift, later, { deviceId: 'new-device-000000000000001' }), newPhone()),
        429,
        /This store is sending too many codes/,
      );
      await expectAppError(sendCode(on(gift, later), newPhone()), 429, /This store is sending too many codes/);
      await expectAppError(sendCode(on(gift, later, { deviceId: lumenDevice }), lumenBuyer), 429, /This store is sending too many codes/);

      // The returning buyer's browser gets a code, for their own number or a new one (a second SIM); their phone
      // does from another browser; the app buyer's phone does.
      await expect(sendCode(on(gift, later, { deviceId: device }), buyer)).resolves.toMatchObject({ cooldownSeconds: 60 });
      await expect(
        loginWithCode(
          { ...on(gift, at(2 * AUTH_LIMITS.phoneCooldownMs + 1000)), deviceId: device },
          { phone: buyer, code: lastCode(buyer) },
        ),
      ).resolves.toMatchObject({ newUser: false });
      const secondSim = newPhone();
      await expect(sendCode(on(gift, later, { deviceId: device }), secondSim)).resolves.toBeDefined();
      await expect(
        sendCode(on(gift, at(4 * AUTH_LIMITS.phoneCooldownMs), { deviceId: 'another-browser-000000001' }), buyer),
      ).resolves.toBeDefined();
      await expect(sendCode(on(gift, later), appBuyer)).resolves.toBeDefined();
      // Within their own limits: the phone's wait still holds.
      await expectAppError(sendCode(on(gift, at(4 * AUTH_LIMITS.phoneCooldownMs + 1000), { deviceId: device }), buyer), 429, {
        field: 'phone',
      });

      // The operator hears of it once this hour, however many were refused.
      const lines = alerts.mock.calls.map((c) => String(c[0])).filter((m) => m.startsWith('[alert]'));
      expect(lines).toEqual([
        `[alert] channel ${gift} used its SMS budget of ${AUTH_LIMITS.channelPerHour} codes this hour; until ${new Date(hour.getTime() + 3600_000).toISOString()} only buyers whose device or phone logged in on it before get codes (up to ${AUTH_LIMITS.knownBuyersPerHour} more), new numbers are refused`,
      ]);
      // And once in the console's alerts (issue 32), for the webhook.
      const raised = await own.db.select().from(alerts_).where(eq(alerts_.channelId, gift));
      expect(raised.map((a) => [a.kind, a.subject])).toEqual([['smsBudget', `sms-budget:${gift}`]]);
      // The budget for new numbers stays spent, not overspent: known buyers' codes count in their own allowance.
      const [budget] = await own.db
        .select()
        .from(rateLimits)
        .where(eq(rateLimits.bucket, `sms:channel:${gift}`));
      expect(budget!.hits).toBe(AUTH_LIMITS.channelPerHour);
      const [known] = await own.db
        .select()
        .from(rateLimits)
        .where(eq(rateLimits.bucket, `sms:channel-known:${gift}`));
      expect(known!.hits).toBe(4);

      // Their allowance has an end too (the SMS bill is at most twice the budget): then everyone is refused, and alerted.
      await spend(`sms:channel-known:${gift}`, AUTH_LIMITS.knownBuyersPerHour);
      await expectAppError(sendCode(on(gift, at(20 * AUTH_LIMITS.phoneCooldownMs)), appBuyer), 429, /This store is sending too many codes/);
      expect(
        alerts.mock.calls
          .map((c) => String(c[0]))
          .filter((m) => m.startsWith('[alert]'))
          .slice(1),
      ).toEqual([
        `[alert] channel ${gift} also used its ${AUTH_LIMITS.knownBuyersPerHour} SMS codes for buyers who logged in before this hour; every code is refused until ${new Date(hour.getTime() + 3600_000).toISOString()}`,
      ]);
    } finally {
      alerts.mockRestore();
    }
  });

  it('forgets a device RETENTION.loginDeviceDays after its last login on the channel', async () => {
    const device = 'forgotten-device-00000001';
    const phone = '13611110009';
    // Another hour: the budget spent above is not this test's business.
    const loginAt = at(3 * 3600_000);
    await sendCode(on(gift, loginAt, { deviceId: device }), phone);
    await loginWithCode({ ...on(gift, loginAt), deviceId: device }, { phone, code: lastCode(phone) });
    const remembered = async () =>
      (await own.db.select({ hash: channelLoginDevices.deviceHash }).from(channelLoginDevices)).map((r) => r.hash);
    // Kept as a hash, never as the cookie's value.
    expect(await remembered()).toContain(deviceHash(device));
    expect(await remembered()).not.toContain(device);
    const days = RETENTION.loginDeviceDays * 24 * 3600_000;
    await sweepExpiredRecords(own.db, new Date(loginAt.getTime() + days));
    expect(await remembered()).toContain(deviceHash(device));
    await sweepExpiredRecords(own.db, new Date(loginAt.getTime() + days + 1));
    expect(await remembered()).not.toContain(deviceHash(device));
  });
});

describe('a text the carrier refused (issue 18)', () => {
  /** A carrier that refuses every text, as a real one does when its limit for the number is reached. */
  const refusing: SmsProvider = {
    name: 'refusing',
    showsCodes: false,
    async send() {
      throw new AppError(429, msg('smsCarrierPhoneLimit'));
    },
  };

  it('answers with the refusal and does not start the wait: the buyer may ask again at once', async () => {
    const phone = newPhone();
    await expectAppError(sendCode(ctx(t0, { ip: newIp(), sms: refusing }), phone), 429, /^Too many codes were sent to this number today/);
    expect(await db.select().from(smsCodes).where(eq(smsCodes.phone, phone))).toHaveLength(0);
    const answer = await sendCode(ctx(at(1000), { ip: newIp() }), phone);
    expect(answer.cooldownSeconds).toBe(60);
    await expect(verifyCode(ctx(at(2000)), phone, lastCode(phone))).resolves.toBeUndefined();
  });

  it('leaves the code sent before it working, and the wait counted from that one', async () => {
    const phone = newPhone();
    await sendCode(ctx(t0, { ip: newIp() }), phone);
    const first = lastCode(phone);
    const later = at(AUTH_LIMITS.phoneCooldownMs);
    await expectAppError(sendCode(ctx(later, { ip: newIp(), sms: refusing }), phone), 429, { field: 'phone' });
    await expect(verifyCode(ctx(at(AUTH_LIMITS.phoneCooldownMs + 1000)), phone, first)).resolves.toBeUndefined();
    // One code sent, not two: the next wait is still the first 60 s, not the backoff.
    const again = await sendCode(ctx(at(AUTH_LIMITS.phoneCooldownMs + 2000), { ip: newIp() }), phone);
    expect(again.cooldownSeconds).toBe(60);
  });
});

describe('login and sessions', () => {
  it('signs up on the first login, logs in on the next, with a live token of this channel only', async () => {
    const phone = newPhone();
    await sendCode(ctx(t0, { ip: newIp() }), phone);
    const first = await loginWithCode({ ...ctx(at(1000)) }, { phone, code: lastCode(phone) });
    expect(first).toMatchObject({ newUser: true, phone: `${phone.slice(0, 3)}****${phone.slice(-4)}` });
    expect(first.token.length).toBeGreaterThanOrEqual(43);

    await sendCode(ctx(at(AUTH_LIMITS.phoneCooldownMs), { ip: newIp() }), phone);
    const second = await loginWithCode({ ...ctx(at(AUTH_LIMITS.phoneCooldownMs + 1000)) }, { phone, code: lastCode(phone) });
    expect(second).toMatchObject({ newUser: false, userUuid: first.userUuid });
    expect(second.token).not.toBe(first.token);

    const user = await resolveToken(db, { token: first.token, channelId: aurora, now: at(2000) });
    expect(user?.uuid).toBe(first.userUuid);
    expect(await resolveToken(db, { token: first.token, channelId: lumen, now: at(2000) })).toBeNull();
  });

  it('expires tokens after the session lifetime', async () => {
    const phone = newPhone();
    await sendCode(ctx(t0, { ip: newIp() }), phone);
    const { token } = await loginWithCode(ctx(t0), { phone, code: lastCode(phone) });
    expect(await resolveToken(db, { token, channelId: aurora, now: at(AUTH_LIMITS.sessionTtlMs - 1) })).not.toBeNull();
    expect(await resolveToken(db, { token, channelId: aurora, now: at(AUTH_LIMITS.sessionTtlMs) })).toBeNull();
  });

  it('refuses a token revoked at logout, and leaves the other sessions alone', async () => {
    const phone = newPhone();
    await sendCode(ctx(t0, { ip: newIp() }), phone);
    const phoneA = await loginWithCode(ctx(t0), { phone, code: lastCode(phone) });
    await sendCode(ctx(at(AUTH_LIMITS.phoneCooldownMs), { ip: newIp() }), phone);
    const phoneB = await loginWithCode(ctx(at(AUTH_LIMITS.phoneCooldownMs)), { phone, code: lastCode(phone) });

    expect(await revokeToken(db, { token: phoneA.token, now: at(AUTH_LIMITS.phoneCooldownMs + 1) })).toBe(true);
    expect(await resolveToken(db, { token: phoneA.token, channelId: aurora, now: at(AUTH_LIMITS.phoneCooldownMs + 2) })).toBeNull();
    expect(await resolveToken(db, { token: phoneB.token, channelId: aurora, now: at(AUTH_LIMITS.phoneCooldownMs + 2) })).not.toBeNull();
    expect(await revokeToken(db, { token: phoneA.token, now: at(AUTH_LIMITS.phoneCooldownMs + 3) })).toBe(false);
  });

  it('gives one account to concurrent first logins of the same phone', async () => {
    const phone = newPhone();
    await sendCode(ctx(t0, { ip: newIp() }), phone);
    const code = lastCode(phone);
    const results = await Promise.allSettled([loginWithCode(ctx(at(1)), { phone, code }), loginWithCode(ctx(at(1)), { phone, code })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await db.select().from(users).where(eq(users.phone, phone))).toHaveLength(1);
  });
});
