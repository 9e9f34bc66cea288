import { createHash } from 'node:crypto';
import { solvePow } from '@/lib/client/proof-of-work';
import { POW_MAX_NUMBER, powChallenge, powSolves } from './proof-of-work';

// The server half of the captcha's proof of work, solved with the browser's solver (the pair must agree).

const secret = 'test-secret-test-secret-test-secret-0001';
const id = 'AbCdEfGhIjKlMnOpQrStUvWx';

async function solve(challengeId: string, key = secret): Promise<number> {
  const n = await solvePow(powChallenge(key, challengeId), { sliceMs: 1000 });
  if (n === null) throw new Error(`no solution for ${challengeId}`);
  return n;
}

describe('captcha proof of work', () => {
  it('sends a salt bound to the challenge and the SHA-256 of salt + the secret number', async () => {
    const pow = powChallenge(secret, id);
    expect(pow).toMatchObject({ algorithm: 'SHA-256', maxNumber: POW_MAX_NUMBER });
    expect(pow.salt).toContain(id);
    expect(pow.challenge).toMatch(/^[0-9a-f]{64}$/);
    const n = await solve(id);
    expect(n).toBeGreaterThanOrEqual(0);
    expect(n).toBeLessThanOrEqual(POW_MAX_NUMBER);
    expect(
      createHash('sha256')
        .update(pow.salt + n)
        .digest('hex'),
    ).toBe(pow.challenge);
  });

  it('is stateless: the same challenge id gives the same proof of work', () => {
    expect(powChallenge(secret, id)).toEqual(powChallenge(secret, id));
  });

  it('accepts the solution and nothing else', async () => {
    const n = await solve(id);
    expect(powSolves(secret, id, n)).toBe(true);
    for (const wrong of [n - 1, n + 1, -1, POW_MAX_NUMBER + 1, n + 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(powSolves(secret, id, wrong)).toBe(false);
    }
  });

  it("does not accept one challenge's solution for another", async () => {
    // Two ids share a secret number 1 time in 150,001; take the next id then, so the test says what it means.
    const ids = ['AbCdEfGhIjKlMnOpQrStUvW1', 'AbCdEfGhIjKlMnOpQrStUvW2', 'AbCdEfGhIjKlMnOpQrStUvW3'];
    const n = await solve(id);
    let other = ids[0]!;
    for (const candidate of ids) {
      other = candidate;
      if ((await solve(candidate)) !== n) break;
    }
    expect(powChallenge(secret, other).challenge).not.toBe(powChallenge(secret, id).challenge);
    expect(powSolves(secret, other, n)).toBe(false);
  });

  it('depends on the server secret: another deployment cannot precompute it', () => {
    const elsewhere = powChallenge('another-secret-another-secret-another-00', id);
    expect(elsewhere.salt).toBe(powChallenge(secret, id).salt);
    expect(elsewhere.challenge).not.toBe(powChallenge(secret, id).challenge);
  });
});
