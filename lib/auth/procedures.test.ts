import { encode } from 'next-auth/jwt';
import { seededTestDb } from '@/test/db';
import { apiCall } from '@/test/api';
import { solvePow, type PowChallenge } from '@/lib/client/proof-of-work';
import { authSecret } from '../security/secret';
import { deviceHash } from '../security/device';
import { channelLoginDevices } from '../db/schema';

// The account calls end to end through the API dispatcher (spec §4, §7): captcha → code → login → profile → logout.

let clock = new Date('2026-11-22T08:00:00Z').getTime();
const tick = (ms = 1000) => new Date((clock += ms));

const db = seededTestDb(new Date(clock));
beforeAll(async () => {
  // The demo outbox logs every text; keep the test output for failures.
  jest.spyOn(console, 'info').mockImplementation(() => {});
});

/** The code each phone was last sent: the demo outbox hands it back to the caller of getAuthCode (finding 1). */
const demoCodes = new Map<string, string>();

async function call(path: string, body: unknown, options: { host?: string; headers?: Record<string, string>; ip?: string } = {}) {
  // A fresh address per call unless told: these tests are about the calls, not the per-IP limits (lib/auth/sms-codes.test.ts).
  const res = await apiCall(db, path, body, { ...options, now: tick() });
  const data = res.body.data as { demoCode?: string } | null;
  if (path === '/auth/api/auth/getAuthCode' && data?.demoCode)
    demoCodes.set((body as { phone: string }).phone.replace(/\D/g, ''), data.demoCode);
  return res;
}

async function ticket(host?: string): Promise<string> {
  const challenge = await call('/auth/api/captcha/challenge', { kind: 'text' }, { host });
  const { id, question, pow } = challenge.body.data as { id: string; question: { a: number; b: number }; pow: PowChallenge };
  // Every answer carries the solution of the challenge's proof of work (lib/auth/proof-of-work.ts), found as the browser finds it.
  const verified = await call('/auth/api/captcha/verify', { id, pow: await solvePow(pow), answer: question.a + question.b }, { host });
  return (verified.body.data as { ticket: string }).ticket;
}

/** The code the demo showed to whoever asked for it. */
async function outboxCode(phone: string): Promise<string> {
  const code = demoCodes.get(phone);
  if (!code) throw new Error(`no code was asked for ${phone}`);
  return code;
}

async function login(phone: string, host?: string): Promise<string> {
  const sent = await call('/auth/api/auth/getAuthCode', { phone }, { host, headers: { behaviorVerify: await ticket(host) } });
  expect(sent.body.code).toBe(200);
  const res = await call('/auth/api/auth/authCodeLoginV2', { phone, code: await outboxCode(phone) }, { host });
  expect(res.body.code).toBe(200);
  return res.headers.authorization!;
}

describe('account API', () => {
  it('logs in with the token in the authorization header and the masked phone in data (spec §4, §7)', async () => {
    const sent = await call('/auth/api/auth/getAuthCode', { phone: '138 0013 8000' }, { headers: { behaviorVerify: await ticket() } });
    expect(sent.body).toEqual({
      code: 200,
      message: 'ok',
      data: { cooldownSeconds: 60, expiresInSeconds: 300, demoCode: expect.stringMatching(/^\d{6}$/) },
    });
    expect(sent.headers['set-cookie']).toMatch(/^storefront_device=[A-Za-z0-9_-]{22}; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax$/);

    const res = await call('/auth/api/auth/authCodeLoginV2', { phone: '13800138000', code: await outboxCode('13800138000') });
    expect(res.body.code).toBe(200);
    expect(res.body.data).toMatchObject({ phone: '138****8000', newUser: true });
    expect(res.headers.authorization).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const token = res.headers.authorization!;
    const profile = await call('/market/api/userAttribute/queryByUserUuid', {}, { headers: { authorization: token } });
    expect(profile.body.data).toMatchObject({ phone: '138****8000', brandBound: false, userUuid: res.body.data!.userUuid });
    expect(JSON.stringify(profile.body)).not.toContain('13800138000');

    const bound = await call(
      '/user/api/thirdAccount/brandChannel',
      { brandName: 'Aurora Collectibles' },
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(bound.body.data).toEqual({ brandName: 'Aurora Collectibles', bound: true });
    const after = await call('/market/api/userAttribute/queryByUserUuid', {}, { headers: { authorization: token } });
    expect(after.body.data).toMatchObject({ brandBound: true });
  });

  it('remembers on the channel the device a buyer logged in from, as a hash (issue 29)', async () => {
    const sent = await call('/auth/api/auth/getAuthCode', { phone: '13800138029' }, { headers: { behaviorVerify: await ticket() } });
    const cookie = /^(storefront_device=([A-Za-z0-9_-]+));/.exec(sent.headers['set-cookie'] ?? '')!;
    const res = await call(
      '/auth/api/auth/authCodeLoginV2',
      { phone: '13800138029', code: await outboxCode('13800138029') },
      { headers: { cookie: cookie[1]! } },
    );
    expect(res.body.code).toBe(200);
    const remembered = await db.select().from(channelLoginDevices);
    expect(remembered.map((r) => r.deviceHash)).toContain(deviceHash(cookie[2]!));
    expect(JSON.stringify(remembered)).not.toContain(cookie[2]!);
  });

  it('needs a captcha ticket for a code, and spends it', async () => {
    const missing = await call('/auth/api/auth/getAuthCode', { phone: '13800138001' });
    expect(missing.body).toMatchObject({
      code: 400,
      message: 'Please complete the security check first.',
      data: { field: 'behaviorVerify' },
    });
    const t = await ticket();
    expect((await call('/auth/api/auth/getAuthCode', { phone: '13800138001' }, { headers: { behaviorVerify: t } })).body.code).toBe(200);
    const reused = await call('/auth/api/auth/getAuthCode', { phone: '13800138002' }, { headers: { behaviorVerify: t } });
    expect(reused.body.code).toBe(400);
  });

  it.each([
    [{ phone: '1380013800' }, 'phone: must be 11 digits'],
    [{ phone: '12800138000' }, 'phone: must be a mainland-China mobile number'],
    [{ phone: 13800138000 }, 'phone: is required and must be a string of digits'],
    [{}, 'phone: is required'],
  ])('says which field is wrong and why: %j', async (body, message) => {
    const res = await call('/auth/api/auth/getAuthCode', body, { headers: { behaviorVerify: 'whatever' } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(400);
    expect(res.body.message).toContain(message);
  });

  it('refuses a bad code with the reason and no token', async () => {
    await call('/auth/api/auth/getAuthCode', { phone: '13800138003' }, { headers: { behaviorVerify: await ticket() } });
    const code = await outboxCode('13800138003');
    const res = await call('/auth/api/auth/authCodeLoginV2', { phone: '13800138003', code: code === '000000' ? '111111' : '000000' });
    expect(res.body).toMatchObject({ code: 400, message: 'The code is wrong. You have 4 tries left.', data: { field: 'code' } });
    expect(res.headers.authorization).toBeUndefined();
    const malformed = await call('/auth/api/auth/authCodeLoginV2', { phone: '13800138003', code: '12ab' });
    expect(malformed.body.message).toBe('code: must be the 6-digit code from the text message');
  });

  it('answers 401 without a session, and after logout revokes the token', async () => {
    expect((await call('/market/api/userAttribute/queryByUserUuid', {})).body.code).toBe(401);
    expect((await call('/market/api/userAttribute/queryByUserUuid', {}, { headers: { authorization: 'made-up' } })).body.code).toBe(401);

    const token = await login('13900139000');
    expect((await call('/market/api/userAttribute/queryByUserUuid', {}, { headers: { authorization: token } })).body.code).toBe(200);
    expect((await call('/auth/api/auth/logout', {}, { headers: { authorization: token } })).body.data).toEqual({ revoked: true });
    expect((await call('/market/api/userAttribute/queryByUserUuid', {}, { headers: { authorization: token } })).body.code).toBe(401);
  });

  it("does not take one channel's token or session on another channel", async () => {
    const token = await login('13900139001', 'lumen.localhost');
    expect(
      (await call('/market/api/userAttribute/queryByUserUuid', {}, { host: 'lumen.localhost', headers: { authorization: token } })).body
        .code,
    ).toBe(200);
    expect(
      (await call('/market/api/userAttribute/queryByUserUuid', {}, { host: 'aurora.localhost', headers: { authorization: token } })).body
        .code,
    ).toBe(401);
  });

  it('accepts the web session cookie in place of the header, for its own channel only', async () => {
    const token = await login('13900139002');
    const cookie = await encode({ token: { sub: 'x', apiToken: token, channel: 'AURORA', phone: '139****9002' }, secret: authSecret() });
    const web = await call(
      '/market/api/userAttribute/queryByUserUuid',
      {},
      { headers: { cookie: `other=1; next-auth.session-token=${cookie}` } },
    );
    expect(web.body).toMatchObject({ code: 200, data: { phone: '139****9002' } });
    const forged = await encode({
      token: { sub: 'x', apiToken: token, channel: 'AURORA', phone: 'x' },
      secret: 'another-secret-another-secret-another-secret',
    });
    expect(
      (await call('/market/api/userAttribute/queryByUserUuid', {}, { headers: { cookie: `next-auth.session-token=${forged}` } })).body.code,
    ).toBe(401);
    const elsewhere = await call(
      '/market/api/userAttribute/queryByUserUuid',
      {},
      { host: 'lumen.localhost', headers: { cookie: `next-auth.session-token=${cookie}` } },
    );
    expect(elsewhere.body.code).toBe(401);
  });

  it("refuses to bind another channel's brand", async () => {
    const token = await login('13900139003');
    const res = await call('/user/api/thirdAccount/brandChannel', { brandName: 'Lumen Gallery' }, { headers: { authorization: token } });
    expect(res.body).toMatchObject({
      code: 400,
      message: 'This is not the brand of this store (Aurora Collectibles).',
      data: { field: 'brandName' },
    });
  });
});
