import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { parseIdentityKeys } from '../security/identity-keys';

/**
 * How a buyer's legal name and ID number are kept (issue 33; docs/security.md, "Real-name identities"): sealed with
 * AES-256-GCM under a key from IDENTITY_KEYS, whose id is kept beside the row so keys can rotate (the first key seals,
 * every listed key opens), and found by a keyed hash (HMAC-SHA256 under IDENTITY_HASH_KEY) of the normalised number,
 * which the uniqueness index and identity blocks match without opening anything.
 * The key list's format and the demo keys are in lib/security/identity-keys.ts, which lib/env.ts checks at start.
 */

export { DEMO_IDENTITY_HASH_KEY, DEMO_IDENTITY_KEYS, parseIdentityKeys } from '../security/identity-keys';

/** Each key by id, and the one that seals (the first listed); and the hash key. */
export type IdentityKeyRing = { sealingKeyId: string; keys: ReadonlyMap<string, Buffer>; hashKey: string };

/** The key ring of the environment's values (lib/env.ts has checked them at start). */
export function identityKeyRing(keysValue: string, hashKey: string): IdentityKeyRing {
  return { ...parseIdentityKeys(keysValue), hashKey };
}

/** What a sealed value is about, bound into its tag: a sealed name cannot be passed off as a number or another buyer's. */
export type SealedField = 'name' | 'idNumber';

function additionalData(field: SealedField, userId: number): Buffer {
  return Buffer.from(`buyer-identity:${field}:${userId}`, 'utf8');
}

/** Seals one value under the sealing key: `<iv>.<tag>.<ciphertext>` in base64, with the key's id to keep beside it. */
export function seal(ring: IdentityKeyRing, field: SealedField, userId: number, plain: string): { keyId: string; sealed: string } {
  const key = ring.keys.get(ring.sealingKeyId)!;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(additionalData(field, userId));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return {
    keyId: ring.sealingKeyId,
    sealed: [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64')).join('.'),
  };
}

/**
 * Opens a sealed value with the key its row names. Throws an Error naming the key id (never the value) when the key is
 * no longer listed or the value was altered.
 */
export function open(ring: IdentityKeyRing, keyId: string, field: SealedField, userId: number, sealed: string): string {
  const key = ring.keys.get(keyId);
  if (!key) throw new Error(`identity key ${keyId} is not in IDENTITY_KEYS: keep every key that sealed rows listed`);
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64'));
  if (!iv || !tag || !body) throw new Error(`a sealed ${field} is not in the sealed form`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(additionalData(field, userId));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(`a sealed ${field} does not open with identity key ${keyId}: altered, or sealed for another buyer`);
  }
}

/**
 * The keyed hash of a normalised ID number (hex): the identity's handle for uniqueness and blocks. Keyed, so a leaked
 * table cannot be reversed by hashing the few billion possible numbers.
 */
export function identityHash(ring: Pick<IdentityKeyRing, 'hashKey'>, normalisedIdNumber: string): string {
  return createHmac('sha256', ring.hashKey).update(normalisedIdNumber, 'utf8').digest('hex');
}
