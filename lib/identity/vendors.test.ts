import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { startFaceIdFake } from '@/test/tencent-faceid';
import { startCloudauthFake } from '@/test/aliyun-cloudauth';
import { deadOrigin } from '@/test/fake-http';
import { agreementAcceptances, buyerIdentities } from '../db/schema';
import { AppError } from '../procedure/errors';
import { residentIdCheckDigit } from '../format/resident-id';
import { IDENTITY_CONSENT_VERSION } from './consent';
import { tencentFaceIdProvider } from './tencent-faceid';
import { aliyunCloudauthProvider } from './aliyun-cloudauth';
import { identityKeyRing } from './seal';
import { verifyIdentity } from './service';
import type { IdentityProvider } from './provider';

// Issue 33: each identity vendor against its local fake, which checks our signature as the vendor does; a vendor that
// does not answer or refuses our keys is a 503 with nothing kept, and no output holds the raw name or number.

const idNumber = (first17: string) => first17 + residentIdCheckDigit(first17);
const NUMBER = idNumber('11010519800101006');
const TENCENT = { secretId: 'AKIDfaceidTestSecretId', secretKey: 'faceidTestSecretKey0000000000' };
const ALIYUN = { accessKeyId: 'LTAI5tCloudauthTest', accessKeySecret: 'cloudauthTestSecret00000000' };
// A short limit so a hanging fake is given up on quickly (the 5 s default is IDENTITY_VENDOR_TIMEOUT_MS); the calls
// that expect an answer keep the default, as a loaded CI machine may take longer than the short limit to answer.
const TIMEOUT_MS = 300;

let output: string[];
beforeEach(() => {
  output = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      output.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(' '));
    });
  }
});
afterEach(() => jest.restoreAllMocks());

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

type Vendor = {
  name: string;
  start: () => Promise<{ origin: string; problems: string[]; requests: { body: string }[]; close: () => Promise<void> }>;
  provider: (endpoint: string, wrongKeys?: boolean, timeoutMs?: number) => IdentityProvider;
  keyVariables: string;
};

const VENDORS: Vendor[] = [
  {
    name: 'Tencent Cloud faceid',
    start: () => startFaceIdFake(TENCENT),
    provider: (endpoint, wrongKeys, timeoutMs) =>
      tencentFaceIdProvider({ ...TENCENT, ...(wrongKeys ? { secretKey: 'not-the-key' } : {}), endpoint, timeoutMs }),
    keyVariables: 'IDENTITY_TENCENT_SECRET_ID and IDENTITY_TENCENT_SECRET_KEY',
  },
  {
    name: 'Alibaba Cloud cloudauth',
    start: () => startCloudauthFake(ALIYUN),
    provider: (endpoint, wrongKeys, timeoutMs) =>
      aliyunCloudauthProvider({ ...ALIYUN, ...(wrongKeys ? { accessKeySecret: 'not-the-secret' } : {}), endpoint, timeoutMs }),
    keyVariables: 'IDENTITY_ALIYUN_ACCESS_KEY_ID and IDENTITY_ALIYUN_ACCESS_KEY_SECRET',
  },
];

describe.each(VENDORS)('$name', (vendor) => {
  let fake: Awaited<ReturnType<Vendor['start']>>;
  beforeAll(async () => {
    fake = await vendor.start();
  });
  afterAll(async () => {
    await fake.close();
  });

  it('is asked with a signature the vendor accepts, and answers match, mismatch and no record by its verdict', async () => {
    const provider = vendor.provider(fake.origin);
    expect(await provider.check({ name: '张三', idNumber: NUMBER })).toBe('match');
    expect(await provider.check({ name: '张不符', idNumber: NUMBER })).toBe('mismatch');
    expect(await provider.check({ name: '李无记录', idNumber: NUMBER })).toBe('noRecord');
    expect(fake.problems).toEqual([]);
    expect(fake.requests.at(-1)!.body).toContain(NUMBER);
    expect(output.join('\n')).not.toMatch(/张三|不符|无记录|11010519800101006/);
  });

  it('gives up on a vendor that does not answer: a 503 the buyer reads, never the busy code, nothing logged of the person', async () => {
    const error = await refusal(vendor.provider(fake.origin, false, TIMEOUT_MS).check({ name: '王超时', idNumber: NUMBER }));
    expect(error.code).toBe(503);
    expect(error.messageIn('en')).toMatch(/did not answer/);
    expect(output.join('\n')).toMatch(/no answer within 300 ms/);
    const unreachable = await refusal(vendor.provider(await deadOrigin(), false, TIMEOUT_MS).check({ name: '王五', idNumber: NUMBER }));
    expect(unreachable.code).toBe(503);
    expect(output.join('\n')).not.toMatch(/王超时|王五|11010519800101006/);
  });

  it('answers keys the vendor refuses with a 503 and an [alert] naming the settings', async () => {
    const error = await refusal(vendor.provider(fake.origin, true).check({ name: '赵六', idNumber: NUMBER }));
    expect(error.code).toBe(503);
    expect(error.messageIn('en')).toBe('This store cannot check identities right now. Please try again later.');
    expect(fake.problems).toContain('signature does not match');
    const alert = output.find((line) => line.startsWith('[alert]'));
    expect(alert).toContain(vendor.keyVariables);
    expect(output.join('\n')).not.toMatch(/赵六|11010519800101006/);
  });
});

describe('verify with a vendor that does not answer', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('refuses with 503 and keeps nothing, the raw name and number in no output', async () => {
    const fake = await startFaceIdFake(TENCENT);
    try {
      const buyer = await api.buyer('13912340201');
      const ring = identityKeyRing(`k1:${Buffer.alloc(32, 9).toString('base64')}`, 'h'.repeat(32));
      const error = await refusal(
        verifyIdentity(
          api.db,
          {
            userId: buyer.userId,
            channelId: await api.channelId('AURORA'),
            name: '孙超时',
            idNumber: NUMBER,
            consentVersion: IDENTITY_CONSENT_VERSION,
            now: api.now,
          },
          VENDORS[0]!.provider(fake.origin, false, TIMEOUT_MS),
          ring,
        ),
      );
      expect(error.code).toBe(503);
      expect(error.message).not.toMatch(/孙超时|11010519800101006/);
      expect(await api.db.select().from(buyerIdentities).where(eq(buyerIdentities.userId, buyer.userId))).toEqual([]);
      expect(await api.db.select().from(agreementAcceptances).where(eq(agreementAcceptances.userId, buyer.userId))).toEqual([]);
      expect(output.join('\n')).not.toMatch(/孙超时|11010519800101006/);
    } finally {
      await fake.close();
    }
  });
});
