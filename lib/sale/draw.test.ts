import { createHash, createHmac, randomBytes } from 'node:crypto';
import {
  DrawInputError,
  canonicalJson,
  commitmentOf,
  drawKey,
  listHash,
  makeSeed,
  publishedList,
  rankKey,
  runDraw,
  verifyDraw,
  type DrawInput,
  type PublishedDraw,
} from './draw';

// Issue 35, "Lottery (抽签)": "same published data, same winners [...]; changing the seed, a registrant or N changes
// them; [...] the commitment published before registration opens matches the seed revealed." The expected values here
// are computed step by step with node:crypto (or, for the worked example of docs/drops.md, with openssl and sha256sum),
// never by the functions under test.

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

/** The whole draw done by hand: ranks each account number with node:crypto and sorts by rank key, then number. */
function drawnByHand(seedHex: string, value: string, accountNumbers: string[], copies: number) {
  const key = sha256(Buffer.concat([Buffer.from(seedHex, 'hex'), Buffer.from(value, 'utf8')]));
  const ranked = accountNumbers
    .map((n) => ({ n, rank: createHmac('sha256', key).update(Buffer.from(n, 'utf8')).digest('hex') }))
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.n < b.n ? -1 : 1))
    .map((r) => r.n);
  const registrants = [...accountNumbers].sort((a, b) => {
    const ha = sha256(a).toString('hex');
    const hb = sha256(b).toString('hex');
    return ha < hb ? -1 : 1;
  });
  return {
    commitment: sha256(Buffer.from(seedHex, 'hex')).toString('hex'),
    drawKey: key.toString('hex'),
    registrants,
    listHash: sha256(Buffer.from(registrants.join('\n'), 'utf8')).toString('hex'),
    winners: ranked.slice(0, copies),
    waitlist: ranked.slice(copies),
  };
}

/** `count` distinct account numbers (10 digits, no leading zero) that look like nothing in particular. */
function accountNumbers(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, i) => String(1_000_000_000 + (offset + i) * 7_919));
}

const SEED = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
const VALUE = '福彩3D 第2026345期 开奖号码 371';
const SOURCE = 'China Welfare Lottery 3D (福彩3D), draw 2026345 on 2026-12-20: the three winning digits as cwl.gov.cn publishes them';
const SIX = ['1000000001', '2718281828', '3141592653', '4200000042', '5555555555', '9876543210'];

const input = (over: Partial<DrawInput> = {}): DrawInput => ({
  saleId: '42',
  channelKey: 'AURORA',
  copies: 2,
  seed: SEED,
  publicValue: VALUE,
  publicValueSource: SOURCE,
  accountNumbers: SIX,
  ...over,
});

describe('the draw', () => {
  it('gives the worked example of docs/drops.md, as openssl and sha256sum computed it', () => {
    // printf SEED | xxd -r -p | sha256sum; (seed bytes; printf '%s' VALUE) | sha256sum;
    // printf N | openssl dgst -sha256 -mac HMAC -macopt hexkey:DRAWKEY; printf N | sha256sum
    expect(commitmentOf(SEED)).toBe('630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd');
    const key = drawKey(SEED, VALUE);
    expect(key).toBe('896539391388cbdf7e0fef869b2564ceaa6be6314efb85dd495ac521cb40b9a2');
    expect(rankKey(key, '4200000042')).toBe('099f83e22807f7951bb6ad0c907b6e849951c508d4dd0a9d65782bdcca8276d8');
    expect(rankKey(key, '2718281828')).toBe('ef4c1f8e5265f7e3869a4e3e26269c4938b9e28811ea697b0a593b9e6b36b3f9');

    const draw = runDraw(input());
    expect(draw).toEqual({
      version: 1,
      saleId: '42',
      channelKey: 'AURORA',
      copies: 2,
      commitment: '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd',
      seed: SEED,
      publicValue: VALUE,
      publicValueSource: SOURCE,
      registrants: ['3141592653', '9876543210', '1000000001', '5555555555', '4200000042', '2718281828'],
      listHash: 'bb15f11cb6e25a570eb50a91ff4f75e89b4c41a39e2b3b2fa95d5f462c8fde3c',
      winners: ['4200000042', '5555555555'],
      waitlist: ['1000000001', '3141592653', '9876543210', '2718281828'],
    });
  });

  it('ranks every registrant as node:crypto does step by step, for a fresh seed and value', () => {
    const seed = randomBytes(32).toString('hex');
    const value = `上证指数 2026-12-20 15:00 收盘 ${randomBytes(4).readUInt32BE(0)}`;
    const numbers = accountNumbers(300);
    const byHand = drawnByHand(seed, value, numbers, 25);
    const draw = runDraw(input({ seed, publicValue: value, accountNumbers: numbers, copies: 25 }));

    expect(draw.commitment).toBe(byHand.commitment);
    expect(drawKey(seed, value)).toBe(byHand.drawKey);
    expect(draw.registrants).toEqual(byHand.registrants);
    expect(draw.listHash).toBe(byHand.listHash);
    expect(publishedList(numbers)).toEqual(byHand.registrants);
    expect(listHash(byHand.registrants)).toBe(byHand.listHash);
    expect(draw.winners).toEqual(byHand.winners);
    expect(draw.waitlist).toEqual(byHand.waitlist);
    expect(draw.winners).toHaveLength(25);
    expect(draw.waitlist).toHaveLength(275);
  });

  it('draws the same winners from the same data, whatever order the registrations came in', () => {
    const numbers = accountNumbers(200);
    const first = runDraw(input({ accountNumbers: numbers, copies: 10 }));
    const again = runDraw(input({ accountNumbers: [...numbers].reverse(), copies: 10 }));
    expect(again).toEqual(first);
    expect(canonicalJson(again)).toBe(canonicalJson(first));
  });

  it('takes the public value as typed on any keyboard: NFC, spaces around it trimmed', () => {
    const composed = 'Café 3 7 1';
    const decomposed = `  ${composed.normalize('NFD')}\n`;
    expect(decomposed).not.toBe(composed);
    const draw = runDraw(input({ publicValue: decomposed, accountNumbers: accountNumbers(50), copies: 5 }));
    expect(draw.publicValue).toBe(composed);
    expect(draw).toEqual(runDraw(input({ publicValue: composed, accountNumbers: accountNumbers(50), copies: 5 })));
    expect(draw.winners).toEqual(drawnByHand(SEED, composed, accountNumbers(50), 5).winners);
  });

  it('draws other winners with another seed or another public value', () => {
    const numbers = accountNumbers(200);
    const draw = runDraw(input({ accountNumbers: numbers, copies: 10 }));
    const otherSeed = runDraw(input({ accountNumbers: numbers, copies: 10, seed: SEED.replace(/^00/, '01') }));
    const otherValue = runDraw(input({ accountNumbers: numbers, copies: 10, publicValue: '福彩3D 第2026345期 开奖号码 372' }));
    expect(otherSeed.winners).not.toEqual(draw.winners);
    expect(otherValue.winners).not.toEqual(draw.winners);
    expect(otherSeed.winners).toEqual(drawnByHand(SEED.replace(/^00/, '01'), VALUE, numbers, 10).winners);
    // The registrants and their hash do not depend on the seed or the value.
    expect(otherSeed.listHash).toBe(draw.listHash);
  });

  it("lets a registrant more or less take or leave only their own place: the others' order stays", () => {
    const numbers = accountNumbers(200);
    const draw = runDraw(input({ accountNumbers: numbers, copies: 10 }));
    const ranked = [...draw.winners, ...draw.waitlist];

    const late = '9999999999';
    const withLate = runDraw(input({ accountNumbers: [...numbers, late], copies: 10 }));
    const rankedWithLate = [...withLate.winners, ...withLate.waitlist];
    expect(rankedWithLate.filter((n) => n !== late)).toEqual(ranked);
    const byHand = drawnByHand(SEED, VALUE, [...numbers, late], 10);
    expect(rankedWithLate).toEqual([...byHand.winners, ...byHand.waitlist]);
    expect(withLate.listHash).not.toBe(draw.listHash);

    // One winner less: the first of the waitlist moves up.
    const gone = draw.winners[3]!;
    const withoutWinner = runDraw(input({ accountNumbers: numbers.filter((n) => n !== gone), copies: 10 }));
    expect(withoutWinner.winners).toEqual([...draw.winners.filter((n) => n !== gone), draw.waitlist[0]]);
    expect(withoutWinner.waitlist).toEqual(draw.waitlist.slice(1));
  });

  it('with one copy more, the first of the waitlist wins too', () => {
    const numbers = accountNumbers(200);
    const draw = runDraw(input({ accountNumbers: numbers, copies: 10 }));
    const more = runDraw(input({ accountNumbers: numbers, copies: 11 }));
    expect(more.winners).toEqual([...draw.winners, draw.waitlist[0]]);
    expect(more.waitlist).toEqual(draw.waitlist.slice(1));
    const all = runDraw(input({ accountNumbers: numbers, copies: 500 }));
    expect(all.winners).toHaveLength(200);
    expect(all.waitlist).toEqual([]);
  });

  it('publishes a commitment before registration opens that the seed revealed at the draw matches', () => {
    const seed = makeSeed();
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(makeSeed()).not.toBe(seed);
    const publishedAtOpening = commitmentOf(seed);
    expect(publishedAtOpening).toBe(sha256(Buffer.from(seed, 'hex')).toString('hex'));
    // Of the seed's bytes, not of its hex text.
    expect(publishedAtOpening).not.toBe(sha256(seed).toString('hex'));
    expect(runDraw(input({ seed })).commitment).toBe(publishedAtOpening);
  });
});

describe('bad input to the draw', () => {
  const refusal = (over: Partial<DrawInput>) => {
    try {
      runDraw(input(over));
    } catch (error) {
      if (error instanceof DrawInputError) return { field: error.field, message: error.message };
      throw error;
    }
    throw new Error('the draw took it');
  };

  it('refuses an empty public value or one over 200 characters, and takes 200', () => {
    expect(refusal({ publicValue: '' })).toEqual({
      field: 'publicValue',
      message: expect.stringMatching(/^publicValue: must not be empty/),
    });
    expect(refusal({ publicValue: ' \n\t ' }).field).toBe('publicValue');
    expect(refusal({ publicValue: '号'.repeat(201) })).toEqual({
      field: 'publicValue',
      message: 'publicValue: must be 200 characters or less',
    });
    expect(runDraw(input({ publicValue: `  ${'号'.repeat(200)}  ` })).publicValue).toBe('号'.repeat(200));
    expect(refusal({ publicValueSource: ' ' }).field).toBe('publicValueSource');
  });

  it('refuses a repeated or malformed account number, naming it', () => {
    expect(refusal({ accountNumbers: [...SIX, '3141592653'] })).toEqual({
      field: 'accountNumbers',
      message: 'accountNumbers: 3141592653 is listed twice: each registrant is drawn once',
    });
    expect(refusal({ accountNumbers: ['1000000001', '0123456789'] })).toEqual({
      field: 'accountNumbers[1]',
      message: 'accountNumbers[1]: "0123456789" is not an account number (10 digits, the first not 0)',
    });
    expect(refusal({ accountNumbers: ['12345678901'] }).field).toBe('accountNumbers[0]');
    expect(refusal({ accountNumbers: ['1000000001', '2000000002', '100000000x'] }).field).toBe('accountNumbers[2]');
  });

  it('refuses a seed that is not 64 lowercase hex digits, and copies below one or not whole', () => {
    expect(refusal({ seed: SEED.toUpperCase() })).toEqual({ field: 'seed', message: 'seed: must be 64 lowercase hex digits (32 bytes)' });
    expect(refusal({ seed: SEED.slice(2) }).field).toBe('seed');
    expect(refusal({ copies: 0 }).field).toBe('copies');
    expect(refusal({ copies: 1.5 }).field).toBe('copies');
    expect(refusal({ channelKey: 'aurora' }).field).toBe('channelKey');
    expect(refusal({ saleId: '' }).field).toBe('saleId');
  });
});

describe('verifying a published draw', () => {
  const published = (): PublishedDraw => JSON.parse(canonicalJson(runDraw(input({ accountNumbers: accountNumbers(40), copies: 5 }))));

  it('finds nothing wrong with a draw as published', () => {
    expect(verifyDraw(published())).toEqual({ ok: true });
    expect(verifyDraw(JSON.parse(canonicalJson(runDraw(input()))))).toEqual({ ok: true });
  });

  it('finds a winner swapped with someone of the waitlist, and says who is where', () => {
    const draw = published();
    const [winner, waiting] = [draw.winners[2]!, draw.waitlist[0]!];
    draw.winners[2] = waiting;
    draw.waitlist[0] = winner;
    expect(verifyDraw(draw)).toEqual({
      ok: false,
      problems: [
        `winners[2] is ${waiting} in the file, ${winner} by the draw`,
        `waitlist[0] is ${winner} in the file, ${waiting} by the draw`,
      ],
    });
  });

  it('finds a registrant added to the list, whether or not the list hash was made again', () => {
    const draw = published();
    const added = '8888888888';
    const registrants = publishedList([...draw.registrants, added]);

    const hashKept = verifyDraw({ ...draw, registrants });
    expect(hashKept.ok).toBe(false);
    if (hashKept.ok) return;
    expect(hashKept.problems).toContainEqual(
      expect.stringMatching(/^listHash: the file says [0-9a-f]{64}, but the registrants as listed hash to [0-9a-f]{64}$/),
    );

    // Hash made again: the draw then ranks a registrant the published ranking does not have.
    const rehashed = verifyDraw({ ...draw, registrants, listHash: listHash(registrants) });
    expect(rehashed.ok).toBe(false);
    if (rehashed.ok) return;
    expect(rehashed.problems).toContain('waitlist: the file lists 35, the draw gives 36');
    expect(rehashed.problems.join('\n')).toContain(added);
  });

  it('finds a seed other than the one committed to', () => {
    const draw = published();
    const seed = makeSeed();
    const result = verifyDraw({ ...draw, seed });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toBe(
      `commitment: the file says ${draw.commitment}, but SHA-256 of the seed is ${commitmentOf(seed)}: this seed is not the one committed to`,
    );
    // And the winners that seed would give are not the ones published.
    expect(result.problems.some((p) => p.startsWith('winners['))).toBe(true);
  });

  it('finds a registrant list out of its published order', () => {
    const draw = published();
    const registrants = [...draw.registrants];
    [registrants[3], registrants[4]] = [registrants[4]!, registrants[3]!];
    const result = verifyDraw({ ...draw, registrants });
    expect(result).toEqual({
      ok: false,
      problems: [
        `registrants: not sorted by SHA-256 of the account number: ${registrants[4]} (at 4) comes before ${registrants[3]} (at 3)`,
        expect.stringMatching(/^listHash: /),
      ],
    });
  });

  it('finds a registrant listed twice and a public value not in its normal form', () => {
    const draw = published();
    const twice = verifyDraw({ ...draw, registrants: [draw.registrants[0], ...draw.registrants], publicValue: `${draw.publicValue} ` });
    expect(twice.ok).toBe(false);
    if (twice.ok) return;
    expect(twice.problems).toContain('publicValue: is not in its normal form (Unicode NFC, no spaces around it)');
    expect(twice.problems).toContain(`registrants: listed more than once: ${draw.registrants[0]}`);
  });

  it('names the field of a file of the wrong shape', () => {
    expect(verifyDraw([])).toEqual({ ok: false, problems: [expect.stringMatching(/^the file: /)] });
    const noSeed: Partial<PublishedDraw> = published();
    delete noSeed.seed;
    expect(verifyDraw(noSeed)).toEqual({ ok: false, problems: ['seed: must be a string'] });
    expect(verifyDraw({ ...published(), version: 2 })).toEqual({
      ok: false,
      problems: ['version: must be 1 (this command checks version 1 draws)'],
    });
    expect(verifyDraw({ ...published(), winners: ['12'] })).toEqual({
      ok: false,
      problems: ['winners.0: must be an account number (10 digits, the first not 0)'],
    });
    expect(verifyDraw({ ...published(), publicValue: ' \n ' })).toEqual({ ok: false, problems: ['publicValue: must not be empty'] });
    const junk = verifyDraw({ ...published(), registrants: Array.from({ length: 100 }, (_, i) => String(i)) });
    expect(junk).toEqual({
      ok: false,
      problems: [
        ...Array.from({ length: 20 }, (_, i) => `registrants.${i}: must be an account number (10 digits, the first not 0)`),
        'the file: 80 more problems of shape',
      ],
    });
    expect(verifyDraw({ ...published(), drawnBy: 'me' })).toEqual({
      ok: false,
      problems: ['the file: has a field not in a version 1 draw: drawnBy'],
    });
  });
});

describe('a draw over 100,000 registrants (issue 35: "the draw over 100,000 in ≤ 2 s"; timed by npm run bench:draw)', () => {
  it('ranks them all, 500 winners and the rest in order on the waitlist', () => {
    const numbers = accountNumbers(100_000);
    const seed = makeSeed();
    const started = performance.now();
    const draw = runDraw(input({ seed, accountNumbers: numbers, copies: 500 }));
    const took = performance.now() - started;
    console.log(`drew 100,000 registrants in ${took.toFixed(0)} ms`);

    expect(draw.registrants).toHaveLength(100_000);
    expect(draw.winners).toHaveLength(500);
    expect(draw.waitlist).toHaveLength(99_500);
    expect(new Set([...draw.winners, ...draw.waitlist]).size).toBe(100_000);
    const key = sha256(Buffer.concat([Buffer.from(seed, 'hex'), Buffer.from(VALUE, 'utf8')]));
    const ranks = [...draw.winners, ...draw.waitlist].map((n) => createHmac('sha256', key).update(n).digest('hex'));
    expect(ranks.findIndex((r, i) => i > 0 && r < ranks[i - 1]!)).toBe(-1);
    const hashes = draw.registrants.map((n) => sha256(n).toString('hex'));
    expect(hashes.findIndex((h, i) => i > 0 && h < hashes[i - 1]!)).toBe(-1);
    expect(verifyDraw(draw)).toEqual({ ok: true });
  });
});
