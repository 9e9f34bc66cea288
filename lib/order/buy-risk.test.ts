import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { apiCall } from '@/test/api';
import { makeSale, stockLeft } from '@/test/buying';
import { createSession } from '@/lib/auth/sessions';
import { createChallenge, answerChallenge } from '@/lib/auth/captcha';
import type { TextChallenge } from '@/lib/auth/schema';
import { solvePow } from '@/lib/client/proof-of-work';
import { buyerBlocks, channels, smsCodes, users } from '@/lib/db/schema';
import { parseAddress } from '@/lib/security/address';
import { BUY_RISK, rangeHolds, rangeNearby, readBuyRiskSignals, scoreBuyRisk } from './buy-risk';

// The captcha at the buy tap (issue 33): who is asked, and that a ticket lets the same buy through once.

// Not shedding by event-loop lag here (the proof of work keeps this process busy); it has its own test
// (lib/server/load-shedding.test.ts).
process.env.BUY_MAX_LAG_MS = '60000';

const now = new Date('2026-11-22T08:00:00Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);
const db = seededTestDb(now);

let aurora: number;
let lumen: number;
/** The server log, kept out of the test output. */
let log: jest.SpyInstance;
beforeAll(async () => {
  log = jest.spyOn(console, 'info').mockImplementation(() => {});
  aurora = (await db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'AURORA')))[0]!.id;
  lumen = (await db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'LUMEN')))[0]!.id;
  // LUMEN's operator turned the captcha at the buy tap off.
  await db
    .update(channels)
    .set({ riskPolicy: { captcha: false }, identityPolicy: {} }) // LUMEN is the demo's real-name store: here only its captcha matters
    .where(eq(channels.id, lumen));
});

let phoneSeq = 0;
/** A buyer whose account was made at `createdAt`, logged in on the channel. */
async function buyer(createdAt: Date, channelId = aurora): Promise<{ userId: number; phone: string; token: string }> {
  phoneSeq++;
  const phone = `1390000${String(phoneSeq).padStart(4, '0')}`;
  const [row] = await db
    .insert(users)
    .values({ uuid: `risk-${phoneSeq}`, phone, createdAt })
    .returning({ id: users.id });
  const { token } = await createSession(db, { userId: row!.id, channelId, now, ip: null });
  return { userId: row!.id, phone, token };
}

/** `n` distinct phones asked login codes from `ip` at `at`. */
async function codesFrom(ip: string, n: number, at = hoursAgo(2)): Promise<void> {
  await db.insert(smsCodes).values(
    Array.from({ length: n }, (_, i) => ({
      channelId: aurora,
      phone: `1370000${ip.replace(/\D/g, '').slice(-3)}${i}`,
      codeHash: 'x',
      ip,
      createdAt: at,
      expiresAt: new Date(at.getTime() + 300_000),
    })),
  );
}

/** A ticket from the existing captcha (its question in words, with its proof of work), as the store gets one. */
async function ticket(channelId = aurora): Promise<string> {
  const ctx = { db, now, channelId, secret: 'buy-risk-test-secret-buy-risk-test-secret-0' };
  const challenge = (await createChallenge(ctx, 'text')) as TextChallenge;
  const pow = await solvePow(challenge.pow, { sliceMs: 1000 });
  return (await answerChallenge(ctx, { id: challenge.id, pow: pow!, answer: challenge.question.a + challenge.question.b })).ticket;
}

const buy = (token: string, ip: string, body: Record<string, unknown>, host?: string) =>
  apiCall(db, '/market/api/order/create', body, { token, ip, now, host });

describe('scoreBuyRisk', () => {
  const quiet = { newAccount: false, accountsAtAddress: 0, blockedRangeNearby: false };

  it('asks nobody on a quiet address', () => {
    expect(scoreBuyRisk(quiet)).toEqual({ captcha: false, signals: [] });
  });

  it('does not ask a new account on its own (every buyer is new at their first buy)', () => {
    expect(scoreBuyRisk({ ...quiet, newAccount: true })).toEqual({ captcha: false, signals: ['newAccount'] });
  });

  it('asks from a crowded address, from the threshold on', () => {
    expect(scoreBuyRisk({ ...quiet, accountsAtAddress: BUY_RISK.accountsPerAddress - 1 }).captcha).toBe(false);
    expect(scoreBuyRisk({ ...quiet, accountsAtAddress: BUY_RISK.accountsPerAddress })).toEqual({
      captcha: true,
      signals: ['crowdedAddress'],
    });
  });

  it('asks near a blocked range, and names every signal found', () => {
    expect(scoreBuyRisk({ ...quiet, blockedRangeNearby: true }).captcha).toBe(true);
    expect(scoreBuyRisk({ newAccount: true, accountsAtAddress: 9, blockedRangeNearby: true }).signals).toEqual([
      'newAccount',
      'crowdedAddress',
      'blockedRangeNearby',
    ]);
  });
});

describe('rangeNearby', () => {
  const v4 = parseAddress('203.0.113.7')!;
  const v6 = parseAddress('2001:db8:1234:5::9')!;

  it('finds a blocked range within the caller’s /16 (IPv4) or /48 (IPv6), and a wider one holding it', () => {
    expect(rangeNearby(v4, '203.0.200.0/24')).toBe(true);
    expect(rangeNearby(v4, '203.0.113.9')).toBe(true);
    expect(rangeNearby(v4, '203.0.0.0/8')).toBe(true);
    expect(rangeNearby(v6, '2001:db8:1234:ffff::/64')).toBe(true);
  });

  it('tells a range holding the caller from one beside it', () => {
    expect(rangeHolds(v4, '203.0.113.0/24')).toBe(true);
    expect(rangeHolds(v4, '203.0.113.7')).toBe(true);
    expect(rangeHolds(v4, '203.0.200.0/24')).toBe(false);
    expect(rangeHolds(v6, '2001:db8:1234::/48')).toBe(true);
    expect(rangeHolds(v4, '2001:db8::/32')).toBe(false);
  });

  it('ignores other networks, the other family and values that are not ranges', () => {
    expect(rangeNearby(v4, '203.1.113.0/24')).toBe(false);
    expect(rangeNearby(v6, '2001:db8:1235::/48')).toBe(false);
    expect(rangeNearby(v4, '2001:db8::/32')).toBe(false);
    expect(rangeNearby(v4, 'not a range')).toBe(false);
    expect(rangeNearby(v4, '203.0.113.0/33')).toBe(false);
    expect(rangeNearby(v4, '203.0.113.0/24/1')).toBe(false);
  });
});

describe('readBuyRiskSignals', () => {
  it('counts distinct phones at the address within 24 hours, and live address-range blocks of this channel', async () => {
    await codesFrom('198.51.100.20', 3);
    await codesFrom('198.51.100.20', 3, hoursAgo(30)); // older than the window
    await db.insert(buyerBlocks).values([
      { kind: 'cidr', value: '198.51.7.0/24', channelId: lumen, reason: 'farm', blockedAt: hoursAgo(1) }, // another channel's
      { kind: 'cidr', value: '198.51.9.0/24', channelId: aurora, reason: 'farm', blockedAt: hoursAgo(3), liftedAt: hoursAgo(2) },
    ]);
    const read = (ip: string, channelId = aurora) => readBuyRiskSignals(db, { channelId, accountCreatedAt: hoursAgo(0.5), ip, now });
    expect(await read('198.51.100.20')).toEqual({ newAccount: true, accountsAtAddress: 3, blockedRangeNearby: false });
    expect((await read('198.51.100.20', lumen)).blockedRangeNearby).toBe(true);
    expect(await read('unknown')).toEqual({ newAccount: true, accountsAtAddress: 0, blockedRangeNearby: false });
  });
});

describe('order/create on a channel with the captcha on', () => {
  it('answers a higher-risk buy 1013 captchaRequired; with a ticket the same buy goes through, and the ticket is spent', async () => {
    const sale = await makeSale(db, { code: 'risk-crowd', amount: 5, limitPerUser: 5, now });
    const ip = '192.0.2.50';
    await codesFrom(ip, BUY_RISK.accountsPerAddress);
    const b = await buyer(hoursAgo(0.1));
    const body = { saleId: String(sale.saleId), quantity: 1, idempotencyKey: 'risk-crowd-1' };

    log.mockClear();
    const asked = await buy(b.token, ip, body);
    expect(asked.body).toMatchObject({ code: 1013, data: { reason: 'captchaRequired' } });
    // The operator's log says why, never who.
    expect(log).toHaveBeenCalledWith('[buy risk] AURORA: captcha asked at the buy tap (newAccount, crowdedAddress)');
    expect(asked.message).toMatch(/security check/);
    expect(await stockLeft(db, sale.saleId)).toBe(5);

    const wrong = await buy(b.token, ip, { ...body, captchaTicket: 'made-up-ticket' });
    expect(wrong.body).toMatchObject({ code: 1013 });

    const pass = await ticket();
    const bought = await buy(b.token, ip, { ...body, captchaTicket: pass });
    expect(bought.body).toMatchObject({ code: 200, data: { quantity: 1, statusTrade: 0 } });
    expect(await stockLeft(db, sale.saleId)).toBe(4);

    // The same tap sent again (its payment did not open) is that order, without a second captcha.
    const retried = await buy(b.token, ip, body);
    expect(retried.body).toMatchObject({ code: 200, data: { orderNo: bought.body.data!.orderNo } });
    expect(await stockLeft(db, sale.saleId)).toBe(4);

    // The ticket passed once: a second buy with it is asked again, and nothing more is reserved.
    const again = await buy(b.token, ip, { ...body, idempotencyKey: 'risk-crowd-2', captchaTicket: pass });
    expect(again.body).toMatchObject({ code: 1013, data: { reason: 'captchaRequired' } });
    expect(await stockLeft(db, sale.saleId)).toBe(4);
  });

  it('asks a new account buying from near a blocked range', async () => {
    const sale = await makeSale(db, { code: 'risk-range', amount: 5, limitPerUser: 5, now });
    await db.insert(buyerBlocks).values({ kind: 'cidr', value: '100.64.3.0/24', channelId: null, reason: 'farm', blockedAt: hoursAgo(1) });
    const b = await buyer(hoursAgo(0.2));
    const answer = await buy(b.token, '100.64.250.1', { saleId: String(sale.saleId), idempotencyKey: 'risk-range-1' });
    expect(answer.body).toMatchObject({ code: 1013, data: { reason: 'captchaRequired' } });
  });

  it('answers a caller inside a blocked range with the block, not a captcha a solver could pass', async () => {
    const sale = await makeSale(db, { code: 'risk-inside', amount: 5, limitPerUser: 5, now });
    await db.insert(buyerBlocks).values({ kind: 'cidr', value: '100.65.3.0/24', channelId: null, reason: 'farm', blockedAt: hoursAgo(1) });
    const b = await buyer(hoursAgo(0.2));
    const answer = await buy(b.token, '100.65.3.9', { saleId: String(sale.saleId), idempotencyKey: 'risk-inside-1' });
    expect(answer.body).toMatchObject({ code: 403 });
    expect(await stockLeft(db, sale.saleId)).toBe(5);
  });

  it('never asks an old account from a quiet address, nor a new one, and leaves their ticket unspent', async () => {
    const sale = await makeSale(db, { code: 'risk-quiet', amount: 5, limitPerUser: 5, now });
    const old = await buyer(hoursAgo(24 * 90));
    const fresh = await buyer(hoursAgo(0.1));
    const pass = await ticket();
    expect(
      (await buy(old.token, '192.0.2.77', { saleId: String(sale.saleId), idempotencyKey: 'risk-quiet-1', captchaTicket: pass })).body,
    ).toMatchObject({
      code: 200,
    });
    expect((await buy(fresh.token, '192.0.2.78', { saleId: String(sale.saleId), idempotencyKey: 'risk-quiet-2' })).body).toMatchObject({
      code: 200,
    });
    // The ticket was not needed, so it is still good for a buy that needs one.
    await codesFrom('192.0.2.79', BUY_RISK.accountsPerAddress);
    expect(
      (await buy(fresh.token, '192.0.2.79', { saleId: String(sale.saleId), idempotencyKey: 'risk-quiet-3', captchaTicket: pass })).body,
    ).toMatchObject({ code: 200 });
  });

  it('refuses a ticket that is not a string, naming the field', async () => {
    const b = await buyer(hoursAgo(48));
    const answer = await buy(b.token, '192.0.2.90', { saleId: '1', idempotencyKey: 'risk-field-1', captchaTicket: 42 });
    expect(answer.body.code).toBe(400);
    expect(answer.message).toContain('captchaTicket: must be a string');
  });
});

describe('order/create on a channel with the captcha off', () => {
  it('never asks, however risky the buy looks', async () => {
    const sale = await makeSale(db, { channelKey: 'LUMEN', code: 'risk-off', amount: 5, limitPerUser: 5, now });
    const ip = '172.20.0.5';
    await codesFrom(ip, BUY_RISK.accountsPerAddress + 3);
    await db.insert(buyerBlocks).values({ kind: 'cidr', value: '172.20.9.0/24', channelId: null, reason: 'farm', blockedAt: hoursAgo(1) });
    const b = await buyer(hoursAgo(0.1), lumen);
    const answer = await buy(b.token, ip, { saleId: String(sale.saleId), idempotencyKey: 'risk-off-1' }, 'lumen.localhost:3000');
    expect(answer.body).toMatchObject({ code: 200 });
  });
});
