import crypto from 'node:crypto';
import type { Db } from '@/lib/db/client';
import { AppError } from '@/lib/procedure/errors';
import { deadOrigin, startFakeHttp, type FakeAnswer, type FakeRequest } from '@/test/fake-http';
import { aliyunAnswer, aliyunSignatureProblem } from '@/test/aliyun-sms';
import { aliyunSmsProvider } from './sms-aliyun';
import type { SmsMessage } from './sms';

/**
 * Alibaba Cloud SMS against a local fake of Dysmsapi: the fake checks each request's ACS3-HMAC-SHA256 signature the
 * way Alibaba Cloud's "V3 request structure and signature" describes it (test/aliyun-sms.ts, computed there on its
 * own, not with the provider's signer), then the action, version, phone, sign name, template and parameters, and
 * answers as the carrier.
 */

const ACCESS_KEY_ID = `LTAI${crypto.randomBytes(8).toString('hex')}`;
const ACCESS_KEY_SECRET = crypto.randomBytes(24).toString('base64');
const SIGN_NAME = '极光数藏';
const TEMPLATE = 'SMS_465090001';

const answer = aliyunAnswer;
const signatureProblem = (request: FakeRequest) =>
  aliyunSignatureProblem(request, { accessKeyId: ACCESS_KEY_ID, accessKeySecret: ACCESS_KEY_SECRET });

/** What the carrier will answer next, after a valid signature; set by each test. */
let next: FakeAnswer = answer('OK', 'OK');
let fake: Awaited<ReturnType<typeof startFakeHttp>>;

beforeAll(async () => {
  fake = await startFakeHttp((request) => {
    const problem = signatureProblem(request);
    if (problem) return answer('SignatureDoesNotMatch', `Specified signature does not match our calculation: ${problem}`, 400);
    if (request.headers['x-acs-action'] !== 'SendSms' || request.headers['x-acs-version'] !== '2017-05-25')
      return answer('InvalidAction.NotFound', 'unknown action', 404);
    return next;
  });
});
afterAll(() => fake.close());

let logs: jest.SpyInstance[] = [];
beforeEach(() => {
  next = answer('OK', 'OK');
  fake.requests.length = 0;
  logs = [jest.spyOn(console, 'error').mockImplementation(() => {}), jest.spyOn(console, 'warn').mockImplementation(() => {})];
});
afterEach(() => logs.forEach((log) => log.mockRestore()));
const logged = () => logs.flatMap((log) => log.mock.calls.map((call) => String(call[0])));

const provider = (over: Partial<Parameters<typeof aliyunSmsProvider>[0]> = {}) =>
  aliyunSmsProvider({
    accessKeyId: ACCESS_KEY_ID,
    accessKeySecret: ACCESS_KEY_SECRET,
    signName: SIGN_NAME,
    templateId: TEMPLATE,
    endpoint: fake.origin,
    ...over,
  });
const message = (over: Partial<SmsMessage> = {}): SmsMessage => ({
  channelId: 7,
  phone: '13800138000',
  code: '042917',
  ttlMinutes: 5,
  now: new Date(),
  ...over,
});
// The carriers never touch the database.
const noDb = null as unknown as Db;

async function refusedWith(promise: Promise<unknown>, code: number, text: string | RegExp): Promise<void> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  expect((error as AppError).message).toMatch(text);
}

describe('Alibaba Cloud SMS (Dysmsapi SendSms)', () => {
  it('sends the code and its minutes with the sign name and template, signed as Alibaba Cloud checks it', async () => {
    await expect(provider().send(noDb, message())).resolves.toBeUndefined();
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    // The code travels in the signed body, never in the URL.
    expect(request!.url).toBe('/');
    const form = new URLSearchParams(request!.body);
    expect(Object.fromEntries(form)).toEqual({
      PhoneNumbers: '13800138000',
      SignName: SIGN_NAME,
      TemplateCode: TEMPLATE,
      TemplateParam: JSON.stringify({ code: '042917', minutes: '5' }),
    });
  });

  it("uses the channel's own sign name and template when it has them", async () => {
    await provider().send(noDb, message({ sender: { signName: 'Aurora', templateId: 'SMS_1234' } }));
    const form = new URLSearchParams(fake.requests[0]!.body);
    expect(form.get('SignName')).toBe('Aurora');
    expect(form.get('TemplateCode')).toBe('SMS_1234');
    await provider().send(noDb, message({ sender: { signName: null, templateId: null } }));
    expect(new URLSearchParams(fake.requests[1]!.body).get('SignName')).toBe(SIGN_NAME);
  });

  it('sends a closing code under the closing template, never the login one, with the channel’s sign name (issue 36)', async () => {
    const closing = provider({ closeTemplateId: 'SMS_465090004' });
    await closing.send(noDb, message({ purpose: 'close', sender: { signName: 'Aurora', templateId: 'SMS_1234' } }));
    await closing.send(noDb, message({ purpose: 'login' }));
    const [close, login] = fake.requests.map((r) => Object.fromEntries(new URLSearchParams(r.body)));
    expect(close).toEqual({
      PhoneNumbers: '13800138000',
      SignName: 'Aurora',
      TemplateCode: 'SMS_465090004',
      TemplateParam: JSON.stringify({ code: '042917', minutes: '5' }),
    });
    expect(login!.TemplateCode).toBe(TEMPLATE);
    // A refused closing template names its own setting.
    next = answer('isv.SMS_TEMPLATE_ILLEGAL', '该账号下找不到对应模板');
    await refusedWith(closing.send(noDb, message({ purpose: 'close' })), 503, /^This store cannot send codes right now/);
    expect(logged().join('\n')).toMatch(/template SMS_465090004 .*fix SMS_ALIYUN_CLOSE_TEMPLATE/);
  });

  it('without a closing template, sends a closing code under the login one and says which setting is missing', async () => {
    await provider().send(noDb, message({ purpose: 'close' }));
    expect(new URLSearchParams(fake.requests[0]!.body).get('TemplateCode')).toBe(TEMPLATE);
    expect(logged().join('\n')).toMatch(/closing code went out under the login template: set SMS_ALIYUN_CLOSE_TEMPLATE/);
  });

  it("turns the carrier's limit for the number into 429", async () => {
    next = answer('isv.BUSINESS_LIMIT_CONTROL', '触发天级流控Permits:10');
    await refusedWith(
      provider().send(noDb, message()),
      429,
      /^Too many codes were sent to this number today\. Please try again tomorrow\.$/,
    );
  });

  it('refuses when the template is missing or not approved, and logs the setting to fix', async () => {
    next = answer('isv.SMS_TEMPLATE_ILLEGAL', '该账号下找不到对应模板');
    await refusedWith(provider().send(noDb, message()), 503, /^This store cannot send codes right now/);
    expect(logged().join('\n')).toMatch(
      /isv\.SMS_TEMPLATE_ILLEGAL.*template SMS_465090001 .*fix SMS_TEMPLATE_ID or the channel's sms_template_id/,
    );
  });

  it('refuses when the sign name is not approved, naming SMS_SIGN_NAME', async () => {
    next = answer('isv.SMS_SIGNATURE_ILLEGAL', '该账号下找不到对应签名');
    await refusedWith(provider().send(noDb, message()), 503, /^This store cannot send codes right now/);
    expect(logged().join('\n')).toMatch(/SMS_SIGN_NAME/);
  });

  it('refuses when the account has no balance, with a log line for the operator', async () => {
    next = answer('isv.AMOUNT_NOT_ENOUGH', '账户余额不足');
    await refusedWith(provider().send(noDb, message()), 503, /^This store cannot send codes right now\. Please try again later\.$/);
    expect(logged().join('\n')).toMatch(/\[sms aliyun\] channel 7, 138\*\*\*\*8000: isv\.AMOUNT_NOT_ENOUGH .*no balance/);
  });

  it('refuses when the carrier refuses the keys (a wrong secret fails the signature check)', async () => {
    await refusedWith(
      provider({ accessKeySecret: 'not-the-secret' }).send(noDb, message()),
      503,
      /^This store cannot send codes right now/,
    );
    expect(logged().join('\n')).toMatch(/SignatureDoesNotMatch.*check ALIYUN_SMS_ACCESS_KEY_ID and ALIYUN_SMS_ACCESS_KEY_SECRET/);
  });

  it('refuses an answer it does not know, and one that is not JSON', async () => {
    next = answer('isv.SOMETHING_NEW', 'new');
    await refusedWith(provider().send(noDb, message()), 503, /^This store cannot send codes right now/);
    next = { status: 502, body: '<html>bad gateway</html>' };
    await refusedWith(provider().send(noDb, message()), 503, /^The text message service did not answer/);
  });

  it('refuses when the carrier cannot be reached', async () => {
    await refusedWith(
      provider({ endpoint: await deadOrigin() }).send(noDb, message()),
      503,
      /^The text message service did not answer\. Please try again in a minute\.$/,
    );
    expect(logged().join('\n')).toMatch(/\[sms aliyun\] http:\/\/127\.0\.0\.1:\d+/);
  });

  it('gives up on a carrier that does not answer in time', async () => {
    next = 'hang';
    const started = Date.now();
    await refusedWith(provider({ timeoutMs: 300 }).send(noDb, message()), 503, /^The text message service did not answer/);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(logged().join('\n')).toMatch(/no answer within 300 ms/);
  });
});
