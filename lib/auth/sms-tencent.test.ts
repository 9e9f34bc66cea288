import crypto from 'node:crypto';
import type { Db } from '@/lib/db/client';
import { AppError } from '@/lib/procedure/errors';
import { deadOrigin, startFakeHttp, type FakeAnswer, type FakeRequest } from '@/test/fake-http';
import { tencentError, tencentSignatureProblem, tencentStatus } from '@/test/tencent-sms';
import { tencentSmsProvider } from './sms-tencent';
import type { SmsMessage } from './sms';

/**
 * Tencent Cloud SMS against a local fake of its API: the fake checks each request's TC3-HMAC-SHA256 signature the way
 * Tencent Cloud's "Signature v3" describes it, computed here on its own (not with the provider's signer), then the
 * action, version, region, application, phone, sign name, template and parameters, and answers as the carrier.
 */

const SECRET_ID = `AKID${crypto.randomBytes(12).toString('hex')}`;
const SECRET_KEY = crypto.randomBytes(16).toString('hex');
const SDK_APP_ID = '1400006666';
const SIGN_NAME = '极光数藏';
const TEMPLATE = '1110';

const signatureProblem = (request: FakeRequest) => tencentSignatureProblem(request, { secretId: SECRET_ID, secretKey: SECRET_KEY });
const error = tencentError;
const status = tencentStatus;

let next: FakeAnswer = status('Ok', 'send success');
let fake: Awaited<ReturnType<typeof startFakeHttp>>;

beforeAll(async () => {
  fake = await startFakeHttp((request) => {
    const problem = signatureProblem(request);
    if (problem) return error('AuthFailure.SignatureFailure', `The provided credentials could not be validated: ${problem}`);
    if (request.headers['x-tc-action'] !== 'SendSms' || request.headers['x-tc-version'] !== '2021-01-11')
      return error('InvalidAction', 'unknown action or version');
    if (request.headers['x-tc-region'] !== 'ap-guangzhou') return error('InvalidParameterValue', 'region');
    return next;
  });
});
afterAll(() => fake.close());

let logs: jest.SpyInstance[] = [];
beforeEach(() => {
  next = status('Ok', 'send success');
  fake.requests.length = 0;
  logs = [jest.spyOn(console, 'error').mockImplementation(() => {}), jest.spyOn(console, 'warn').mockImplementation(() => {})];
});
afterEach(() => logs.forEach((log) => log.mockRestore()));
const logged = () => logs.flatMap((log) => log.mock.calls.map((call) => String(call[0])));

const provider = (over: Partial<Parameters<typeof tencentSmsProvider>[0]> = {}) =>
  tencentSmsProvider({
    secretId: SECRET_ID,
    secretKey: SECRET_KEY,
    sdkAppId: SDK_APP_ID,
    region: 'ap-guangzhou',
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
  const failure: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(failure).toBeInstanceOf(AppError);
  expect((failure as AppError).code).toBe(code);
  expect((failure as AppError).message).toMatch(text);
}

describe('Tencent Cloud SMS (SendSms 2021-01-11)', () => {
  it('sends the code and its minutes with the application, sign name and template, signed as Tencent Cloud checks it', async () => {
    await expect(provider().send(noDb, message())).resolves.toBeUndefined();
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.url).toBe('/');
    expect(JSON.parse(request!.body)).toEqual({
      PhoneNumberSet: ['+8613800138000'],
      SmsSdkAppId: SDK_APP_ID,
      SignName: SIGN_NAME,
      TemplateId: TEMPLATE,
      TemplateParamSet: ['042917', '5'],
    });
  });

  it("uses the channel's own sign name and template when it has them", async () => {
    await provider().send(noDb, message({ sender: { signName: 'Aurora', templateId: '2220' } }));
    expect(JSON.parse(fake.requests[0]!.body)).toMatchObject({ SignName: 'Aurora', TemplateId: '2220' });
  });

  it('sends a closing code under the closing template, never the login one, with the channel’s sign name (issue 36)', async () => {
    const closing = provider({ closeTemplateId: '1113' });
    await closing.send(noDb, message({ purpose: 'close', sender: { signName: 'Aurora', templateId: '2220' } }));
    await closing.send(noDb, message({ purpose: 'login' }));
    const [close, login] = fake.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(close).toMatchObject({ SignName: 'Aurora', TemplateId: '1113', TemplateParamSet: ['042917', '5'] });
    expect(login).toMatchObject({ TemplateId: TEMPLATE });
  });

  it('without a closing template, sends a closing code under the login one and says which setting is missing', async () => {
    await provider().send(noDb, message({ purpose: 'close' }));
    expect(JSON.parse(fake.requests[0]!.body)).toMatchObject({ TemplateId: TEMPLATE });
    expect(logged().join('\n')).toMatch(/closing code went out under the login template: set SMS_TENCENT_CLOSE_TEMPLATE_ID/);
  });

  it.each([
    ['a refused call', error('LimitExceeded.PhoneNumberDailyLimit', '单个手机号日下发短信条数超过设定的上限')],
    ['a refused number in an accepted call', status('LimitExceeded.PhoneNumberDailyLimit', 'the number has reached its daily limit')],
    ['the 30-second limit', status('LimitExceeded.PhoneNumberThirtySecondLimit', '30 s')],
  ])("turns the carrier's limit for the number into 429 (%s)", async (_, reply) => {
    next = reply;
    await refusedWith(
      provider().send(noDb, message()),
      429,
      /^Too many codes were sent to this number today\. Please try again tomorrow\.$/,
    );
  });

  it('refuses a number the carrier will not text with 400 on the phone', async () => {
    next = status('FailedOperation.PhoneNumberInBlacklist', 'blacklisted');
    await refusedWith(provider().send(noDb, message()), 400, /^This number cannot receive text messages/);
  });

  it('refuses when the template is missing or not approved, and logs the setting to fix', async () => {
    next = error('FailedOperation.TemplateIncorrectOrUnapproved', '模板未审批或内容不匹配');
    await refusedWith(provider().send(noDb, message()), 503, /^This store cannot send codes right now/);
    expect(logged().join('\n')).toMatch(
      /TemplateIncorrectOrUnapproved.*template 1110 .*fix SMS_TEMPLATE_ID or the channel's sms_template_id/,
    );
  });

  it('refuses when the SMS package is used up, with a log line for the operator', async () => {
    next = error('FailedOperation.InsufficientBalanceInSmsPackage', '套餐包余量不足');
    await refusedWith(provider().send(noDb, message()), 503, /^This store cannot send codes right now\. Please try again later\.$/);
    expect(logged().join('\n')).toMatch(
      /\[sms tencent\] channel 7, 138\*\*\*\*8000: FailedOperation\.InsufficientBalanceInSmsPackage .*no balance/,
    );
  });

  it('refuses when the carrier refuses the keys (a wrong secret fails the signature check)', async () => {
    await refusedWith(provider({ secretKey: 'not-the-secret' }).send(noDb, message()), 503, /^This store cannot send codes right now/);
    expect(logged().join('\n')).toMatch(/AuthFailure\.SignatureFailure.*check TENCENT_SMS_SECRET_ID, TENCENT_SMS_SECRET_KEY/);
  });

  it('refuses an answer without a send status, and one that is not JSON', async () => {
    next = { status: 200, body: JSON.stringify({ Response: { RequestId: 'x' } }) };
    await refusedWith(provider().send(noDb, message()), 503, /^This store cannot send codes right now/);
    next = { status: 504, body: 'gateway timeout' };
    await refusedWith(provider().send(noDb, message()), 503, /^The text message service did not answer/);
  });

  it('refuses when the carrier cannot be reached', async () => {
    await refusedWith(
      provider({ endpoint: await deadOrigin() }).send(noDb, message()),
      503,
      /^The text message service did not answer\. Please try again in a minute\.$/,
    );
  });

  it('gives up on a carrier that does not answer in time', async () => {
    next = 'hang';
    await refusedWith(provider({ timeoutMs: 300 }).send(noDb, message()), 503, /^The text message service did not answer/);
    expect(logged().join('\n')).toMatch(/no answer within 300 ms/);
  });
});
