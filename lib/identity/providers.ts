import 'server-only';
import { env as processEnv, type Env } from '../env';
import { aliyunCloudauthProvider } from './aliyun-cloudauth';
import { demoIdentityProvider } from './demo';
import { tencentFaceIdProvider } from './tencent-faceid';
import type { IdentityProvider } from './provider';
import { identityKeyRing, type IdentityKeyRing } from './seal';

/** The vendor IDENTITY_PROVIDER names, with its settings from the environment (checked at start by lib/env.ts). */
export function identityProvider(e: Env = processEnv()): IdentityProvider {
  const required = (value: string | undefined, variable: string): string => {
    if (value === undefined) throw new Error(`${variable} is required with IDENTITY_PROVIDER=${e.IDENTITY_PROVIDER}`);
    return value;
  };
  switch (e.IDENTITY_PROVIDER) {
    case 'demo':
      return demoIdentityProvider;
    case 'tencent':
      return tencentFaceIdProvider({
        secretId: required(e.IDENTITY_TENCENT_SECRET_ID, 'IDENTITY_TENCENT_SECRET_ID'),
        secretKey: required(e.IDENTITY_TENCENT_SECRET_KEY, 'IDENTITY_TENCENT_SECRET_KEY'),
        endpoint: e.IDENTITY_TENCENT_ENDPOINT,
      });
    case 'aliyun':
      return aliyunCloudauthProvider({
        accessKeyId: required(e.IDENTITY_ALIYUN_ACCESS_KEY_ID, 'IDENTITY_ALIYUN_ACCESS_KEY_ID'),
        accessKeySecret: required(e.IDENTITY_ALIYUN_ACCESS_KEY_SECRET, 'IDENTITY_ALIYUN_ACCESS_KEY_SECRET'),
        endpoint: e.IDENTITY_ALIYUN_ENDPOINT,
      });
  }
}

/** The sealing keys and the hash key of the environment. */
export function envIdentityKeyRing(e: Env = processEnv()): IdentityKeyRing {
  return identityKeyRing(e.IDENTITY_KEYS, e.IDENTITY_HASH_KEY);
}
