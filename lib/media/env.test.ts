import { parseEnv } from '@/lib/env';

/** A production environment that passes on everything but object storage (the demo secrets would be refused first). */
const PRODUCTION = {
  NODE_ENV: 'production',
  AUTH_SECRET: 'a-production-secret-of-more-than-32-chars',
  PAYMENT_SECRET: 'another-production-secret-of-32-chars-or-more',
  SMS_PROVIDER: 'aliyun',
  ALIYUN_SMS_ACCESS_KEY_ID: 'id',
  ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
  SMS_SIGN_NAME: 'Shop',
  SMS_TEMPLATE_ID: 'SMS_1',
  SMS_ALIYUN_REFUND_TEMPLATE: 'SMS_2',
  PAYMENT_PROVIDERS: 'alipay',
  ALIPAY_APP_ID: '2021000123456789',
};

const OSS = {
  MEDIA_STORAGE: 's3',
  MEDIA_S3_ENDPOINT: 'https://oss-cn-hangzhou.aliyuncs.com',
  MEDIA_S3_BUCKET: 'shop-media',
  MEDIA_S3_REGION: 'oss-cn-hangzhou',
  MEDIA_S3_ACCESS_KEY_ID: 'LTAI5tExampleKeyId',
  MEDIA_S3_SECRET_ACCESS_KEY: 'an-object-storage-secret',
  MEDIA_PUBLIC_URL: 'https://img.shop.example',
  MEDIA_ORIGINS: 'https://img.shop.example',
};

/** The lines of the refusal that are about media storage (the Alipay keys of PRODUCTION are not this test's). */
function mediaIssues(source: Record<string, string>): string[] {
  try {
    parseEnv(source);
    return [];
  } catch (error) {
    return ((error as { issues?: string[] }).issues ?? []).filter((line) => line.startsWith('MEDIA_'));
  }
}

describe('media storage variables (issue 31; lib/env.ts)', () => {
  it('keeps images in .data/media by default', () => {
    expect(parseEnv({})).toMatchObject({ MEDIA_STORAGE: 'folder', MEDIA_DIR: '.data/media' });
  });

  it('takes an object storage, the public URL ending in / so a key can be appended', () => {
    expect(parseEnv(OSS)).toMatchObject({ MEDIA_STORAGE: 's3', MEDIA_PUBLIC_URL: 'https://img.shop.example/', MEDIA_S3_PATH_STYLE: '0' });
    expect(mediaIssues({ ...PRODUCTION, ...OSS })).toEqual([]);
  });

  it('names each variable object storage needs and lacks, in any mode', () => {
    expect(mediaIssues({ MEDIA_STORAGE: 's3' })).toEqual([
      'MEDIA_S3_BUCKET is required with MEDIA_STORAGE=s3',
      'MEDIA_S3_REGION is required with MEDIA_STORAGE=s3',
      'MEDIA_S3_ACCESS_KEY_ID is required with MEDIA_STORAGE=s3',
      'MEDIA_S3_SECRET_ACCESS_KEY is required with MEDIA_STORAGE=s3',
      'MEDIA_PUBLIC_URL is required with MEDIA_STORAGE=s3',
    ]);
    expect(mediaIssues({ MEDIA_STORAGE: 'disk' })).toEqual(["MEDIA_STORAGE must be 'folder' or 's3'"]);
    expect(mediaIssues({ ...OSS, MEDIA_S3_BUCKET: 'Shop_Media' })).toEqual([
      'MEDIA_S3_BUCKET must be a bucket name: 3 to 63 lower-case letters, digits, dots and dashes',
    ]);
  });

  it("asks for the public URL's origin among MEDIA_ORIGINS, which the page CSP and the skin check allow", () => {
    expect(mediaIssues({ ...OSS, MEDIA_ORIGINS: '' })).toEqual([
      'MEDIA_PUBLIC_URL must be on a media host: add https://img.shop.example to MEDIA_ORIGINS (pages may show images only from those)',
    ]);
  });

  it("refuses in production the demo keys, plain http and an endpoint that is not TLS or this machine's", () => {
    expect(
      mediaIssues({
        ...PRODUCTION,
        ...OSS,
        MEDIA_S3_ACCESS_KEY_ID: 'S3RVER',
        MEDIA_S3_SECRET_ACCESS_KEY: 'S3RVER',
        MEDIA_S3_ENDPOINT: 'http://oss-cn-hangzhou.aliyuncs.com',
        MEDIA_PUBLIC_URL: 'http://img.shop.example/',
      }),
    ).toEqual([
      'MEDIA_PUBLIC_URL must be https:// in production',
      'MEDIA_S3_ENDPOINT must be https:// in production, or http:// to this machine (127.0.0.1, ::1 or localhost: a relay)',
      "MEDIA_S3_ACCESS_KEY_ID is a demo key; set the object storage account's own in production",
      "MEDIA_S3_SECRET_ACCESS_KEY is a demo key; set the object storage account's own in production",
    ]);
    // The same outside production: a developer's local S3 server over http, with its own keys.
    expect(
      mediaIssues({
        ...OSS,
        MEDIA_S3_ACCESS_KEY_ID: 'S3RVER',
        MEDIA_S3_SECRET_ACCESS_KEY: 'S3RVER',
        MEDIA_PUBLIC_URL: 'http://127.0.0.1:4569/shop-media',
      }),
    ).toEqual([]);
  });
});
