import { identityHash, identityKeyRing, open, seal } from './seal';

// Issue 33: the name and number are kept sealed under the first key of IDENTITY_KEYS, every listed key opens, so a key
// can be added first (rotation) and rows sealed under the old one still open.

const key = (byte: number) => Buffer.alloc(32, byte).toString('base64');
const HASH_KEY = 'hash-key-of-this-test-0000000000';

describe('sealing identities', () => {
  it('opens what it sealed, and the sealed form does not hold the value', () => {
    const ring = identityKeyRing(`k1:${key(1)}`, HASH_KEY);
    const sealed = seal(ring, 'idNumber', 7, '11010519491231002X');
    expect(sealed.keyId).toBe('k1');
    expect(sealed.sealed).not.toContain('11010519491231002X');
    expect(Buffer.from(sealed.sealed.split('.')[2]!, 'base64').toString('utf8')).not.toContain('110105');
    expect(open(ring, sealed.keyId, 'idNumber', 7, sealed.sealed)).toBe('11010519491231002X');
    // A fresh nonce each time: the same value seals differently.
    expect(seal(ring, 'idNumber', 7, '11010519491231002X').sealed).not.toBe(sealed.sealed);
  });

  it('opens a row sealed under k1 after k2 is added first, and seals new rows under k2', () => {
    const before = identityKeyRing(`k1:${key(1)}`, HASH_KEY);
    const old = seal(before, 'name', 7, '张三');
    const after = identityKeyRing(`k2:${key(2)},k1:${key(1)}`, HASH_KEY);
    expect(open(after, old.keyId, 'name', 7, old.sealed)).toBe('张三');
    const fresh = seal(after, 'name', 8, '李四');
    expect(fresh.keyId).toBe('k2');
    expect(open(after, fresh.keyId, 'name', 8, fresh.sealed)).toBe('李四');
    // Once k1 is dropped its rows no longer open; the error names the key, never the value.
    const dropped = identityKeyRing(`k2:${key(2)}`, HASH_KEY);
    expect(() => open(dropped, old.keyId, 'name', 7, old.sealed)).toThrow(/identity key k1 is not in IDENTITY_KEYS/);
  });

  it("refuses a sealed value altered, moved to another buyer's row or to the other field", () => {
    const ring = identityKeyRing(`k1:${key(1)}`, HASH_KEY);
    const sealed = seal(ring, 'name', 7, '张三');
    const [iv, tag, body] = sealed.sealed.split('.');
    const flipped = Buffer.from(body!, 'base64');
    flipped[0]! ^= 1;
    expect(() => open(ring, 'k1', 'name', 7, [iv, tag, flipped.toString('base64')].join('.'))).toThrow(/does not open/);
    expect(() => open(ring, 'k1', 'name', 8, sealed.sealed)).toThrow(/does not open/);
    expect(() => open(ring, 'k1', 'idNumber', 7, sealed.sealed)).toThrow(/does not open/);
    let message = '';
    try {
      open(ring, 'k1', 'name', 8, sealed.sealed);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toContain('张三');
  });

  it('hashes a number with the hash key: the same number alike, another key differently', () => {
    const ring = identityKeyRing(`k1:${key(1)}`, HASH_KEY);
    const hash = identityHash(ring, '11010519491231002X');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(identityHash(ring, '11010519491231002X')).toBe(hash);
    expect(identityHash({ hashKey: 'another-hash-key-0000000000000000' }, '11010519491231002X')).not.toBe(hash);
  });
});
