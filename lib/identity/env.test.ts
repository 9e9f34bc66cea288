import { EnvError, parseEnv } from '../env';
import { DEMO_IDENTITY_HASH_KEY, DEMO_IDENTITY_KEYS } from '../security/identity-keys';

// Issue 33: the demo identity vendor confirms any name and the demo keys are public, so production refuses them, naming
// each variable; a vendor without its keys refuses to start in any mode.

const REAL = {
  NODE_ENV: 'production',
  AUTH_SECRET: 'k3Jd9s0aLw2mQx7vBz4nRt6yUe8iOp1c',
  PAYMENT_SECRET: 'k3Jd9s0aLw2mQx7vBz4nRt6yUe8iOp1c',
};
const VENDOR = {
  IDENTITY_PROVIDER: 'aliyun',
  IDENTITY_ALIYUN_ACCESS_KEY_ID: 'LTAI5tExampleCloudauth',
  IDENTITY_ALIYUN_ACCESS_KEY_SECRET: 'exampleCloudauthSecret000000',
  IDENTITY_KEYS: `k2:${Buffer.alloc(32, 2).toString('base64')},k1:${Buffer.alloc(32, 1).toString('base64')}`,
  IDENTITY_HASH_KEY: 'h7Jd9s0aLw2mQx7vBz4nRt6yUe8iOp1c',
};

function identityIssues(source: Record<string, string>): string[] {
  try {
    parseEnv(source);
    return [];
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    return error.issues.filter((issue) => issue.startsWith('IDENTITY_'));
  }
}

describe('real-name settings at start', () => {
  it('refuses the demo vendor and the demo keys in production, naming each variable', () => {
    expect(identityIssues(REAL)).toEqual([
      "IDENTITY_PROVIDER is the demo identity vendor, which confirms any name; set 'tencent' or 'aliyun' in production",
      'IDENTITY_KEYS holds the demo key; set your own (id:<openssl rand -base64 32>) in production',
      'IDENTITY_HASH_KEY is the demo key; set a random secret of 32+ characters in production (and never change it after)',
    ]);
    // The demo key kept as an old key still opens what it sealed, which anyone can read: refused too.
    expect(identityIssues({ ...REAL, ...VENDOR, IDENTITY_KEYS: `${VENDOR.IDENTITY_KEYS},${DEMO_IDENTITY_KEYS}` })).toEqual([
      'IDENTITY_KEYS holds the demo key; set your own (id:<openssl rand -base64 32>) in production',
    ]);
    expect(identityIssues({ ...REAL, ...VENDOR })).toEqual([]);
  });

  it('lets the demo run them in demo mode and outside production', () => {
    expect(parseEnv({ ...REAL, DEMO_MODE: '1' })).toMatchObject({
      IDENTITY_PROVIDER: 'demo',
      IDENTITY_KEYS: DEMO_IDENTITY_KEYS,
      IDENTITY_HASH_KEY: DEMO_IDENTITY_HASH_KEY,
    });
    expect(parseEnv({ NODE_ENV: 'test' }).IDENTITY_PROVIDER).toBe('demo');
  });

  it('refuses a vendor without its keys in any mode, one line per variable', () => {
    expect(identityIssues({ NODE_ENV: 'test', IDENTITY_PROVIDER: 'tencent' })).toEqual([
      'IDENTITY_TENCENT_SECRET_ID is required with IDENTITY_PROVIDER=tencent',
      'IDENTITY_TENCENT_SECRET_KEY is required with IDENTITY_PROVIDER=tencent',
    ]);
    expect(identityIssues({ NODE_ENV: 'test', IDENTITY_PROVIDER: 'aliyun', IDENTITY_ALIYUN_ACCESS_KEY_ID: 'x' })).toEqual([
      'IDENTITY_ALIYUN_ACCESS_KEY_SECRET is required with IDENTITY_PROVIDER=aliyun',
    ]);
  });

  it('refuses a key list it cannot read, saying why without the key', () => {
    const short = Buffer.alloc(16, 3).toString('base64');
    expect(identityIssues({ NODE_ENV: 'test', IDENTITY_KEYS: `k1:${short}` })).toEqual([
      'IDENTITY_KEYS key k1 must be 32 random bytes in base64 (openssl rand -base64 32)',
    ]);
    expect(identityIssues({ NODE_ENV: 'test', IDENTITY_KEYS: Buffer.alloc(32).toString('base64') })[0]).toMatch(
      /^IDENTITY_KEYS entry 1 must start with a key id/,
    );
  });

  it('checks the vendor endpoint in production like the other providers', () => {
    expect(identityIssues({ ...REAL, ...VENDOR, IDENTITY_ALIYUN_ENDPOINT: 'http://cloudauth.example' })).toEqual([
      'IDENTITY_ALIYUN_ENDPOINT must be https:// in production, or http:// to this machine (127.0.0.1, ::1 or localhost: a relay)',
    ]);
    expect(identityIssues({ ...REAL, ...VENDOR, IDENTITY_ALIYUN_ENDPOINT: 'http://127.0.0.1:9000' })).toEqual([]);
  });
});
