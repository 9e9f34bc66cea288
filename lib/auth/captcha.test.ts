import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { apiCall } from '@/test/api';
import { captchaChallenges, channels } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import { solvePow, type PowChallenge } from '@/lib/client/proof-of-work';
import { answerChallenge, consumeTicket, createChallenge, dragProblem, type TrackPoint } from './captcha';
import type { SliderChallenge, TextChallenge } from './schema';
import { AUTH_LIMITS, SLIDER } from './limits';

let aurora: number;
let lumen: number;
const t0 = new Date('2026-11-22T08:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

const db = seededTestDb(t0);
beforeAll(async () => {
  aurora = (await db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'AURORA')))[0]!.id;
  lumen = (await db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'LUMEN')))[0]!.id;
});

const secret = 'captcha-test-secret-captcha-test-secret-01';
const ctx = (now = t0, channelId = aurora) => ({ db, now, channelId, secret });

/** The proof of work's solution, found as the browser finds it. */
async function solved(challenge: { pow: PowChallenge }): Promise<number> {
  const n = await solvePow(challenge.pow, { sliceMs: 1000 });
  if (n === null) throw new Error('the proof of work has no solution');
  return n;
}

/** The stored answer: what only the server knows. */
async function answerOf(id: string): Promise<number> {
  const [row] = await db.select({ answer: captchaChallenges.answer }).from(captchaChallenges).where(eq(captchaChallenges.id, id));
  return row!.answer;
}

/** A hand-like drag to `x`: eases in and out over ~900 ms, with a little vertical wobble. */
function humanTrack(x: number): TrackPoint[] {
  const points: TrackPoint[] = [];
  const steps = 24;
  for (let i = 0; i <= steps; i++) {
    const p = i / steps;
    const eased = p < 0.5 ? 2 * p * p : 1 - (-2 * p + 2) ** 2 / 2;
    points.push({ x: Math.round(x * eased * 10) / 10, y: Math.round(Math.sin(i) * 2), t: Math.round(900 * p + (i % 3) * 7) });
  }
  return points;
}

/** A 400 refusal: its words (English), or what its `data` says (the field it is about, the detail). */
async function expectAppError(promise: Promise<unknown>, expected: RegExp | Record<string, unknown>): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(400);
  if (expected instanceof RegExp) expect((error as AppError).message).toMatch(expected);
  else expect((error as AppError).data).toMatchObject(expected);
}

describe('slider captcha', () => {
  it('draws PNGs and keeps the gap position out of the answer', async () => {
    const challenge = (await createChallenge(ctx(), 'slider')) as SliderChallenge;
    expect(challenge).toMatchObject({ kind: 'slider', width: SLIDER.width, height: SLIDER.height, pieceSize: SLIDER.pieceSize });
    expect(challenge.background).toMatch(/^data:image\/png;base64,/);
    expect(challenge.piece).toMatch(/^data:image\/png;base64,/);
    const x = await answerOf(challenge.id);
    expect(JSON.stringify(challenge)).not.toMatch(new RegExp(`"(x|answer|holes|decoys)"`));
    expect(x).toBeGreaterThanOrEqual(SLIDER.minHoleX);
    expect(x).toBeLessThanOrEqual(SLIDER.width - SLIDER.pieceSize);
  });

  it('comes with a proof of work bound to it', async () => {
    const challenge = (await createChallenge(ctx(), 'slider')) as SliderChallenge;
    expect(challenge.pow).toMatchObject({
      algorithm: 'SHA-256',
      salt: expect.stringContaining(challenge.id),
      challenge: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('accepts a drop within the tolerance and grants a single-use ticket', async () => {
    const challenge = (await createChallenge(ctx(), 'slider')) as SliderChallenge;
    const x = (await answerOf(challenge.id)) + SLIDER.tolerance;
    const { ticket } = await answerChallenge(ctx(at(1000)), { id: challenge.id, pow: await solved(challenge), x, track: humanTrack(x) });
    expect(ticket.length).toBeGreaterThanOrEqual(43);
    expect(await consumeTicket(ctx(at(2000)), ticket)).toBe(true);
    expect(await consumeTicket(ctx(at(2001)), ticket)).toBe(false);
  });

  it('refuses a drop just outside the tolerance, and the picture takes no second answer', async () => {
    const challenge = (await createChallenge(ctx(), 'slider')) as SliderChallenge;
    const answer = await answerOf(challenge.id);
    const off = answer + SLIDER.tolerance + 1;
    await expectAppError(
      answerChallenge(ctx(at(1000)), { id: challenge.id, pow: await solved(challenge), x: off, track: humanTrack(off) }),
      /^The piece is not in the gap/,
    );
    await expectAppError(
      answerChallenge(ctx(at(2000)), { id: challenge.id, pow: await solved(challenge), x: answer, track: humanTrack(answer) }),
      /^This security check has expired or was already answered/,
    );
  });

  it('refuses an answer after the challenge expires', async () => {
    const challenge = (await createChallenge(ctx(), 'slider')) as SliderChallenge;
    const x = await answerOf(challenge.id);
    await expectAppError(
      answerChallenge(ctx(at(AUTH_LIMITS.challengeTtlMs)), { id: challenge.id, pow: await solved(challenge), x, track: humanTrack(x) }),
      /expired/,
    );
  });

  it('refuses the right position reached by a machine-like drag', async () => {
    const challenge = (await createChallenge(ctx(), 'slider')) as SliderChallenge;
    const x = await answerOf(challenge.id);
    const robot = Array.from({ length: 11 }, (_, i) => ({ x: (x * i) / 10, y: 0, t: i * 50 }));
    await expectAppError(answerChallenge(ctx(at(1000)), { id: challenge.id, pow: await solved(challenge), x, track: robot }), {
      field: 'track',
      detail: expect.stringMatching(/machine-constant pace/),
    });
  });

  it('keeps a challenge on its own channel', async () => {
    const challenge = (await createChallenge(ctx(), 'slider')) as SliderChallenge;
    const x = await answerOf(challenge.id);
    await expectAppError(
      answerChallenge(ctx(at(1000), lumen), { id: challenge.id, pow: await solved(challenge), x, track: humanTrack(x) }),
      { field: 'id' },
    );
  });
});

describe('proof of work (security finding 3)', () => {
  it('refuses a right drop without the right solution, and leaves the picture to be answered with it', async () => {
    const challenge = (await createChallenge(ctx(), 'slider')) as SliderChallenge;
    const x = await answerOf(challenge.id);
    const n = await solved(challenge);
    const wrong = n === 0 ? 1 : n - 1;
    await expectAppError(answerChallenge(ctx(at(1000)), { id: challenge.id, pow: wrong, x, track: humanTrack(x) }), { field: 'pow' });
    // A wrong solution is not a guess at the answer: the picture still takes its one answer.
    const { ticket } = await answerChallenge(ctx(at(2000)), { id: challenge.id, pow: n, x, track: humanTrack(x) });
    expect(await consumeTicket(ctx(at(3000)), ticket)).toBe(true);
  });

  it('refuses a right answer to the question without the right solution', async () => {
    const challenge = (await createChallenge(ctx(), 'text')) as TextChallenge;
    const answer = challenge.question.a + challenge.question.b;
    await expectAppError(answerChallenge(ctx(at(1000)), { id: challenge.id, pow: (await solved(challenge)) + 1, answer }), {
      field: 'pow',
    });
  });

  it('refuses a solution replayed after its challenge was answered', async () => {
    const challenge = (await createChallenge(ctx(), 'text')) as TextChallenge;
    const answer = challenge.question.a + challenge.question.b;
    const n = await solved(challenge);
    await answerChallenge(ctx(at(1000)), { id: challenge.id, pow: n, answer });
    await expectAppError(
      answerChallenge(ctx(at(2000)), { id: challenge.id, pow: n, answer }),
      /^This security check has expired or was already answered/,
    );
  });

  it("refuses one challenge's solution with another challenge's answer", async () => {
    const first = (await createChallenge(ctx(), 'text')) as TextChallenge;
    const n = await solved(first);
    // A second challenge shares the first one's secret number 1 time in 150,001: draw again then, so the test means what it says.
    let second = (await createChallenge(ctx(), 'text')) as TextChallenge;
    while ((await solved(second)) === n) second = (await createChallenge(ctx(), 'text')) as TextChallenge;
    const answer = second.question.a + second.question.b;
    await expectAppError(answerChallenge(ctx(at(1000)), { id: second.id, pow: n, answer }), { field: 'pow' });
  });

  it('is derived from the server secret: a solution under another secret does not pass', async () => {
    const challenge = (await createChallenge(ctx(), 'text')) as TextChallenge;
    const answer = challenge.question.a + challenge.question.b;
    const n = await solved(challenge);
    await expectAppError(
      answerChallenge({ ...ctx(at(1000)), secret: 'another-secret-another-secret-another-secret' }, { id: challenge.id, pow: n, answer }),
      { field: 'pow' },
    );
  });
});

describe('the verify call (through the API dispatcher)', () => {
  const call = (path: string, body: unknown) => apiCall(db, path, body, { ip: '10.0.0.1', now: new Date() });
  const question = async () => (await call('/auth/api/captcha/challenge', { kind: 'text' })).body.data as unknown as TextChallenge;

  it('answers with a ticket when the answer and the solution are right', async () => {
    const challenge = await question();
    const res = await call('/auth/api/captcha/verify', {
      id: challenge.id,
      pow: await solved(challenge),
      answer: challenge.question.a + challenge.question.b,
    });
    expect(res.body).toMatchObject({ code: 200, data: { ticket: expect.any(String) } });
  });

  it.each([
    ['missing', undefined, /^pow: is required/],
    ['a string', '12', /^pow: must be a number/],
    ['a fraction', 1.5, /^pow: must be a whole number/],
    ['negative', -1, /^pow: must be from 0 to /],
    ['too large', 1e9, /^pow: must be from 0 to /],
  ])('refuses a solution that is %s with a 400 naming pow, never a 500', async (_, pow, message) => {
    const challenge = await question();
    const res = await call('/auth/api/captcha/verify', { id: challenge.id, pow, answer: challenge.question.a + challenge.question.b });
    expect(res.status).toBe(200); // business errors travel in the envelope (DESIGN §5)
    expect(res.body).toMatchObject({ code: 400, message: expect.stringMatching(message) });
  });

  it('names pow for a drag without one too', async () => {
    const res = await call('/auth/api/captcha/verify', { id: 'AbCdEfGhIjKlMnOpQrStUvWx', x: 100, track: humanTrack(100) });
    expect(res.body).toMatchObject({ code: 400, message: expect.stringMatching(/^pow: is required/) });
  });

  it('refuses a wrong solution with a 400 naming pow', async () => {
    const challenge = await question();
    const n = await solved(challenge);
    const res = await call('/auth/api/captcha/verify', {
      id: challenge.id,
      pow: n === 0 ? 1 : n - 1,
      answer: challenge.question.a + challenge.question.b,
    });
    expect(res.body).toEqual({
      code: 400,
      message: 'The security check did not go through. Please load a new one and try again.',
      data: { field: 'pow' },
    });
  });
});

describe('what a hand-made drag looks like', () => {
  it('passes a human drag', () => {
    expect(dragProblem(120, humanTrack(120))).toBeNull();
  });
  it.each([
    [
      'too few points',
      [
        { x: 0, y: 0, t: 0 },
        { x: 120, y: 0, t: 600 },
      ],
      /at least 5 points/,
    ],
    ['too fast', humanTrack(120).map((p) => ({ ...p, t: p.t / 10 })), /too fast/],
    ['too slow', humanTrack(120).map((p) => ({ ...p, t: p.t * 100 })), /too long/],
    ['time going backwards', humanTrack(120).map((p, i) => ({ ...p, t: i === 5 ? 0 : p.t })), /backwards/],
    ['ending elsewhere', humanTrack(80), /does not end where/],
    ['starting mid-way', humanTrack(120).map((p) => ({ ...p, x: Math.max(p.x, 60) })), /does not start at the slider/],
  ])('refuses %s', (_, track, problem) => {
    expect(dragProblem(120, track as TrackPoint[])).toMatch(problem);
  });
});

describe('text fallback for those who cannot drag', () => {
  it('asks a sum and takes the right answer once', async () => {
    const challenge = (await createChallenge(ctx(), 'text')) as TextChallenge;
    const { a, b } = challenge.question;
    const { ticket } = await answerChallenge(ctx(at(1000)), { id: challenge.id, pow: await solved(challenge), answer: a + b });
    expect(await consumeTicket(ctx(at(1001)), ticket)).toBe(true);
  });

  it('refuses a wrong answer and a drag on a question', async () => {
    const wrong = (await createChallenge(ctx(), 'text')) as TextChallenge;
    await expectAppError(
      answerChallenge(ctx(at(1000)), { id: wrong.id, pow: await solved(wrong), answer: wrong.question.a + wrong.question.b + 1 }),
      /^That answer is not right/,
    );
    const dragged = (await createChallenge(ctx(), 'text')) as TextChallenge;
    await expectAppError(
      answerChallenge(ctx(at(1000)), { id: dragged.id, pow: await solved(dragged), x: 100, track: humanTrack(100) }),
      /takes an answer, not a drag/,
    );
  });
});

describe('tickets', () => {
  async function freshTicket(now = t0): Promise<string> {
    const challenge = (await createChallenge(ctx(now), 'text')) as TextChallenge;
    return (
      await answerChallenge(ctx(now), {
        id: challenge.id,
        pow: await solved(challenge),
        answer: challenge.question.a + challenge.question.b,
      })
    ).ticket;
  }

  it('expire after their lifetime', async () => {
    const ticket = await freshTicket();
    expect(await consumeTicket(ctx(at(AUTH_LIMITS.ticketTtlMs)), ticket)).toBe(false);
  });

  it('only work on their channel', async () => {
    const ticket = await freshTicket();
    expect(await consumeTicket(ctx(at(1), lumen), ticket)).toBe(false);
    expect(await consumeTicket(ctx(at(2)), ticket)).toBe(true);
  });

  it('pass exactly once under concurrent use', async () => {
    const ticket = await freshTicket();
    const results = await Promise.all(Array.from({ length: 10 }, () => consumeTicket(ctx(at(1)), ticket)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('refuse junk', async () => {
    expect(await consumeTicket(ctx(), null)).toBe(false);
    expect(await consumeTicket(ctx(), '')).toBe(false);
    expect(await consumeTicket(ctx(), 'not-a-ticket')).toBe(false);
    expect(await consumeTicket(ctx(), 'x'.repeat(500))).toBe(false);
  });
});
