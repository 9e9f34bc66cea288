import 'server-only';
import { env as processEnv, type Env } from '../env';
import { demoIdentityProvider } from './demo';
import type { IdentityProvider } from './provider';
import { identityKeyRing, type IdentityKeyRing } from './seal';

/** The vendor IDENTITY_PROVIDER names, with its settings from the environment (checked at start by lib/env.ts). */
export function identityProvider(e: Env = processEnv()): IdentityProvider {
  switch (e.IDENTITY_PROVIDER) {
    case 'demo':
      return demoIdentityProvider;
    default:
      throw new Error(`IDENTITY_PROVIDER=${e.IDENTITY_PROVIDER} is not built yet`);
  }
}

/** The sealing keys and the hash key of the environment. */
export function envIdentityKeyRing(e: Env = processEnv()): IdentityKeyRing {
  return identityKeyRing(e.IDENTITY_KEYS, e.IDENTITY_HASH_KEY);
}
