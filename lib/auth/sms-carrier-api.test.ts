import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { apiCall } from '@/test/api';
import { startFakeHttp, type FakeAnswer } from '@/test/fake-http';
import { solvePow, type PowChallenge } from '@/lib/client/proof-of-work';
import { channels } from '@/lib/db/schema';

/**
 * getAuthCode and the login end to end with a real carrier (SMS_PROVIDER=aliyun) pointed at a local fake of Dysmsapi:
 * the buyer logs in with the code the carrier was asked to text, and a refusal reaches the client as an envelope with
 * its code and message (HTTP 200), never a 500. The signature itself is checked in ./sms-aliyun.test.ts.
 */

let clock = new Date('2026-11-22T08:00:00Z').getTime();
const tick = (ms = 1000) => new Date((clock += ms));
const db = seededTestDb(new Date(clock));

const ok: FakeAnswer = { status: 200, body: JSON.stringify({ Code: 'OK', Message: 'OK', RequestId: 'r', BizId: 'b' }) };
let next: FakeAnswer = ok;
let fake: Awaited<ReturnType<typeof startFakeHttp>>;
const saved = { ...process.env };

beforeAll(async () => {
  fake = await startFakeHttp(() => next);
  // Read by lib/env.ts on the first call, which comes after this.
  Object.assign(process.env, {
    SMS_PROVIDER: 'aliyun',
    ALIYUN_SMS_ACCESS_KEY_ID: 'LTAI-test-key-id',
    ALIYUN_SMS_ACCESS_KEY_SECRET: 'test-key-secret-0000000000',
    ALIYUN_SMS_ENDPOINT: fake.origin,
    SMS_SIGN_NAME: 'Storefront',
    SMS_TEMPLATE_ID: 'SMS_0001',
  });
  await db.update(channels).set({ smsSignName: 'Lumen', smsTemplateId: 'SMS_0002' }).where(eq(channels.key, 'LUMEN'));
});
afterAll(async () => {
  process.env = saved;
  await fake.close();
});
beforeEach(() => {
  next = ok;
  fake.requests.length = 0;
});

const call = (path: string, body: unknown, options: { host?: string; headers?: Record<string, string> } = {}) =>
  apiCall(db, path, body, { ...options, now: tick() });

async function ticket(host?: string): Promise<string> {
  const challenge = await call('/auth/api/captcha/challenge', { kind: 'text' }, { host });
  const { id, question, pow } = challenge.body.data as { id: string; question: { a: number; b: number }; pow: PowChallenge };
  const verified = await call('/auth/api/captcha/verify', { id, pow: await solvePow(pow), answer: question.a + question.b }, { host });
  return (verified.body.data as { ticket: string }).ticket;
}
const askCode = async (phone: string, host?: string) =>
  call('/auth/api/auth/getAuthCode', { phone }, { host, headers: { behaviorVerify: await ticket(host) } });
const textSent = (i = 0) => new URLSearchParams(fake.requests[i]!.body);

describe('getAuthCode with Alibaba Cloud SMS', () => {
  it('texts the code through the carrier, hands nothing back, and the code logs the buyer in', async () => {
    const sent = await askCode('13800138101');
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ code: 200, message: 'ok', data: { cooldownSeconds: 60, expiresInSeconds: 300 } });
    expect(fake.requests).toHaveLength(1);
    expect(textSent().get('PhoneNumbers')).toBe('13800138101');
    expect(textSent().get('SignName')).toBe('Storefront');
    const { code, minutes } = JSON.parse(textSent().get('TemplateParam')!) as { code: string; minutes: string };
    expect(minutes).toBe('5');
    const login = await call('/auth/api/auth/authCodeLoginV2', { phone: '13800138101', code });
    expect(login.body.code).toBe(200);
  });

  it("sends with the channel's own sign name and template", async () => {
    expect((await askCode('13800138102', 'lumen.localhost:3000')).body.code).toBe(200);
    expect(textSent().get('SignName')).toBe('Lumen');
    expect(textSent().get('TemplateCode')).toBe('SMS_0002');
  });

  it("answers the carrier's limit for the number as 429 with HTTP 200, and lets the buyer ask again at once", async () => {
    const warnings = jest.spyOn(console, 'warn').mockImplementation(() => {});
    next = { status: 200, body: JSON.stringify({ Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发分钟级流控', RequestId: 'r' }) };
    const refused = await askCode('13800138103');
    warnings.mockRestore();
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({
      code: 429,
      message: 'Too many codes were sent to this number today. Please try again tomorrow.',
      data: { field: 'phone' },
    });
    next = ok;
    expect((await askCode('13800138103')).body.code).toBe(200);
  });

  it('answers an empty account as 503 with HTTP 200 and a message for the buyer', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
    next = { status: 200, body: JSON.stringify({ Code: 'isv.AMOUNT_NOT_ENOUGH', Message: '账户余额不足', RequestId: 'r' }) };
    const refused = await askCode('13800138104');
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/isv\.AMOUNT_NOT_ENOUGH/));
    errors.mockRestore();
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({ code: 503, message: 'This store cannot send codes right now. Please try again later.', data: null });
  });
});
