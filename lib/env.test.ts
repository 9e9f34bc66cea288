import { generateKeyPairSync } from 'node:crypto';
import { buyLaneRunning, DEMO_AUTH_SECRET, EnvError, parseEnv, publicOrigin } from './env';
import { addressLimitsOf, DEFAULT_ADDRESS_LIMITS } from './auth/limits';

const REAL_SECRET = 'k3Jd9s0aLw2mQx7vBz4nRt6yUe8iOp1c';
/** A real-name vendor with its own keys (issue 33): production refuses the demo vendor and keys (lib/identity/env.test.ts). */
const REAL_IDENTITY = {
  IDENTITY_PROVIDER: 'tencent',
  IDENTITY_TENCENT_SECRET_ID: 'AKIDexampleFaceIdSecretId',
  IDENTITY_TENCENT_SECRET_KEY: 'exampleFaceIdSecretKey0000000',
  IDENTITY_KEYS: 'k1:' + Buffer.alloc(32, 7).toString('base64'),
  IDENTITY_HASH_KEY: 'x7Jd9s0aLw2mQx7vBz4nRt6yUe8iOp1c',
};

function envError(source: Record<string, string | undefined>, options?: { forStart?: boolean }): EnvError {
  try {
    parseEnv(source, options);
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
  throw new Error('expected parseEnv to throw an EnvError');
}

describe('parseEnv', () => {
  it('runs with no configuration at all', () => {
    expect(parseEnv({})).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      PGLITE_DIR: '.data/pglite',
      BRAND_WORD: 'localhost',
      SMS_PROVIDER: 'outbox',
    });
    expect(parseEnv({}).DATABASE_URL).toBeUndefined();
    expect(parseEnv({}).DEFAULT_CHANNEL).toBeUndefined();
  });

  it('reads valid values, with numbers as numbers', () => {
    const env = parseEnv({
      PORT: '8080',
      DATABASE_URL: 'postgresql://u:p@localhost:5432/shop',
      DEFAULT_CHANNEL: 'AURORA',
      BRAND_WORD: 'shop.example',
    });
    expect(env).toMatchObject({
      PORT: 8080,
      DATABASE_URL: 'postgresql://u:p@localhost:5432/shop',
      DEFAULT_CHANNEL: 'AURORA',
      BRAND_WORD: 'shop.example',
    });
  });

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '0' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '3000.5' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/shop' }],
    ['DATABASE_URL', { DATABASE_URL: 'localhost:5432' }],
    ['DEFAULT_CHANNEL', { DEFAULT_CHANNEL: 'aurora' }],
    ['DEFAULT_CHANNEL', { DEFAULT_CHANNEL: 'AUR-ORA' }],
    ['AUTH_SECRET', { AUTH_SECRET: 'short' }],
    ['SMS_PROVIDER', { SMS_PROVIDER: 'carrier-pigeon' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
  ])('refuses a bad %s with an EnvError that names it', (name, source) => {
    const error = envError(source);
    expect(error).toBeInstanceOf(EnvError);
    expect(error.message).toContain(name);
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatch(new RegExp(`^${name} `));
  });

  it('names every bad variable at once', () => {
    const error = envError({ PORT: 'abc', DEFAULT_CHANNEL: 'aurora' });
    expect(error.issues).toHaveLength(2);
    expect(error.message).toContain('PORT');
    expect(error.message).toContain('DEFAULT_CHANNEL');
  });

  it('refuses to start production with the demo secret and the outbox SMS provider', () => {
    const error = envError({ NODE_ENV: 'production' });
    expect(error.message).toContain('AUTH_SECRET');
    expect(error.message).toContain('SMS_PROVIDER');
    expect(envError({ NODE_ENV: 'production', AUTH_SECRET: DEMO_AUTH_SECRET }).message).toContain('AUTH_SECRET');
  });

  it('refuses the outbox provider in production even with a real secret', () => {
    const error = envError({ NODE_ENV: 'production', AUTH_SECRET: REAL_SECRET });
    expect(error.message).toContain('SMS_PROVIDER');
    expect(error.message).not.toContain('AUTH_SECRET');
  });

  it('refuses the payment sandbox and its demo secret in production', () => {
    const error = envError({ NODE_ENV: 'production', AUTH_SECRET: REAL_SECRET });
    expect(error.issues).toContain(
      'PAYMENT_PROVIDERS lists sandbox, the cashier that takes no money; list only real payment providers in production',
    );
    expect(envError({ NODE_ENV: 'production', PAYMENT_PROVIDERS: 'wechatpay,sandbox' }).message).toContain(
      'PAYMENT_PROVIDERS lists sandbox',
    );
    expect(error.message).toContain('PAYMENT_SECRET');
    expect(envError({ NODE_ENV: 'production', AUTH_SECRET: REAL_SECRET, PAYMENT_SECRET: REAL_SECRET }).message).not.toContain(
      'PAYMENT_SECRET',
    );
  });

  it.each([
    ['ORDER_PAY_TIMEOUT_SECONDS', { ORDER_PAY_TIMEOUT_SECONDS: '5' }],
    ['JOBS', { JOBS: 'sometimes' }],
    ['PAYMENT_PROVIDERS', { PAYMENT_PROVIDERS: 'cash' }],
    ['PAYMENT_PROVIDERS', { PAYMENT_PROVIDERS: 'sandbox,sandbox' }],
    ['PAYMENT_PROVIDERS', { PAYMENT_PROVIDERS: ' , ' }],
  ])('refuses a bad %s', (name, source) => {
    expect(envError(source).message).toContain(name);
  });

  it('runs the sandbox cashier unless told, and still reads the old single PAYMENT_PROVIDER', () => {
    expect(parseEnv({}).PAYMENT_PROVIDERS).toEqual(['sandbox']);
    expect(parseEnv({ PAYMENT_PROVIDER: 'sandbox' }).PAYMENT_PROVIDERS).toEqual(['sandbox']);
    expect(envError({ PAYMENT_PROVIDER: 'sandbox', PAYMENT_PROVIDERS: 'sandbox' }).issues).toEqual([
      'PAYMENT_PROVIDER is replaced by PAYMENT_PROVIDERS; set only PAYMENT_PROVIDERS',
    ]);
    expect(envError({ PAYMENT_PROVIDERS: 'sandbox,paypal' }).issues).toEqual([
      'PAYMENT_PROVIDERS paypal is not a payment provider; known: sandbox, wechatpay, alipay',
    ]);
  });

  describe('WeChat Pay', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const good = {
      PAYMENT_PROVIDERS: 'wechatpay',
      WECHATPAY_MCHID: '1900000109',
      WECHATPAY_APPID: 'wxd678efh567hg6787',
      WECHATPAY_SERIAL: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
      WECHATPAY_PRIVATE_KEY: String(privateKey.export({ type: 'pkcs8', format: 'pem' })),
      WECHATPAY_APIV3_KEY: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6',
      WECHATPAY_PLATFORM_PUBLIC_KEY: String(publicKey.export({ type: 'spki', format: 'pem' })).replace(/\n/g, '\\n'),
      WECHATPAY_PLATFORM_PUBLIC_KEY_ID: 'PUB_KEY_ID_0119000001092025010100000000',
      WECHATPAY_NOTIFY_URL: 'https://aurora.shop.example/api/pay/notify/wechatpay',
    };

    it('starts with every variable set and usable (a key as PEM text, also with its newlines written \\n)', () => {
      expect(parseEnv(good)).toMatchObject({ PAYMENT_PROVIDERS: ['wechatpay'], WECHATPAY_ENDPOINT: 'https://api.mch.weixin.qq.com' });
    });

    it('names every missing variable, one line each', () => {
      expect(envError({ PAYMENT_PROVIDERS: 'sandbox,wechatpay' }).issues).toEqual([
        'WECHATPAY_MCHID is required when PAYMENT_PROVIDERS lists wechatpay',
        'WECHATPAY_APPID is required when PAYMENT_PROVIDERS lists wechatpay',
        'WECHATPAY_SERIAL is required when PAYMENT_PROVIDERS lists wechatpay',
        'WECHATPAY_PRIVATE_KEY is required when PAYMENT_PROVIDERS lists wechatpay',
        'WECHATPAY_APIV3_KEY is required when PAYMENT_PROVIDERS lists wechatpay',
        'WECHATPAY_PLATFORM_PUBLIC_KEY is required when PAYMENT_PROVIDERS lists wechatpay',
        'WECHATPAY_PLATFORM_PUBLIC_KEY_ID is required when PAYMENT_PROVIDERS lists wechatpay',
        'WECHATPAY_NOTIFY_URL is required when PAYMENT_PROVIDERS lists wechatpay',
      ]);
    });

    it('refuses values that cannot work, naming each', () => {
      expect(
        envError({
          ...good,
          WECHATPAY_APIV3_KEY: 'too-short',
          WECHATPAY_PRIVATE_KEY: '/nonexistent/apiclient_key.pem',
          WECHATPAY_PLATFORM_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----',
          WECHATPAY_NOTIFY_URL: 'http://aurora.shop.example/api/pay/notify/wechatpay?x=1',
          WECHATPAY_APPID: 'app',
        }).issues,
      ).toEqual([
        'WECHATPAY_APPID must be an app id: wx and 16 letters or digits',
        'WECHATPAY_APIV3_KEY must be exactly 32 bytes (the APIv3 key set in the merchant platform)',
        'WECHATPAY_NOTIFY_URL must be an https:// URL without a query string (WeChat Pay refuses others)',
        'WECHATPAY_PRIVATE_KEY is neither a PEM private key nor the path of a readable file holding one',
        'WECHATPAY_PLATFORM_PUBLIC_KEY does not hold an RSA public key in PEM form',
      ]);
    });

    it('is not checked when the deployment does not run it', () => {
      expect(parseEnv({ WECHATPAY_PRIVATE_KEY: '/nonexistent' }).PAYMENT_PROVIDERS).toEqual(['sandbox']);
    });
  });

  describe('Alipay', () => {
    const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const good = {
      PAYMENT_PROVIDERS: 'alipay',
      ALIPAY_APP_ID: '2021000123456789',
      // Our key as PKCS#1 PEM on one line; Alipay's as the bare base64 its key tool prints.
      ALIPAY_PRIVATE_KEY: String(app.privateKey.export({ type: 'pkcs1', format: 'pem' })).replace(/\n/g, '\\n'),
      ALIPAY_PUBLIC_KEY: (alipay.publicKey.export({ type: 'spki', format: 'der' }) as Buffer).toString('base64'),
      ALIPAY_NOTIFY_URL: 'https://aurora.shop.example/api/pay/notify/alipay',
    };

    it('starts with every variable set and usable, at the live gateway by default', () => {
      expect(parseEnv(good)).toMatchObject({ PAYMENT_PROVIDERS: ['alipay'], ALIPAY_GATEWAY: 'https://openapi.alipay.com/gateway.do' });
    });

    it('names every missing variable, one line each', () => {
      expect(envError({ PAYMENT_PROVIDERS: 'sandbox,alipay' }).issues).toEqual([
        'ALIPAY_APP_ID is required when PAYMENT_PROVIDERS lists alipay',
        'ALIPAY_PRIVATE_KEY is required when PAYMENT_PROVIDERS lists alipay',
        'ALIPAY_PUBLIC_KEY is required when PAYMENT_PROVIDERS lists alipay',
        'ALIPAY_NOTIFY_URL is required when PAYMENT_PROVIDERS lists alipay',
      ]);
    });

    it('refuses values that cannot work, naming each', () => {
      const small = generateKeyPairSync('rsa', { modulusLength: 1024 });
      expect(
        envError({
          ...good,
          ALIPAY_APP_ID: 'my-app',
          ALIPAY_PRIVATE_KEY: String(small.privateKey.export({ type: 'pkcs8', format: 'pem' })),
          ALIPAY_PUBLIC_KEY: '/nonexistent/alipay_public_key.pem',
          ALIPAY_NOTIFY_URL: '/api/pay/notify/alipay',
          ALIPAY_GATEWAY: 'openapi.alipay.com/gateway.do',
        }).issues,
      ).toEqual([
        'ALIPAY_APP_ID must be the app id of the Alipay open platform app (digits, e.g. 2021000123456789)',
        'ALIPAY_NOTIFY_URL must be an http(s) URL, e.g. https://shop.example/api/pay/notify/alipay',
        'ALIPAY_GATEWAY must be an http(s) URL such as https://openapi.alipay.com/gateway.do',
        "ALIPAY_PRIVATE_KEY is an RSA key of 1024 bits; Alipay's RSA2 needs 2048",
        'ALIPAY_PUBLIC_KEY is neither a PEM public key nor the path of a readable file holding one',
      ]);
    });

    it('is not checked when the deployment does not run it', () => {
      expect(parseEnv({ ALIPAY_PRIVATE_KEY: '/nonexistent' }).PAYMENT_PROVIDERS).toEqual(['sandbox']);
    });
  });

  describe('provider endpoints in production', () => {
    const production = {
      NODE_ENV: 'production',
      AUTH_SECRET: REAL_SECRET,
      PAYMENT_SECRET: REAL_SECRET,
      SMS_PROVIDER: 'tencent',
      ...REAL_IDENTITY,
    };
    const tencent = {
      TENCENT_SMS_SECRET_ID: 'AKIDexampleSecretId',
      TENCENT_SMS_SECRET_KEY: 'exampleSecretKey000000000000',
      TENCENT_SMS_SDK_APP_ID: '1400006666',
      SMS_SIGN_NAME: '极光数藏',
      SMS_TEMPLATE_ID: '1110',
      SMS_TENCENT_REFUND_TEMPLATE_ID: '1111',
    };
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const privatePem = String(privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const publicPem = String(publicKey.export({ type: 'spki', format: 'pem' }));
    const providers = {
      PAYMENT_PROVIDERS: 'wechatpay,alipay',
      WECHATPAY_MCHID: '1900000109',
      WECHATPAY_APPID: 'wxd678efh567hg6787',
      WECHATPAY_SERIAL: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
      WECHATPAY_PRIVATE_KEY: privatePem,
      WECHATPAY_APIV3_KEY: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6',
      WECHATPAY_PLATFORM_PUBLIC_KEY: publicPem,
      WECHATPAY_PLATFORM_PUBLIC_KEY_ID: 'PUB_KEY_ID_0119000001092025010100000000',
      WECHATPAY_NOTIFY_URL: 'https://aurora.shop.example/api/pay/notify/wechatpay',
      ALIPAY_APP_ID: '2021000123456789',
      ALIPAY_PRIVATE_KEY: privatePem,
      ALIPAY_PUBLIC_KEY: publicPem,
      ALIPAY_NOTIFY_URL: 'https://aurora.shop.example/api/pay/notify/alipay',
    };
    const base = { ...production, ...tencent, ...providers };
    const RULE = 'must be https:// in production, or http:// to this machine (127.0.0.1, ::1 or localhost: a relay)';

    it('takes https, or plain http to a relay on this machine, for every provider', () => {
      expect(parseEnv(base)).toMatchObject({ NODE_ENV: 'production' });
      for (const origin of ['http://127.0.0.1:8443', 'http://[::1]:8443', 'http://localhost:8443', 'https://relay.internal.example']) {
        const env = parseEnv({
          ...base,
          TENCENT_SMS_ENDPOINT: origin,
          WECHATPAY_ENDPOINT: origin,
          ALIPAY_GATEWAY: `${origin}/gateway.do`,
        });
        expect([env.TENCENT_SMS_ENDPOINT, env.WECHATPAY_ENDPOINT, env.ALIPAY_GATEWAY]).toEqual([origin, origin, `${origin}/gateway.do`]);
      }
      expect(
        parseEnv({
          ...base,
          SMS_PROVIDER: 'aliyun',
          ALIYUN_SMS_ACCESS_KEY_ID: 'id',
          ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
          SMS_ALIYUN_REFUND_TEMPLATE: 'SMS_465090002',
          ALIYUN_SMS_ENDPOINT: 'http://127.0.0.1:3401',
        }).ALIYUN_SMS_ENDPOINT,
      ).toBe('http://127.0.0.1:3401');
    });

    it('refuses plain http to another machine, naming each variable on a line of its own', () => {
      expect(
        envError({
          ...base,
          TENCENT_SMS_ENDPOINT: 'http://sms.tencentcloudapi.com',
          WECHATPAY_ENDPOINT: 'http://10.0.0.5:8080',
          ALIPAY_GATEWAY: 'http://openapi.alipay.com/gateway.do',
        }).issues,
      ).toEqual([`TENCENT_SMS_ENDPOINT ${RULE}`, `WECHATPAY_ENDPOINT ${RULE}`, `ALIPAY_GATEWAY ${RULE}`]);
      // A look-alike of a loopback name is another machine.
      expect(envError({ ...base, ALIPAY_GATEWAY: 'http://localhost.evil.example/gateway.do' }).issues).toEqual([`ALIPAY_GATEWAY ${RULE}`]);
    });

    it('leaves endpoints alone in demo mode, outside production, and for providers the deployment does not run', () => {
      const plain = {
        TENCENT_SMS_ENDPOINT: 'http://sms.example',
        WECHATPAY_ENDPOINT: 'http://pay.example',
        ALIPAY_GATEWAY: 'http://gw.example/gateway.do',
      };
      expect(parseEnv({ ...base, ...plain, DEMO_MODE: '1' }).ALIPAY_GATEWAY).toBe('http://gw.example/gateway.do');
      expect(parseEnv({ ...base, ...plain, NODE_ENV: 'test' }).WECHATPAY_ENDPOINT).toBe('http://pay.example');
      expect(
        parseEnv({ ...base, PAYMENT_PROVIDERS: 'wechatpay', ALIPAY_GATEWAY: 'http://gw.example/gateway.do' }).PAYMENT_PROVIDERS,
      ).toEqual(['wechatpay']);
    });
  });

  it('holds unpaid orders 5 minutes by default', () => {
    expect(parseEnv({}).ORDER_PAY_TIMEOUT_SECONDS).toBe(300);
  });

  it('allows the demo secret and provider in production when DEMO_MODE=1', () => {
    expect(parseEnv({ NODE_ENV: 'production', DEMO_MODE: '1' })).toMatchObject({
      NODE_ENV: 'production',
      AUTH_SECRET: DEMO_AUTH_SECRET,
      SMS_PROVIDER: 'outbox',
    });
  });

  it('still refuses them with DEMO_MODE=0', () => {
    expect(envError({ NODE_ENV: 'production', DEMO_MODE: '0' }).message).toContain('AUTH_SECRET');
  });

  it('lets a production build through: secrets belong to the runtime', () => {
    expect(parseEnv({ NODE_ENV: 'production' }, { forStart: false })).toMatchObject({
      NODE_ENV: 'production',
      AUTH_SECRET: DEMO_AUTH_SECRET,
    });
  });

  it('still checks the shape of variables during a build', () => {
    expect(envError({ NODE_ENV: 'production', PORT: 'abc' }, { forStart: false }).message).toContain('PORT');
  });

  it('allows the demo secret outside production', () => {
    expect(parseEnv({ NODE_ENV: 'development' }).AUTH_SECRET).toBe(DEMO_AUTH_SECRET);
    expect(parseEnv({ NODE_ENV: 'test' }).AUTH_SECRET).toBe(DEMO_AUTH_SECRET);
  });
});

describe('SMS carriers (issue 18)', () => {
  const production = { NODE_ENV: 'production', AUTH_SECRET: REAL_SECRET, PAYMENT_SECRET: REAL_SECRET, ...REAL_IDENTITY };
  const aliyun = {
    SMS_PROVIDER: 'aliyun',
    ALIYUN_SMS_ACCESS_KEY_ID: 'LTAI5tExampleKeyId',
    ALIYUN_SMS_ACCESS_KEY_SECRET: 'exampleAccessKeySecret0000000',
    SMS_SIGN_NAME: '极光数藏',
    SMS_TEMPLATE_ID: 'SMS_465090001',
    SMS_ALIYUN_REFUND_TEMPLATE: 'SMS_465090002',
  };
  const tencent = {
    SMS_PROVIDER: 'tencent',
    TENCENT_SMS_SECRET_ID: 'AKIDexampleSecretId',
    TENCENT_SMS_SECRET_KEY: 'exampleSecretKey000000000000',
    TENCENT_SMS_SDK_APP_ID: '1400006666',
    SMS_SIGN_NAME: '极光数藏',
    SMS_TEMPLATE_ID: '1110',
    SMS_TENCENT_REFUND_TEMPLATE_ID: '1111',
  };
  /** The issues of a production start, apart from the payment sandbox (another issue's business). */
  const smsIssues = (source: Record<string, string>) =>
    envError({ ...production, ...source }).issues.filter((issue) => !issue.startsWith('PAYMENT_PROVIDER'));

  it('starts production without demo mode with a fully configured carrier, at its real host by default', () => {
    for (const carrier of [aliyun, tencent]) expect(smsIssues(carrier)).toEqual([]);
    const env = parseEnv({ ...aliyun, NODE_ENV: 'test' });
    expect(env).toMatchObject({ SMS_PROVIDER: 'aliyun', ALIYUN_SMS_ENDPOINT: 'https://dysmsapi.aliyuncs.com' });
    expect(parseEnv({ ...tencent })).toMatchObject({
      TENCENT_SMS_ENDPOINT: 'https://sms.tencentcloudapi.com',
      TENCENT_SMS_REGION: 'ap-guangzhou',
    });
  });

  it.each([
    ['aliyun', 'ALIYUN_SMS_ACCESS_KEY_ID', aliyun],
    ['aliyun', 'ALIYUN_SMS_ACCESS_KEY_SECRET', aliyun],
    ['aliyun', 'SMS_SIGN_NAME', aliyun],
    ['aliyun', 'SMS_TEMPLATE_ID', aliyun],
    ['tencent', 'TENCENT_SMS_SECRET_ID', tencent],
    ['tencent', 'TENCENT_SMS_SECRET_KEY', tencent],
    ['tencent', 'TENCENT_SMS_SDK_APP_ID', tencent],
    ['tencent', 'SMS_TEMPLATE_ID', tencent],
  ])('refuses to start %s without %s, naming it on a line of its own', (provider, missing, carrier) => {
    const source: Record<string, string> = { ...carrier };
    delete source[missing];
    expect(smsIssues(source)).toEqual([`${missing} is required with SMS_PROVIDER=${provider}`]);
    // An empty value is a missing one; outside production too.
    expect(envError({ ...carrier, [missing]: '' }).issues).toEqual([`${missing} is required with SMS_PROVIDER=${provider}`]);
  });

  it('names every missing variable at once', () => {
    expect(smsIssues({ SMS_PROVIDER: 'tencent' })).toEqual([
      'TENCENT_SMS_SECRET_ID is required with SMS_PROVIDER=tencent',
      'TENCENT_SMS_SECRET_KEY is required with SMS_PROVIDER=tencent',
      'TENCENT_SMS_SDK_APP_ID is required with SMS_PROVIDER=tencent',
      'SMS_SIGN_NAME is required with SMS_PROVIDER=tencent',
      'SMS_TEMPLATE_ID is required with SMS_PROVIDER=tencent',
      'SMS_TENCENT_REFUND_TEMPLATE_ID is required in production with SMS_PROVIDER=tencent: refunded buyers are sent a text through this approved template',
    ]);
  });

  it('refuses to start production with a carrier and no refund template of that carrier (issue 32), and only production', () => {
    const { SMS_ALIYUN_REFUND_TEMPLATE: _a, ...aliyunWithout } = aliyun;
    const { SMS_TENCENT_REFUND_TEMPLATE_ID: _t, ...tencentWithout } = tencent;
    void _a;
    void _t;
    expect(smsIssues(aliyunWithout)).toEqual([
      'SMS_ALIYUN_REFUND_TEMPLATE is required in production with SMS_PROVIDER=aliyun: refunded buyers are sent a text through this approved template',
    ]);
    // The other carrier's refund template is not this one's.
    expect(smsIssues({ ...tencentWithout, SMS_ALIYUN_REFUND_TEMPLATE: 'SMS_465090002' })).toEqual([
      'SMS_TENCENT_REFUND_TEMPLATE_ID is required in production with SMS_PROVIDER=tencent: refunded buyers are sent a text through this approved template',
    ]);
    // Outside production the text is kept in the outbox with an [alert] instead (lib/auth/sms-outbox.ts).
    expect(parseEnv({ ...aliyunWithout, NODE_ENV: 'test' }).SMS_ALIYUN_REFUND_TEMPLATE).toBeUndefined();
    expect(envError({ ...aliyun, SMS_ALIYUN_REFUND_TEMPLATE: 'refund' }).issues[0]).toMatch(
      /^SMS_ALIYUN_REFUND_TEMPLATE must be an Alibaba/,
    );
    expect(envError({ ...tencent, SMS_TENCENT_REFUND_TEMPLATE_ID: 'SMS_1' }).issues[0]).toMatch(/^SMS_TENCENT_REFUND_TEMPLATE_ID must be/);
  });

  it('still refuses the outbox in production, and leaves a build alone', () => {
    expect(smsIssues({})).toEqual([expect.stringMatching(/^SMS_PROVIDER is the demo outbox provider/)]);
    expect(parseEnv({ NODE_ENV: 'production', SMS_PROVIDER: 'aliyun' }, { forStart: false }).SMS_PROVIDER).toBe('aliyun');
  });

  it('takes a local endpoint for tests, and refuses plain http to another machine in production', () => {
    expect(parseEnv({ ...tencent, TENCENT_SMS_ENDPOINT: 'http://127.0.0.1:3401' }).TENCENT_SMS_ENDPOINT).toBe('http://127.0.0.1:3401');
    expect(smsIssues({ ...aliyun, ALIYUN_SMS_ENDPOINT: 'http://127.0.0.1:3401' })).toEqual([]);
    expect(smsIssues({ ...aliyun, ALIYUN_SMS_ENDPOINT: 'http://dysmsapi.aliyuncs.com' })).toEqual([
      'ALIYUN_SMS_ENDPOINT must be https:// in production, or http:// to this machine (127.0.0.1, ::1 or localhost: a relay)',
    ]);
    expect(envError({ ...aliyun, ALIYUN_SMS_ENDPOINT: 'https://dysmsapi.aliyuncs.com/path' }).issues[0]).toMatch(/^ALIYUN_SMS_ENDPOINT /);
  });

  it('refuses an unknown provider, a bad application id and a bad region', () => {
    expect(envError({ SMS_PROVIDER: 'twilio' }).issues[0]).toMatch(/^SMS_PROVIDER must be 'outbox', 'aliyun' or 'tencent'/);
    expect(envError({ ...tencent, TENCENT_SMS_SDK_APP_ID: 'app' }).issues[0]).toMatch(/^TENCENT_SMS_SDK_APP_ID /);
    expect(envError({ ...tencent, TENCENT_SMS_REGION: 'Guangzhou' }).issues[0]).toMatch(/^TENCENT_SMS_REGION /);
  });
});

describe('client networks of the SMS limits (issue 29)', () => {
  it('counts IPv4 addresses one by one and a network like an address by default', () => {
    expect(addressLimitsOf(parseEnv({}))).toEqual(DEFAULT_ADDRESS_LIMITS);
    expect(DEFAULT_ADDRESS_LIMITS).toEqual({ perMinute: 5, perHour: 30, networkPerMinute: 5, networkPerHour: 30, ipv4NetworkPrefix: 32 });
  });

  it('keeps a deployment that raised the per-IP limits working: its networks follow them unless set', () => {
    expect(addressLimitsOf(parseEnv({ SMS_CODES_PER_IP_MINUTE: '20', SMS_CODES_PER_IP_HOUR: '300' }))).toMatchObject({
      perMinute: 20,
      perHour: 300,
      networkPerMinute: 20,
      networkPerHour: 300,
    });
    expect(
      addressLimitsOf(parseEnv({ SMS_IPV4_NETWORK_PREFIX: '24', SMS_CODES_PER_NETWORK_MINUTE: '50', SMS_CODES_PER_NETWORK_HOUR: '600' })),
    ).toEqual({ perMinute: 5, perHour: 30, networkPerMinute: 50, networkPerHour: 600, ipv4NetworkPrefix: 24 });
  });

  it.each(['8', '33', '24.5', 'slash-24'])('refuses SMS_IPV4_NETWORK_PREFIX=%s', (value) => {
    expect(envError({ SMS_IPV4_NETWORK_PREFIX: value }).issues).toEqual(['SMS_IPV4_NETWORK_PREFIX must be a prefix length from 16 to 32']);
  });

  it('refuses a network allowance below the address allowance', () => {
    expect(envError({ SMS_CODES_PER_IP_HOUR: '100', SMS_CODES_PER_NETWORK_HOUR: '40' }).issues).toEqual([
      'SMS_CODES_PER_NETWORK_HOUR must be at least SMS_CODES_PER_IP_HOUR (100): a network holds at least one address',
    ]);
  });
});

describe('publicOrigin', () => {
  const build = (source: Record<string, string>) => parseEnv(source, { forStart: false });

  it('uses http and the server port in development', () => {
    expect(publicOrigin('aurora.localhost', build({}))).toBe('http://aurora.localhost:3000');
    expect(publicOrigin('aurora.localhost', build({ PORT: '3100' }))).toBe('http://aurora.localhost:3100');
  });

  it('uses https without a port in production', () => {
    expect(publicOrigin('aurora.shop.example', build({ NODE_ENV: 'production', PORT: '8080' }))).toBe('https://aurora.shop.example');
  });

  it('stays on http with the port for a production-built demo', () => {
    expect(publicOrigin('aurora.localhost', build({ NODE_ENV: 'production', DEMO_MODE: '1', PORT: '3100' }))).toBe(
      'http://aurora.localhost:3100',
    );
  });

  it('follows PUBLIC_SCHEME and PUBLIC_PORT', () => {
    expect(publicOrigin('aurora.localhost', build({ PUBLIC_SCHEME: 'https' }))).toBe('https://aurora.localhost');
    expect(publicOrigin('aurora.localhost', build({ PUBLIC_SCHEME: 'https', PUBLIC_PORT: '8443' }))).toBe('https://aurora.localhost:8443');
    expect(publicOrigin('aurora.shop.example', build({ NODE_ENV: 'production', PUBLIC_SCHEME: 'http' }))).toBe(
      'http://aurora.shop.example:3000',
    );
    expect(publicOrigin('aurora.localhost', build({ PORT: '3000', PUBLIC_PORT: '8080' }))).toBe('http://aurora.localhost:8080');
  });

  it('omits the default port of the scheme', () => {
    expect(publicOrigin('aurora.localhost', build({ PORT: '80' }))).toBe('http://aurora.localhost');
    expect(publicOrigin('aurora.shop.example', build({ PUBLIC_SCHEME: 'https', PUBLIC_PORT: '443' }))).toBe('https://aurora.shop.example');
    expect(publicOrigin('aurora.shop.example', build({ PUBLIC_SCHEME: 'http', PUBLIC_PORT: '80' }))).toBe('http://aurora.shop.example');
  });
});

describe('buyLaneRunning', () => {
  it('lets 128 buy calls in at once on either database, unless BUY_MAX_RUNNING says', () => {
    expect(buyLaneRunning(parseEnv({}))).toBe(128);
    expect(buyLaneRunning(parseEnv({ DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db' }))).toBe(128);
    expect(buyLaneRunning(parseEnv({ BUY_MAX_RUNNING: '8', DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db' }))).toBe(8);
  });

  it('refuses a BUY_MAX_RUNNING that is not a whole number of 1 or more', () => {
    expect(envError({ BUY_MAX_RUNNING: '0' }).message).toMatch(/BUY_MAX_RUNNING/);
    expect(envError({ BUY_MAX_RUNNING: 'many' }).message).toMatch(/BUY_MAX_RUNNING/);
  });

  describe('channel domains (issue 31)', () => {
    it('reads the DNS target, the resolver and the periods, normalised, with the demo operator host by default', () => {
      expect(parseEnv({})).toMatchObject({
        OPERATOR_HOST: 'ops.localhost',
        DOMAIN_TARGET_IPS: [],
        DNS_RESOLVER: [],
        DOMAIN_RECHECK_MINUTES: 60,
        DOMAIN_GRACE_HOURS: 72,
      });
      expect(
        parseEnv({
          OPERATOR_HOST: 'Ops.Shop.Example',
          DOMAIN_TARGET: 'stores.shop.example.',
          DOMAIN_TARGET_IPS: '203.0.113.10, 2001:db8::10',
          DNS_RESOLVER: '223.5.5.5, 127.0.0.1:5391, [::1]:53',
          DOMAIN_RECHECK_MINUTES: '15',
          DOMAIN_GRACE_HOURS: '24',
        }),
      ).toMatchObject({
        OPERATOR_HOST: 'ops.shop.example',
        DOMAIN_TARGET: 'stores.shop.example',
        DOMAIN_TARGET_IPS: ['203.0.113.10', '2001:db8::10'],
        DNS_RESOLVER: ['223.5.5.5', '127.0.0.1:5391', '[::1]:53'],
        DOMAIN_RECHECK_MINUTES: 15,
        DOMAIN_GRACE_HOURS: 24,
      });
    });

    it.each([
      ['OPERATOR_HOST', { OPERATOR_HOST: 'https://ops.shop.example' }],
      ['DOMAIN_TARGET', { DOMAIN_TARGET: '203.0.113.10' }],
      ['DOMAIN_TARGET_IPS', { DOMAIN_TARGET_IPS: 'stores.shop.example' }],
      ['DNS_RESOLVER', { DNS_RESOLVER: 'dns.google' }],
      ['DNS_RESOLVER', { DNS_RESOLVER: '127.0.0.1:99999' }],
      ['DOMAIN_RECHECK_MINUTES', { DOMAIN_RECHECK_MINUTES: '0' }],
      ['DOMAIN_GRACE_HOURS', { DOMAIN_GRACE_HOURS: 'forever' }],
    ])('refuses a bad %s, naming it', (name, source) => {
      const error = envError(source);
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]).toMatch(new RegExp(`^${name} `));
    });
  });
});

describe('the operator host (issue 31)', () => {
  it('is ops.localhost unless set, a bare host name when set, and OPS is never the default channel', () => {
    expect(parseEnv({}, { forStart: false }).OPERATOR_HOST).toBe('ops.localhost');
    expect(parseEnv({ OPERATOR_HOST: 'Ops.Example.com' }, { forStart: false }).OPERATOR_HOST).toBe('ops.example.com');
    expect(() => parseEnv({ OPERATOR_HOST: 'https://ops.example.com/' }, { forStart: false })).toThrow(/OPERATOR_HOST must be a host name/);
    expect(() => parseEnv({ DEFAULT_CHANNEL: 'OPS' }, { forStart: false })).toThrow(/DEFAULT_CHANNEL must not be OPS/);
  });
});

describe('the audit trail (issue 31)', () => {
  it('keeps entries 365 days in the Shanghai time zone unless set', () => {
    expect(parseEnv({}, { forStart: false })).toMatchObject({ AUDIT_RETENTION_DAYS: 365, CONSOLE_TIME_ZONE: 'Asia/Shanghai' });
    expect(parseEnv({ AUDIT_RETENTION_DAYS: '180', CONSOLE_TIME_ZONE: 'Europe/Berlin' }, { forStart: false })).toMatchObject({
      AUDIT_RETENTION_DAYS: 180,
      CONSOLE_TIME_ZONE: 'Europe/Berlin',
    });
  });

  it.each([
    ['AUDIT_RETENTION_DAYS', { AUDIT_RETENTION_DAYS: '179' }, /at least 180/],
    ['AUDIT_RETENTION_DAYS', { AUDIT_RETENTION_DAYS: 'forever' }, /whole number/],
    ['AUDIT_RETENTION_DAYS', { AUDIT_RETENTION_DAYS: '200.5' }, /whole number/],
    ['CONSOLE_TIME_ZONE', { CONSOLE_TIME_ZONE: 'Mars/Olympus' }, /IANA time zone/],
  ] as const)('refuses a bad %s, naming it and why', (name, source, why) => {
    const error = envError(source);
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatch(new RegExp(`^${name} `));
    expect(error.issues[0]).toMatch(why);
  });
});
