import { z } from 'zod';
import { DEMO_AUTH_SECRET } from './security/secret';
import { parseTrustedProxies } from './security/forwarded';
import { parseMediaOrigins } from './security/headers';
import { readKey } from './security/keys';
import { normalizeDomainInput, parseDnsServers, parseIpList } from './security/domain-name';
import { DEMO_IDENTITY_HASH_KEY, DEMO_IDENTITY_KEYS, parseIdentityKeys } from './security/identity-keys';

/**
 * Every payment provider built into the storefront, by the name PAYMENT_PROVIDERS lists: lib/payment/providers.ts must
 * have a factory for each (the type check says so), so a deployment cannot list one that is not there.
 */
export const PAYMENT_PROVIDER_NAMES = ['sandbox', 'wechatpay', 'alipay'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDER_NAMES)[number];

export function isPaymentProviderName(name: string): name is PaymentProviderName {
  return (PAYMENT_PROVIDER_NAMES as readonly string[]).includes(name);
}

function trustedProxiesProblem(value: string): string | null {
  try {
    parseTrustedProxies(value);
    return null;
  } catch (error) {
    return (error as Error).message.replace(/^TRUSTED_PROXIES: /, '');
  }
}

/** SMS codes one client address may ask for by default (security review, finding 4); lib/auth/limits.ts reads them. */
export const SMS_IP_LIMIT_DEFAULTS = { perMinute: 5, perHour: 30 } as const;

/** The payment sandbox's notification key when none is set: fine for the demo, refused in production. */
export const DEMO_PAYMENT_SECRET = 'demo-payment-secret-not-for-production-use-0000';

/**
 * Environment, validated once at start (DESIGN §3: every boundary is validated with zod).
 * Every variable is documented in the README.
 */
export { DEMO_AUTH_SECRET };

/** The shortest keeping time of the operators' audit trail (issue 31): six months, as mainland rules ask for logs. */
export const AUDIT_RETENTION_MIN_DAYS = 180;

/** The carriers' API origins (Dysmsapi 2017-05-25; Tencent Cloud SMS 2021-01-11). */
export const ALIYUN_SMS_ENDPOINT = 'https://dysmsapi.aliyuncs.com';
export const TENCENT_SMS_ENDPOINT = 'https://sms.tencentcloudapi.com';

/** The identity vendors' API origins (issue 33: Tencent Cloud faceid 2018-03-01; Alibaba Cloud cloudauth 2019-03-07). */
export const TENCENT_FACEID_ENDPOINT = 'https://faceid.tencentcloudapi.com';
export const ALIYUN_CLOUDAUTH_ENDPOINT = 'https://cloudauth.aliyuncs.com';

/** What each identity vendor needs (checked at start in any mode, one line per missing variable). */
const IDENTITY_PROVIDER_NEEDS = {
  demo: [],
  tencent: ['IDENTITY_TENCENT_SECRET_ID', 'IDENTITY_TENCENT_SECRET_KEY'],
  aliyun: ['IDENTITY_ALIYUN_ACCESS_KEY_ID', 'IDENTITY_ALIYUN_ACCESS_KEY_SECRET'],
} as const;

/** A value that is unset when empty (an `ENV=` line in a file means "not set"). */
const optionalText = z.preprocess((value) => (value === '' ? undefined : value), z.string().trim().min(1).optional());

const endpoint = z.string().regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be an origin such as https://host (no path)');

/** Alipay's live OpenAPI gateway (v2, `gateway.do`). */
export const ALIPAY_GATEWAY = 'https://openapi.alipay.com/gateway.do';

/** A host on this machine: 127.0.0.0/8, ::1, localhost. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * The one rule for every provider endpoint in production (DESIGN §8): TLS to the provider, or plain http to a relay on
 * this machine (an egress proxy that speaks TLS onwards, or a test double), whose traffic never leaves it. Null when
 * the endpoint may be used; else why not.
 */
export function productionEndpointProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null; // its shape is the variable's own check
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return null;
  return 'must be https:// in production, or http:// to this machine (127.0.0.1, ::1 or localhost: a relay)';
}

/** What each carrier needs to send a text (checked at start, one line per missing variable). */
const SMS_PROVIDER_NEEDS = {
  outbox: [],
  aliyun: ['ALIYUN_SMS_ACCESS_KEY_ID', 'ALIYUN_SMS_ACCESS_KEY_SECRET', 'SMS_SIGN_NAME', 'SMS_TEMPLATE_ID'],
  tencent: ['TENCENT_SMS_SECRET_ID', 'TENCENT_SMS_SECRET_KEY', 'TENCENT_SMS_SDK_APP_ID', 'SMS_SIGN_NAME', 'SMS_TEMPLATE_ID'],
} as const;

/** The variable holding each carrier's refund template (issue 32; lib/auth/sms-outbox.ts). */
export const SMS_REFUND_TEMPLATE_VARIABLE = {
  outbox: null,
  aliyun: 'SMS_ALIYUN_REFUND_TEMPLATE',
  tencent: 'SMS_TENCENT_REFUND_TEMPLATE_ID',
} as const;

/**
 * Each carrier's setting of the lottery's text template (issue 35: "notices tell winners"): a winner, and each later
 * round's buyer from the waitlist, is told their turn to buy and its end. Optional: without it no lottery text is
 * queued with that carrier, and `lottery/status` and the goods page still tell the buyer.
 */
export const SMS_LOTTERY_TEMPLATE_VARIABLE = {
  outbox: null,
  aliyun: 'SMS_ALIYUN_LOTTERY_TEMPLATE',
  tencent: 'SMS_TENCENT_LOTTERY_TEMPLATE_ID',
} as const;

/**
 * Each carrier's setting of the closing code's template (issue 36: a closing code is not a login code, and its text
 * says so): the same parameters as the login's (`${code}` and `${minutes}`; Tencent Cloud `{1}` and `{2}`). Optional, so
 * a deployment upgrading starts before its carrier approved the new template (days): unset, a closing code goes out
 * under the login template, with a warning in the log at each send.
 */
export const SMS_CLOSE_TEMPLATE_VARIABLE = {
  outbox: null,
  aliyun: 'SMS_ALIYUN_CLOSE_TEMPLATE',
  tencent: 'SMS_TENCENT_CLOSE_TEMPLATE_ID',
} as const;

/** A host name as channel domains normalise it (lib/channel/domain-host.ts): lower case, punycode, no port. */
const hostName = z.string().transform((value, ctx) => {
  const normalized = normalizeDomainInput(value);
  if ('host' in normalized) return normalized.host;
  ctx.addIssue({ code: 'custom', message: 'must be a host name such as ops.shop.example (no scheme, port or path)' });
  return z.NEVER;
});

/** A comma-separated list checked by `parse`, which throws with what is wrong; empty by default. */
function listOf(parse: (value: string) => string[]) {
  return z
    .string()
    .default('')
    .transform((value, ctx) => {
      try {
        return parse(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  PGLITE_DIR: z.string().min(1).default('.data/pglite'),
  BRAND_WORD: z.string().min(1, 'must not be empty').default('localhost'),
  DEFAULT_CHANNEL: z
    .string()
    .regex(/^[A-Z0-9]+$/, 'must be a channel key: uppercase letters and digits')
    // issue 31: OPS is the operator host's key, reserved; it can never be a channel.
    .refine((key) => key !== 'OPS', "must not be OPS: that key is the operator console's, and never a channel's")
    .optional(),
  PUBLIC_SCHEME: z.enum(['http', 'https']).optional(),
  PUBLIC_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEMO_AUTH_SECRET),
  /**
   * Where verification texts go (lib/auth/sms.ts): `outbox` (demo, sends nothing), `aliyun` (Alibaba Cloud SMS) or
   * `tencent` (Tencent Cloud SMS). A carrier needs its credentials and SMS_SIGN_NAME / SMS_TEMPLATE_ID (checked at start).
   */
  SMS_PROVIDER: z.enum(['outbox', 'aliyun', 'tencent'], { error: "must be 'outbox', 'aliyun' or 'tencent'" }).default('outbox'),
  /** The approved sign name and code template at the carrier; a channel's own (channels.sms_sign_name, sms_template_id) wins. */
  SMS_SIGN_NAME: optionalText,
  SMS_TEMPLATE_ID: optionalText,
  ALIYUN_SMS_ACCESS_KEY_ID: optionalText,
  ALIYUN_SMS_ACCESS_KEY_SECRET: optionalText,
  /** Alibaba Cloud SMS API origin; another one only for a test double. */
  ALIYUN_SMS_ENDPOINT: endpoint.default(ALIYUN_SMS_ENDPOINT),
  TENCENT_SMS_SECRET_ID: optionalText,
  TENCENT_SMS_SECRET_KEY: optionalText,
  /** The SmsSdkAppId of the SMS application in Tencent Cloud's console. */
  TENCENT_SMS_SDK_APP_ID: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().regex(/^\d+$/, 'must be the digits of the SmsSdkAppId (e.g. 1400006666)').optional(),
  ),
  TENCENT_SMS_REGION: z
    .string()
    .regex(/^[a-z]+(-[a-z]+)+$/, 'must be a Tencent Cloud region such as ap-guangzhou')
    .default('ap-guangzhou'),
  /** Tencent Cloud SMS API origin; another one only for a test double. */
  TENCENT_SMS_ENDPOINT: endpoint.default(TENCENT_SMS_ENDPOINT),
  /**
   * The refund's text (issue 32: a refunded buyer "gets a text"): the carrier's approved notice template, one per
   * carrier. Alibaba Cloud's takes `${order}` (the order number's last 6 characters) and `${amount}` (yuan, e.g.
   * 199.00); Tencent Cloud's `{1}` the order's last 6 characters and `{2}` the amount. Production with a carrier and
   * without its refund template refuses to start (docs/decisions.md, "The refund's text").
   */
  SMS_ALIYUN_REFUND_TEMPLATE: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .regex(/^SMS_\d+$/, 'must be an Alibaba Cloud template code such as SMS_465090002')
      .optional(),
  ),
  SMS_TENCENT_REFUND_TEMPLATE_ID: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().regex(/^\d+$/, 'must be the digits of a Tencent Cloud template id (e.g. 1110)').optional(),
  ),
  /**
   * The lottery's text (issue 35; lib/sale/lottery-texts.ts): Alibaba Cloud's template takes `${goods}` (the goods' name,
   * at most 20 characters) and `${until}` (the end of the buyer's turn, `MM-dd HH:mm` in the channel's time zone);
   * Tencent Cloud's `{1}` and `{2}` the same. Optional: unset with a carrier, no lottery text is queued.
   */
  SMS_ALIYUN_LOTTERY_TEMPLATE: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .regex(/^SMS_\d+$/, 'must be an Alibaba Cloud template code such as SMS_465090003')
      .optional(),
  ),
  SMS_TENCENT_LOTTERY_TEMPLATE_ID: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().regex(/^\d+$/, 'must be the digits of a Tencent Cloud template id (e.g. 1112)').optional(),
  ),
  /**
   * The closing code's text (issue 36; docs/profile.md, "Closing the account"): Alibaba Cloud's template takes `${code}`
   * and `${minutes}`, Tencent Cloud's `{1}` the code and `{2}` the minutes, as the login's; its words say the code closes
   * the account. Optional (see SMS_CLOSE_TEMPLATE_VARIABLE).
   */
  SMS_ALIYUN_CLOSE_TEMPLATE: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .regex(/^SMS_\d+$/, 'must be an Alibaba Cloud template code such as SMS_465090004')
      .optional(),
  ),
  SMS_TENCENT_CLOSE_TEMPLATE_ID: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().regex(/^\d+$/, 'must be the digits of a Tencent Cloud template id (e.g. 1113)').optional(),
  ),
  DEMO_MODE: z.enum(['0', '1']).optional(),
  // The buyer's real-name verification (issue 33; lib/identity, docs/deploy.md "Real-name verification").
  /** Who checks a name and an ID number: `demo` (demo mode only), `tencent` (faceid) or `aliyun` (cloudauth). */
  IDENTITY_PROVIDER: z.enum(['demo', 'tencent', 'aliyun'], { error: "must be 'demo', 'tencent' or 'aliyun'" }).default('demo'),
  /** The sealing keys, `id:<base64 of 32 bytes>` comma-separated, the sealing one first; every listed key opens. */
  IDENTITY_KEYS: z
    .string()
    .default(DEMO_IDENTITY_KEYS)
    .superRefine((value, ctx) => {
      try {
        parseIdentityKeys(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
  /** The key of the ID numbers' keyed hash; never rotated (the hashes are what uniqueness and blocks match). */
  IDENTITY_HASH_KEY: z.string().min(32, 'must be at least 32 characters').default(DEMO_IDENTITY_HASH_KEY),
  /** The vendors' API keys: a CAM / RAM key allowed to call faceid / cloudauth only (not the SMS keys, docs/deploy.md). */
  IDENTITY_TENCENT_SECRET_ID: optionalText,
  IDENTITY_TENCENT_SECRET_KEY: optionalText,
  IDENTITY_TENCENT_ENDPOINT: endpoint.default(TENCENT_FACEID_ENDPOINT),
  IDENTITY_ALIYUN_ACCESS_KEY_ID: optionalText,
  IDENTITY_ALIYUN_ACCESS_KEY_SECRET: optionalText,
  IDENTITY_ALIYUN_ENDPOINT: endpoint.default(ALIYUN_CLOUDAUTH_ENDPOINT),
  /**
   * The payment providers this deployment runs (DESIGN §7), comma-separated: `sandbox` (the built-in cashier that plays
   * one), `wechatpay`, `alipay`. Which of them a channel offers is the channel's `payment_providers`. The old single
   * `PAYMENT_PROVIDER` is read as a one-item list when this is unset (parseEnv).
   */
  PAYMENT_PROVIDERS: z
    .string()
    .default('sandbox')
    .transform((value, ctx): PaymentProviderName[] => {
      const names = value
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      if (names.length === 0) ctx.addIssue({ code: 'custom', message: 'must name at least one payment provider' });
      for (const name of names) {
        if (!isPaymentProviderName(name))
          ctx.addIssue({ code: 'custom', message: `${name} is not a payment provider; known: ${PAYMENT_PROVIDER_NAMES.join(', ')}` });
      }
      if (new Set(names).size !== names.length) ctx.addIssue({ code: 'custom', message: 'names a provider twice' });
      return names.filter(isPaymentProviderName);
    }),
  /** WeChat Pay API v3 (lib/payment/wechatpay.ts; README): required when PAYMENT_PROVIDERS lists `wechatpay`. */
  WECHATPAY_MCHID: z
    .string()
    .regex(/^\d{1,32}$/, 'must be the merchant number (digits)')
    .optional(),
  WECHATPAY_APPID: z
    .string()
    .regex(/^wx[0-9a-zA-Z]{16}$/, 'must be an app id: wx and 16 letters or digits')
    .optional(),
  /** Serial number of the merchant API certificate, sent in every request's Authorization. */
  WECHATPAY_SERIAL: z
    .string()
    .regex(/^[0-9A-Fa-f]{8,64}$/, "must be the merchant certificate's serial number (hex)")
    .optional(),
  /** The merchant API private key (apiclient_key.pem): PEM text or a file path. */
  WECHATPAY_PRIVATE_KEY: z.string().optional(),
  /** The APIv3 key that encrypts notifications: exactly 32 bytes. */
  WECHATPAY_APIV3_KEY: z
    .string()
    .refine((v) => Buffer.byteLength(v, 'utf8') === 32, 'must be exactly 32 bytes (the APIv3 key set in the merchant platform)')
    .optional(),
  /** WeChat Pay's public key (PEM text or a file path) and its id (`PUB_KEY_ID_…`, the Wechatpay-Serial it signs with). */
  WECHATPAY_PLATFORM_PUBLIC_KEY: z.string().optional(),
  WECHATPAY_PLATFORM_PUBLIC_KEY_ID: z
    .string()
    .regex(/^\S{1,64}$/, 'must be the id of the WeChat Pay public key')
    .optional(),
  /** Where WeChat Pay posts notifications: our https://<host>/api/pay/notify/wechatpay, with no query string. */
  WECHATPAY_NOTIFY_URL: z
    .string()
    .regex(/^https:\/\/[^\s?#]+$/, 'must be an https:// URL without a query string (WeChat Pay refuses others)')
    .optional(),
  /** The API's origin; tests point it at a local fake. */
  WECHATPAY_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^\s/]+$/, 'must be an origin such as https://api.mch.weixin.qq.com')
    .default('https://api.mch.weixin.qq.com'),
  /** Alipay (lib/payment/alipay.ts; README): required when PAYMENT_PROVIDERS lists `alipay`. The app id on the open platform. */
  ALIPAY_APP_ID: z
    .string()
    .trim()
    .regex(/^\d{10,32}$/, 'must be the app id of the Alipay open platform app (digits, e.g. 2021000123456789)')
    .optional(),
  /** Our app's RSA2 private key: PEM (PKCS#1 or PKCS#8, `\n` allowed), bare base64 as Alipay's key tool prints it, or a file path. */
  ALIPAY_PRIVATE_KEY: z.string().optional(),
  /** Alipay's public key (not our app's; public-key mode), in the same forms. */
  ALIPAY_PUBLIC_KEY: z.string().optional(),
  /** Where Alipay posts notifications: our https://<host>/api/pay/notify/alipay. */
  ALIPAY_NOTIFY_URL: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/?#]+\/\S*$/, 'must be an http(s) URL, e.g. https://shop.example/api/pay/notify/alipay')
    .optional(),
  /** Alipay's OpenAPI gateway; tests point it at a local fake. */
  ALIPAY_GATEWAY: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, `must be an http(s) URL such as ${ALIPAY_GATEWAY}`)
    .default(ALIPAY_GATEWAY),
  /**
   * The AppSecret of WECHATPAY_APPID's official account: WeChat's OAuth (`snsapi_base`) needs it to learn a buyer's
   * openid, which JSAPI payment inside WeChat needs. Unset, WeChat Pay is offered only as H5 (outside WeChat).
   */
  WECHATPAY_APPSECRET: z
    .string()
    .regex(/^\S{16,64}$/, 'must be the official account AppSecret')
    .optional(),
  /**
   * issue 36: the AppSecrets of the WeChat official accounts channels name for their share card (a channel's
   * `wechat_app_id`, set in the console; lib/wechat, docs/wechat.md), as `appid:secret` entries, comma-separated. The
   * account of WECHATPAY_APPID needs no entry here: WECHATPAY_APPSECRET is its secret.
   */
  WECHAT_MP_SECRETS: z
    .preprocess((value) => (value === '' ? undefined : value), z.string().optional())
    .transform((value, ctx) => {
      const secrets = new Map<string, string>();
      for (const entry of (value ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean)) {
        const match = /^(wx[0-9a-zA-Z]{16}):(\S{16,64})$/.exec(entry);
        if (!match) {
          ctx.addIssue({ code: 'custom', message: 'must list appid:secret entries (wx and 16 letters or digits, a colon, the AppSecret)' });
          return z.NEVER;
        }
        secrets.set(match[1]!, match[2]!);
      }
      return secrets;
    }),
  /** WeChat's API origin for the official accounts' access_token and jsapi_ticket (lib/wechat); tests point it at a local fake. */
  WECHAT_API_BASE: endpoint.default('https://api.weixin.qq.com'),
  /** Key of the HMAC on payment notifications. */
  PAYMENT_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEMO_PAYMENT_SECRET),
  /** How long an unpaid order holds its stock (DESIGN §7: 5 minutes by default). */
  ORDER_PAY_TIMEOUT_SECONDS: z.coerce
    .number()
    .int('must be a whole number of seconds')
    .min(30, 'must be at least 30')
    .max(86_400, 'must be at most 86400')
    .default(300),
  /** Background jobs (order expiry sweep, chain-up): `inline` in the server process, `off` when `npm run worker` runs them. */
  JOBS: z.enum(['inline', 'off']).default('inline'),
  /**
   * Buy calls in progress per server process beyond which new ones are shed with HTTP 503 (DESIGN §5; docs/orders.md,
   * "Load shedding"): a guard for memory and the database's queue, not a pace.
   */
  BUY_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(10_000).default(1000),
  /**
   * Buy calls let into the app at once per server process; the others wait at the door in arrival order (the buy lane,
   * lib/server/buy-lane.ts; docs/orders.md, "The buy lane"). Waiting ones count toward BUY_MAX_IN_FLIGHT. Unset: 128
   * (`buyLaneRunning`).
   */
  BUY_MAX_RUNNING: z.coerce.number().int().min(1).max(10_000).optional(),
  /**
   * Event-loop lag (ms) beyond which buy calls are shed with HTTP 503. A shed buyer taps again after a second
   * (Retry-After), so shedding spares a wait only once the line is longer than that (DESIGN §5).
   */
  BUY_MAX_LAG_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /**
   * Buy calls of one client address (an IPv6 /64 as one) in the buy lane at once, at the door, waiting or running
   * (issue 29): beyond it the next is answered busy, so one machine cannot fill the line. Buyers behind one carrier
   * NAT address share it: raise it where many buy from one address (docs/orders.md, "The buy lane").
   */
  BUY_MAX_PER_CLIENT: z.coerce.number().int().min(1).max(10_000).default(32),
  /** How long a buy call's body may take to arrive once its headers have (issue 29): 408 and the connection closed beyond. */
  BUY_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  /** How long a buy call waits for a place in the buy lane before it is answered busy (the store's client gives up at 5 s). */
  BUY_MAX_WAIT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * Proxies whose forwarding headers are believed (server.ts, docs/security.md): IPs or CIDR ranges, comma-separated.
   * None by default: the client is the socket's peer.
   */
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .refine((value) => trustedProxiesProblem(value) === null, {
      error: (issue) => trustedProxiesProblem(String(issue.input)) ?? 'is not a list of IPs or CIDR ranges',
    }),
  /** SMS codes per client IP per minute and per hour (security review, finding 4); raise them when many buyers share one NAT address. */
  SMS_CODES_PER_IP_MINUTE: z.coerce.number().int().min(1).max(100_000).default(SMS_IP_LIMIT_DEFAULTS.perMinute),
  SMS_CODES_PER_IP_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(SMS_IP_LIMIT_DEFAULTS.perHour),
  /**
   * Issue 29: the SMS, captcha and wrong-code limits also count a client's network, since one machine holds many
   * addresses: an IPv6 /64, and IPv4 addresses by this prefix (32: each address on its own, the default, because
   * mainland carriers put many phones behind one carrier-NAT address; 24 groups a.b.c.*). lib/rate-limit/address.ts.
   */
  SMS_IPV4_NETWORK_PREFIX: z.coerce
    .number({ error: 'must be a prefix length from 16 to 32' })
    .int('must be a prefix length from 16 to 32')
    .min(16, 'must be a prefix length from 16 to 32')
    .max(32, 'must be a prefix length from 16 to 32')
    .default(32),
  /** SMS codes per network per minute and per hour; unset, the per-IP figures (a /64 is one client). */
  SMS_CODES_PER_NETWORK_MINUTE: z.coerce.number().int().min(1).max(100_000).optional(),
  SMS_CODES_PER_NETWORK_HOUR: z.coerce.number().int().min(1).max(1_000_000).optional(),
  /**
   * The operator console's host (issue 31): the console is served there and nowhere else, and no channel is served
   * there. By spec §1's rule its key is OPS (`ops.<brand domain>`), which is reserved. The demo's: ops.localhost.
   */
  OPERATOR_HOST: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/,
      'must be a host name such as ops.example.com (no scheme, port or path)',
    )
    .default('ops.localhost'),
  /** Where browsers send tracking batches (spec §7 log service); ours by default. */
  TRACKING_URL: z
    .string()
    .regex(/^(\/(?!\/)|https?:\/\/)\S+$/, 'must be a site path such as /api/log/track or an http(s) URL')
    .default('/api/log/track'),
  /**
   * The https origins a channel's skin images may come from besides this site (issue 29), comma-separated, e.g.
   * `https://cdn.example.com`; none by default. The page CSP's img-src and next/image allow exactly these.
   */
  MEDIA_ORIGINS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      try {
        return parseMediaOrigins(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message.replace(/^MEDIA_ORIGINS: /, '') });
        return z.NEVER;
      }
    }),
  /**
   * Where uploaded images are kept (issue 31, "Media storage"; lib/media/store.ts): `folder` (MEDIA_DIR, served by the
   * storefront at /media/<key>) or `s3` (S3-compatible object storage: Amazon S3, Alibaba Cloud OSS, Tencent COS).
   */
  MEDIA_STORAGE: z.enum(['folder', 's3'], { error: "must be 'folder' or 's3'" }).default('folder'),
  /** The folder store's folder; every server of the deployment must see the same one. */
  MEDIA_DIR: z.string().min(1, 'must not be empty').default('.data/media'),
  /** The object storage's API origin (e.g. https://oss-cn-hangzhou.aliyuncs.com); unset, Amazon S3's for the region. */
  MEDIA_S3_ENDPOINT: z.preprocess((value) => (value === '' ? undefined : value), endpoint.optional()),
  MEDIA_S3_BUCKET: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3 to 63 lower-case letters, digits, dots and dashes')
      .optional(),
  ),
  MEDIA_S3_REGION: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be a region such as oss-cn-hangzhou, ap-guangzhou or us-east-1')
      .optional(),
  ),
  MEDIA_S3_ACCESS_KEY_ID: optionalText,
  MEDIA_S3_SECRET_ACCESS_KEY: optionalText,
  /** `1`: the bucket in the URL's path (a local S3 server); `0` (default): in the host name, as OSS and COS require. */
  MEDIA_S3_PATH_STYLE: z.enum(['0', '1'], { error: "must be '0' or '1'" }).default('0'),
  /**
   * Where pages read stored images with MEDIA_STORAGE=s3: the bucket's public URL or a CDN's in front of it, to which
   * a key is appended (a `/` is added at the end when missing), e.g. `https://img.example.com/` or
   * `https://shop-media.oss-cn-hangzhou.aliyuncs.com/`.
   */
  MEDIA_PUBLIC_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .trim()
      .regex(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[A-Za-z0-9._~\/-]*)?$/, 'must be an http(s) URL such as https://img.example.com/')
      .transform((value) => (value.endsWith('/') ? value : `${value}/`))
      .optional(),
  ),
  // Channel domains (issue 31, "Domains"; lib/channel/domains.ts, docs/deploy.md "Custom domains").
  /** The name a custom domain's CNAME must point at (e.g. `stores.shop.example`); unset, no CNAME is asked for. */
  DOMAIN_TARGET: z.preprocess((value) => (value === '' ? undefined : value), hostName.optional()),
  /** The addresses a custom domain's A/AAAA records must point at (an apex cannot have a CNAME), comma-separated. */
  DOMAIN_TARGET_IPS: listOf(parseIpList),
  /** The DNS servers a domain check asks, comma-separated (`223.5.5.5`, `127.0.0.1:5391`); unset, the machine's. */
  DNS_RESOLVER: listOf(parseDnsServers),
  /** How often the worker checks every custom domain again. */
  DOMAIN_RECHECK_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(60),
  /** How long a verified domain whose check fails is still served (a DNS blip never takes a store down). */
  DOMAIN_GRACE_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 24)
    .default(72),
  /**
   * The console's time zone (issue 31): the audit page's dates and its date filters are read in it, and shown with it.
   */
  CONSOLE_TIME_ZONE: z
    .string()
    .default('Asia/Shanghai')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Asia/Shanghai'),
  /**
   * How long the operators' audit trail keeps an entry (issue 31), in days. At least 180: mainland rules (the
   * Cybersecurity Law, art. 21) ask for network logs to be kept no less than six months; the default, a year, covers
   * a yearly review. The worker deletes older entries (lib/operator/audit-retention.ts).
   */
  AUDIT_RETENTION_DAYS: z.coerce
    .number({ error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(AUDIT_RETENTION_MIN_DAYS, `must be at least ${AUDIT_RETENTION_MIN_DAYS} (six months: mainland rules ask for at least that)`)
    .max(3650, 'must be 3650 (ten years) or less')
    .default(365),
  // Alerts and the reports (issue 32; lib/monitor/alerts.ts, docs/reports.md).
  /** Where alerts are posted (a WeCom, DingTalk or Feishu robot, or any URL taking JSON); unset, none is posted. */
  ALERT_WEBHOOK_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .refine((value) => {
        try {
          return ['https:', 'http:'].includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }, 'must be an http(s) URL')
      .optional(),
  ),
  /** The body the webhook takes: json (ours), wecom, dingtalk or feishu. */
  ALERT_WEBHOOK_FORMAT: z.enum(['json', 'wecom', 'dingtalk', 'feishu']).default('json'),
  /** The robot's signing secret (DingTalk, Feishu) or ours for json; unset, posts are not signed. */
  ALERT_WEBHOOK_SECRET: z.preprocess((value) => (value === '' ? undefined : value), z.string().min(8).max(200).optional()),
  /** Busy answers in one minute of one process above which a `busy` alert is raised. */
  ALERT_BUSY_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(100),
});

/**
 * What each payment provider a deployment lists needs at start: the variables that must be set, the keys among them
 * that must parse (and how large an RSA key must be, where the provider says).
 */
const PAYMENT_PROVIDER_NEEDS: Record<
  PaymentProviderName,
  {
    required: readonly (keyof z.infer<typeof envSchema>)[];
    keys: readonly (readonly [
      'WECHATPAY_PRIVATE_KEY' | 'WECHATPAY_PLATFORM_PUBLIC_KEY' | 'ALIPAY_PRIVATE_KEY' | 'ALIPAY_PUBLIC_KEY',
      'private' | 'public',
    ])[];
    rsaBits?: { min: number; who: string };
  }
> = {
  sandbox: { required: [], keys: [] },
  wechatpay: {
    required: [
      'WECHATPAY_MCHID',
      'WECHATPAY_APPID',
      'WECHATPAY_SERIAL',
      'WECHATPAY_PRIVATE_KEY',
      'WECHATPAY_APIV3_KEY',
      'WECHATPAY_PLATFORM_PUBLIC_KEY',
      'WECHATPAY_PLATFORM_PUBLIC_KEY_ID',
      'WECHATPAY_NOTIFY_URL',
    ],
    keys: [
      ['WECHATPAY_PRIVATE_KEY', 'private'],
      ['WECHATPAY_PLATFORM_PUBLIC_KEY', 'public'],
    ],
  },
  alipay: {
    required: ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY', 'ALIPAY_NOTIFY_URL'],
    keys: [
      ['ALIPAY_PRIVATE_KEY', 'private'],
      ['ALIPAY_PUBLIC_KEY', 'public'],
    ],
    // RSA2 is SHA256withRSA with a key of 2048 bits (Alipay's key tool makes those).
    rsaBits: { min: 2048, who: "Alipay's RSA2" },
  },
};

/** Every endpoint of a provider, and when the deployment talks to it (the production rule holds for those in use). */
const PROVIDER_ENDPOINTS = [
  ['ALIYUN_SMS_ENDPOINT', (e: Env) => e.SMS_PROVIDER === 'aliyun'],
  ['TENCENT_SMS_ENDPOINT', (e: Env) => e.SMS_PROVIDER === 'tencent'],
  ['WECHATPAY_ENDPOINT', (e: Env) => e.PAYMENT_PROVIDERS.includes('wechatpay')],
  ['IDENTITY_TENCENT_ENDPOINT', (e: Env) => e.IDENTITY_PROVIDER === 'tencent'],
  ['IDENTITY_ALIYUN_ENDPOINT', (e: Env) => e.IDENTITY_PROVIDER === 'aliyun'],
  ['ALIPAY_GATEWAY', (e: Env) => e.PAYMENT_PROVIDERS.includes('alipay')],
  ['WECHAT_API_BASE', (e: Env) => e.WECHAT_MP_SECRETS.size > 0 || Boolean(e.WECHATPAY_APPSECRET)],
] as const;

/**
 * At start: each listed provider's secrets are there and usable (keys parse), one line per problem; and production
 * refuses demo secrets and demo providers (DESIGN §8), unless DEMO_MODE=1.
 */
const productionEnvSchema = envSchema.superRefine((env, ctx) => {
  // A network holds at least one address: a network allowance below the address's own would make the latter moot.
  for (const [network, address] of [
    ['SMS_CODES_PER_NETWORK_MINUTE', 'SMS_CODES_PER_IP_MINUTE'],
    ['SMS_CODES_PER_NETWORK_HOUR', 'SMS_CODES_PER_IP_HOUR'],
  ] as const) {
    const value = env[network];
    if (value !== undefined && value < env[address]) {
      ctx.addIssue({
        code: 'custom',
        path: [network],
        message: `must be at least ${address} (${env[address]}): a network holds at least one address`,
      });
    }
  }
  // A carrier without its credentials would fail every code: refused at start, in any mode.
  for (const name of SMS_PROVIDER_NEEDS[env.SMS_PROVIDER]) {
    if (env[name] === undefined) {
      ctx.addIssue({ code: 'custom', path: [name], message: `is required with SMS_PROVIDER=${env.SMS_PROVIDER}` });
    }
  }
  for (const name of IDENTITY_PROVIDER_NEEDS[env.IDENTITY_PROVIDER]) {
    if (env[name] === undefined) {
      ctx.addIssue({ code: 'custom', path: [name], message: `is required with IDENTITY_PROVIDER=${env.IDENTITY_PROVIDER}` });
    }
  }
  for (const provider of env.PAYMENT_PROVIDERS) {
    const needs = PAYMENT_PROVIDER_NEEDS[provider];
    for (const name of needs.required) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: `is required when PAYMENT_PROVIDERS lists ${provider}` });
    }
    for (const [name, kind] of needs.keys) {
      const value = env[name];
      if (!value) continue;
      try {
        const bits = readKey(value, kind).asymmetricKeyDetails?.modulusLength ?? 0;
        if (needs.rsaBits && bits < needs.rsaBits.min) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `is an RSA key of ${bits} bits; ${needs.rsaBits.who} needs ${needs.rsaBits.min}`,
          });
        }
      } catch (error) {
        ctx.addIssue({ code: 'custom', path: [name], message: (error as Error).message });
      }
    }
  }
  mediaStorageIssues(env, ctx, env.NODE_ENV === 'production' && env.DEMO_MODE !== '1');
  if (env.NODE_ENV !== 'production' || env.DEMO_MODE === '1') return;
  // Login codes, payments and keys' signatures travel to the providers: over TLS, or to a relay on this machine.
  for (const [name, inUse] of PROVIDER_ENDPOINTS) {
    const problem = inUse(env) ? productionEndpointProblem(env[name]) : null;
    if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
  }
  // Alerts name the channels and their trouble: over TLS in production, or to a relay on this machine (issue 32).
  const alertProblem = env.ALERT_WEBHOOK_URL ? productionEndpointProblem(env.ALERT_WEBHOOK_URL) : null;
  if (alertProblem) ctx.addIssue({ code: 'custom', path: ['ALERT_WEBHOOK_URL'], message: alertProblem });
  if (env.AUTH_SECRET === DEMO_AUTH_SECRET) {
    ctx.addIssue({
      code: 'custom',
      path: ['AUTH_SECRET'],
      message: 'is the demo secret; set a random secret of 32+ characters in production',
    });
  }
  if (env.PAYMENT_SECRET === DEMO_PAYMENT_SECRET) {
    ctx.addIssue({
      code: 'custom',
      path: ['PAYMENT_SECRET'],
      message: 'is the demo secret; set a random secret of 32+ characters in production',
    });
  }
  if (env.PAYMENT_PROVIDERS.includes('sandbox')) {
    ctx.addIssue({
      code: 'custom',
      path: ['PAYMENT_PROVIDERS'],
      message: 'lists sandbox, the cashier that takes no money; list only real payment providers in production',
    });
  }
  // Issue 32: a refunded buyer gets a text, and a carrier sends only an approved template. Refused at start rather than
  // an [alert] per refund that a busy drop day buries (docs/decisions.md, "The refund's text").
  const refundTemplate = SMS_REFUND_TEMPLATE_VARIABLE[env.SMS_PROVIDER];
  if (refundTemplate && env[refundTemplate] === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: [refundTemplate],
      message: `is required in production with SMS_PROVIDER=${env.SMS_PROVIDER}: refunded buyers are sent a text through this approved template`,
    });
  }
  // Issue 33: the demo vendor confirms anyone, and the demo keys are public.
  if (env.IDENTITY_PROVIDER === 'demo') {
    ctx.addIssue({
      code: 'custom',
      path: ['IDENTITY_PROVIDER'],
      message: "is the demo identity vendor, which confirms any name; set 'tencent' or 'aliyun' in production",
    });
  }
  if (env.IDENTITY_KEYS.includes(DEMO_IDENTITY_KEYS.slice(DEMO_IDENTITY_KEYS.indexOf(':') + 1))) {
    ctx.addIssue({
      code: 'custom',
      path: ['IDENTITY_KEYS'],
      message: 'holds the demo key; set your own (id:<openssl rand -base64 32>) in production',
    });
  }
  if (env.IDENTITY_HASH_KEY === DEMO_IDENTITY_HASH_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['IDENTITY_HASH_KEY'],
      message: 'is the demo key; set a random secret of 32+ characters in production (and never change it after)',
    });
  }
  if (env.SMS_PROVIDER === 'outbox') {
    ctx.addIssue({
      code: 'custom',
      path: ['SMS_PROVIDER'],
      message: 'is the demo outbox provider; configure a real SMS provider in production',
    });
  }
});

/** The keys of s3rver (the local S3 server the tests run) and of deploy/storefront.env.example: never production's. */
export const DEMO_MEDIA_S3_KEYS: readonly string[] = ['S3RVER', '<access key id>', '<access key secret>'];

/**
 * Object storage (issue 31, "Media storage"): MEDIA_STORAGE=s3 needs its bucket, region, keys and public URL, in any
 * mode; the public URL's origin must be a media host (MEDIA_ORIGINS) so that the page CSP, next/image and the skin check
 * take its images. In production the endpoint and the public URL are https (or the endpoint a relay on this machine)
 * and the keys are not the demo ones.
 */
function mediaStorageIssues(env: z.infer<typeof envSchema>, ctx: z.core.$RefinementCtx, production: boolean): void {
  if (env.MEDIA_STORAGE !== 's3') return;
  const needed = [
    'MEDIA_S3_BUCKET',
    'MEDIA_S3_REGION',
    'MEDIA_S3_ACCESS_KEY_ID',
    'MEDIA_S3_SECRET_ACCESS_KEY',
    'MEDIA_PUBLIC_URL',
  ] as const;
  for (const name of needed) {
    if (env[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: 'is required with MEDIA_STORAGE=s3' });
  }
  const publicUrl = env.MEDIA_PUBLIC_URL;
  // Only https origins can be media hosts; a plain http one is refused in production below, and outside it serves a
  // developer's local S3 server, whose images the page CSP blocks (docs/deploy.md, "Object storage").
  if (publicUrl?.startsWith('https:') && !env.MEDIA_ORIGINS.includes(new URL(publicUrl).origin)) {
    ctx.addIssue({
      code: 'custom',
      path: ['MEDIA_PUBLIC_URL'],
      message: `must be on a media host: add ${new URL(publicUrl).origin} to MEDIA_ORIGINS (pages may show images only from those)`,
    });
  }
  if (!production) return;
  if (publicUrl && !publicUrl.startsWith('https:')) {
    ctx.addIssue({ code: 'custom', path: ['MEDIA_PUBLIC_URL'], message: 'must be https:// in production' });
  }
  const problem = env.MEDIA_S3_ENDPOINT ? productionEndpointProblem(env.MEDIA_S3_ENDPOINT) : null;
  if (problem) ctx.addIssue({ code: 'custom', path: ['MEDIA_S3_ENDPOINT'], message: problem });
  for (const name of ['MEDIA_S3_ACCESS_KEY_ID', 'MEDIA_S3_SECRET_ACCESS_KEY'] as const) {
    const value = env[name];
    if (value !== undefined && DEMO_MEDIA_S3_KEYS.includes(value)) {
      ctx.addIssue({ code: 'custom', path: [name], message: "is a demo key; set the object storage account's own in production" });
    }
  }
}

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid environment:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'EnvError';
  }
}

/**
 * Parses an environment; throws EnvError with one line per bad variable. `forStart` (the default) also
 * refuses demo secrets in production; a build only checks the shape, since secrets belong to the runtime.
 */
export function parseEnv(source: Record<string, string | undefined>, { forStart = true } = {}): Env {
  // PAYMENT_PROVIDER (one provider) came before PAYMENT_PROVIDERS; a deployment that still sets it keeps working.
  if (source.PAYMENT_PROVIDER !== undefined) {
    if (source.PAYMENT_PROVIDERS !== undefined)
      throw new EnvError(['PAYMENT_PROVIDER is replaced by PAYMENT_PROVIDERS; set only PAYMENT_PROVIDERS']);
    source = { ...source, PAYMENT_PROVIDERS: source.PAYMENT_PROVIDER };
  }
  const result = (forStart ? productionEnvSchema : envSchema).safeParse(source);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${i.path.join('.') || '(env)'} ${i.message}`));
  }
  return result.data;
}

let cached: Env | undefined;

/** The process environment, parsed on first use. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * Buy calls the buy lane lets into the app at once (docs/orders.md, "The buy lane"): BUY_MAX_RUNNING, or by default
 * what measured best (docs/benchmarks.md, ninth session): 128 on either database, with statements prepared and
 * pipelined (lib/db/statements.ts). Before that the embedded database's one connection took one statement at a time
 * and 16 was its best, and PostgreSQL's calls waited on round trips and its pool, and 64 was.
 */
export function buyLaneRunning(e: Env = env()): number {
  return e.BUY_MAX_RUNNING ?? 128;
}

/** Scheme and port used to build absolute URLs (link previews) on a channel's own host. */
export function publicOrigin(host: string, e: Env = env()): string {
  const scheme = e.PUBLIC_SCHEME ?? (e.NODE_ENV === 'production' && e.DEMO_MODE !== '1' ? 'https' : 'http');
  const port = e.PUBLIC_PORT ?? (scheme === 'http' ? e.PORT : undefined);
  const defaultPort = scheme === 'https' ? 443 : 80;
  return `${scheme}://${host}${port && port !== defaultPort ? `:${port}` : ''}`;
}
