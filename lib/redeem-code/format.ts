/**
 * How codes are written (no server dependencies, so the seed data and tests can use it): Crockford base32, 26
 * characters for 128 bits, grouped by 4; and how what a person typed is read back.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 16 bytes (128 bits) as a code: 26 base32 characters (the first carries 3 bits), grouped by 4. */
export function codeFromBytes(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new Error('a code is made of 16 bytes');
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let text = '';
  for (let i = 0; i < 26; i++) {
    text = ALPHABET[Number(bits & 31n)]! + text;
    bits >>= 5n;
  }
  return text.match(/.{1,4}/g)!.join('-');
}

/** What a person typed, as the code it means: upper case, no spaces or dashes, look-alike letters mapped. */
export function normalizeCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}
