import { createHash } from 'node:crypto';
import { sha256Hex, solvePow, type PowChallenge } from './proof-of-work';

// The browser's solver of the captcha's proof of work, checked against Node's own SHA-256 (an independent implementation).

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const challengeFor = (salt: string, n: number, maxNumber = 1000): PowChallenge => ({
  algorithm: 'SHA-256',
  salt,
  challenge: sha256(salt + n),
  maxNumber,
});

describe('sha256Hex', () => {
  // Around every block boundary: 55 bytes is the most one block holds with its padding, 56 needs a second block.
  it.each([0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 200])('matches Node for %i characters', (length) => {
    const text = Array.from({ length }, (_, i) => String.fromCharCode(33 + ((i * 7) % 90))).join('');
    expect(sha256Hex(text)).toBe(sha256(text));
  });

  it('gives the FIPS 180-4 value for "abc"', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('refuses text that is not ASCII (salts are the server’s base64url ids)', () => {
    expect(() => sha256Hex('é')).toThrow(RangeError);
  });
});

describe('solvePow', () => {
  const salt = 'Xy3_k9QeVb2LmN0pRsTuVwXy.';

  it.each([0, 9, 10, 99, 100, 537, 1000])('finds %i, the number whose hash the server sent', async (n) => {
    expect(await solvePow(challengeFor(salt, n))).toBe(n);
  });

  it('finds a number past the first slice, whatever the slice length', async () => {
    expect(await solvePow(challengeFor(salt, 4321, 5000), { sliceMs: 0 })).toBe(4321);
  });

  it('gives null when no number up to maxNumber solves it', async () => {
    expect(await solvePow(challengeFor(salt, 1001))).toBeNull();
  });

  it('gives null for a challenge it does not understand', async () => {
    const good = challengeFor(salt, 5);
    expect(await solvePow({ ...good, algorithm: 'SHA-1' as 'SHA-256' })).toBeNull();
    expect(await solvePow({ ...good, challenge: 'not hex' })).toBeNull();
    expect(await solvePow({ ...good, challenge: good.challenge.toUpperCase() })).toBeNull();
    expect(await solvePow({ ...good, maxNumber: -1 })).toBeNull();
    expect(await solvePow({ ...good, maxNumber: 1.5 })).toBeNull();
  });

  it('stops with null when aborted', async () => {
    const search = new AbortController();
    const result = solvePow(challengeFor(salt, 2_000_000, 2_000_000), { signal: search.signal, sliceMs: 1 });
    search.abort();
    expect(await result).toBeNull();
  });

  it('yields between slices, so the page can handle a drag while it searches', async () => {
    let otherWorkRan = false;
    let otherWorkRanBeforeTheEnd = false;
    setTimeout(() => {
      otherWorkRan = true;
    }, 0);
    // 300,000 numbers take well over one 1 ms slice on any machine.
    const found = await solvePow(challengeFor(salt, 300_000, 300_000), { sliceMs: 1 }).then((n) => {
      otherWorkRanBeforeTheEnd = otherWorkRan;
      return n;
    });
    expect(found).toBe(300_000);
    expect(otherWorkRanBeforeTheEnd).toBe(true);
  });
});
