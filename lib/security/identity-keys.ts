/**
 * The keys that seal buyers' real-name identities (issue 33; lib/identity/seal.ts): IDENTITY_KEYS' format, read by
 * lib/env.ts at start and by the sealing code, and the demo's well-known values, which production refuses.
 */

/** The demo's keys (a well-known value, like DEMO_AUTH_SECRET): production refuses them (lib/env.ts). */
export const DEMO_IDENTITY_KEYS = 'demo:oYvKtuKDM371fOZc+1kyMXpP45zoYLMOtnO/sKJZitg=';
export const DEMO_IDENTITY_HASH_KEY = 'demo-identity-hash-key-not-for-production-use-0000';

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * IDENTITY_KEYS as `id:<base64 of 32 bytes>` entries, comma-separated, the sealing key first: `k2:…,k1:…`. Throws an
 * Error saying what is wrong (never the key itself), for lib/env.ts to name the variable.
 */
export function parseIdentityKeys(value: string): { sealingKeyId: string; keys: Map<string, Buffer> } {
  const keys = new Map<string, Buffer>();
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('must list at least one key as id:<base64 of 32 bytes>');
  for (const [index, entry] of entries.entries()) {
    const colon = entry.indexOf(':');
    const id = colon > 0 ? entry.slice(0, colon) : '';
    if (!KEY_ID.test(id)) {
      throw new Error(`entry ${index + 1} must start with a key id (letters, digits, - or _) and a colon: id:<base64 of 32 bytes>`);
    }
    const key = Buffer.from(entry.slice(colon + 1), 'base64');
    if (key.length !== 32 || !/^[A-Za-z0-9+/]+={0,2}$/.test(entry.slice(colon + 1))) {
      throw new Error(`key ${id} must be 32 random bytes in base64 (openssl rand -base64 32)`);
    }
    if (keys.has(id)) throw new Error(`lists key ${id} twice`);
    keys.set(id, key);
  }
  return { sealingKeyId: entries[0]!.slice(0, entries[0]!.indexOf(':')), keys };
}
