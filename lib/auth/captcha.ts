import 'server-only';
import { randomInt } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import { z } from 'zod';
import { captchaChallenges } from '../db/schema';
import { AppError } from '../procedure/errors';
import { randomToken, sha256 } from '../security/crypto';
import { AUTH_LIMITS, SLIDER } from './limits';
import { drawSliderChallenge } from './captcha-image';
import { powChallenge, powSolves } from './proof-of-work';
import type { SliderChallenge, TextChallenge } from './schema';
import type { ChannelScope } from '../procedure/scope';
import { msg } from '../procedure/messages';

/**
 * Self-hosted slider captcha (issue on accounts, spec §7 "behaviorVerify"). The server draws a picture with the gap and
 * decoy holes on one row and keeps the gap's position; the buyer drags the piece into the hole of its shape; the server
 * checks the drop is within SLIDER.tolerance px and that the drag looks like a hand's (duration, number of points,
 * uneven pace). A solved challenge grants one ticket, which the client sends in the `behaviorVerify` header of the call
 * it protects. Users who cannot drag get a question in words instead (the same ticket at the end).
 *
 * Either kind also carries a proof of work (./proof-of-work.ts), and an answer without its solution is refused before it
 * is judged: a program can read the question and match the picture (security finding 3), so each answer must cost it.
 */

/** The host's channel; `random` picks the gap (tests fix it). */
type Ctx = ChannelScope & { random?: (n: number) => number };
/** Creating and answering also need the server secret (AUTH_SECRET), from which each challenge's proof of work is derived. */
type ChallengeCtx = Ctx & { secret: string };

export const trackPointSchema = z.object({
  x: z
    .number({ error: 'must be a number' })
    .finite()
    .min(-SLIDER.width)
    .max(2 * SLIDER.width),
  y: z
    .number({ error: 'must be a number' })
    .finite()
    .min(-SLIDER.height)
    .max(2 * SLIDER.height)
    .default(0),
  /** Milliseconds since the drag started. */
  t: z
    .number({ error: 'must be a number' })
    .finite()
    .min(0)
    .max(10 * 60_000),
});
export type TrackPoint = z.infer<typeof trackPointSchema>;

const CHALLENGE_ID = /^[A-Za-z0-9_-]{16,64}$/;

export async function createChallenge(ctx: ChallengeCtx, kind: 'slider' | 'text'): Promise<SliderChallenge | TextChallenge> {
  const random = ctx.random ?? ((n: number) => randomInt(n));
  const id = randomToken(18);
  const expiresAt = new Date(ctx.now.getTime() + AUTH_LIMITS.challengeTtlMs);
  // Old rows are useless after their ticket's lifetime; sweeping them here keeps the table small without a job.
  await ctx.db
    .delete(captchaChallenges)
    .where(lt(captchaChallenges.expiresAt, new Date(ctx.now.getTime() - AUTH_LIMITS.ticketTtlMs - 60_000)));

  if (kind === 'text') {
    const a = 2 + random(18);
    const b = 2 + random(18);
    await ctx.db.insert(captchaChallenges).values({ id, channelId: ctx.channelId, kind, answer: a + b, createdAt: ctx.now, expiresAt });
    return { kind, id, question: { a, b }, pow: powChallenge(ctx.secret, id), expiresAt: expiresAt.toISOString() };
  }

  const { width, height, pieceSize } = SLIDER;
  // The gap is one of SLIDER.holes holes picked at random, so where a hole lies says nothing about whether it is the gap.
  const images = drawSliderChallenge({ width, height, pieceSize, holes: SLIDER.holes, minHoleX: SLIDER.minHoleX, random });
  const { x, y } = images;
  await ctx.db.insert(captchaChallenges).values({ id, channelId: ctx.channelId, kind, answer: x, createdAt: ctx.now, expiresAt });
  return {
    kind,
    id,
    width,
    height,
    pieceSize,
    y,
    background: `data:image/png;base64,${images.background.toString('base64')}`,
    piece: `data:image/png;base64,${images.piece.toString('base64')}`,
    pow: powChallenge(ctx.secret, id),
    expiresAt: expiresAt.toISOString(),
  };
}

/** `pow`: the number that solves the challenge's proof of work. */
export type Answer = { id: string; pow: number } & ({ x: number; track: TrackPoint[] } | { answer: number });

/** Why a drag does not look like a hand's, or null. Pure, exported for tests. */
export function dragProblem(x: number, track: TrackPoint[]): string | null {
  if (track.length < SLIDER.minTrackPoints) return `track: needs at least ${SLIDER.minTrackPoints} points`;
  for (let i = 1; i < track.length; i++) {
    if (track[i]!.t < track[i - 1]!.t) return 'track: times must not go backwards';
  }
  const duration = track[track.length - 1]!.t - track[0]!.t;
  if (duration < SLIDER.minDragMs) return 'track: too fast to be a drag';
  if (duration > SLIDER.maxDragMs) return 'track: took too long';
  if (Math.abs(track[track.length - 1]!.x - x) > 2) return 'track: does not end where the piece was dropped';
  if (Math.abs(track[0]!.x) > SLIDER.pieceSize / 2) return 'track: does not start at the slider';
  // A script moves at a constant pace; a hand speeds up and slows down. Compare the pace of the steps.
  const speeds: number[] = [];
  for (let i = 1; i < track.length; i++) {
    const dt = track[i]!.t - track[i - 1]!.t;
    const dx = track[i]!.x - track[i - 1]!.x;
    if (dt > 0 && dx !== 0) speeds.push(dx / dt);
  }
  if (speeds.length >= 3) {
    const mean = speeds.reduce((s, v) => s + v, 0) / speeds.length;
    const spread = Math.sqrt(speeds.reduce((s, v) => s + (v - mean) ** 2, 0) / speeds.length);
    if (mean !== 0 && spread / Math.abs(mean) < 0.05) return 'track: moves at a machine-constant pace';
  }
  return null;
}

/**
 * Checks an answer. Each challenge takes exactly one answer (right or wrong), so guessing needs a new picture each
 * time. Right → a single-use ticket for the `behaviorVerify` header.
 *
 * The proof of work is checked first, before the challenge is claimed or the answer judged: without it a program
 * learns nothing and costs the database nothing. A wrong solution leaves the challenge unanswered (it is not a guess
 * at the answer); a right one is spent with the challenge, so it cannot be replayed.
 */
export async function answerChallenge(ctx: ChallengeCtx, answer: Answer): Promise<{ ticket: string; expiresAt: string }> {
  if (!CHALLENGE_ID.test(answer.id)) throw new AppError(400, 'id: is not a captcha challenge id');
  if (!powSolves(ctx.secret, answer.id, answer.pow)) {
    throw new AppError(400, msg('captchaPow'));
  }
  // Claim the challenge atomically: a second answer (or a concurrent one) finds it already answered.
  const [row] = await ctx.db
    .update(captchaChallenges)
    .set({ answeredAt: ctx.now })
    .where(
      and(
        eq(captchaChallenges.id, answer.id),
        eq(captchaChallenges.channelId, ctx.channelId),
        isNull(captchaChallenges.answeredAt),
        gt(captchaChallenges.expiresAt, ctx.now),
      ),
    )
    .returning({ kind: captchaChallenges.kind, answer: captchaChallenges.answer });
  if (!row) throw new AppError(400, msg('captchaExpired'));

  if ('track' in answer) {
    if (row.kind !== 'slider') throw new AppError(400, msg('captchaWantsAnswer'));
    const problem = dragProblem(answer.x, answer.track);
    if (problem) throw new AppError(400, msg('captchaTrack'), { detail: problem });
    if (Math.abs(answer.x - row.answer) > SLIDER.tolerance) throw new AppError(400, msg('captchaMissed'));
  } else {
    if (row.kind !== 'text') throw new AppError(400, msg('captchaWantsDrag'));
    if (answer.answer !== row.answer) throw new AppError(400, msg('captchaWrongAnswer'));
  }

  const ticket = randomToken();
  const ticketExpiresAt = new Date(ctx.now.getTime() + AUTH_LIMITS.ticketTtlMs);
  await ctx.db
    .update(captchaChallenges)
    .set({ ticketHash: sha256(ticket), ticketExpiresAt })
    .where(eq(captchaChallenges.id, answer.id));
  return { ticket, expiresAt: ticketExpiresAt.toISOString() };
}

/**
 * Spends a ticket from the `behaviorVerify` header: true once, for a live ticket of this channel; false otherwise.
 * One UPDATE, so two concurrent calls with the same ticket cannot both pass.
 */
export async function consumeTicket(ctx: Ctx, ticket: string | null | undefined): Promise<boolean> {
  if (!ticket || ticket.length > 128) return false;
  const rows = await ctx.db
    .update(captchaChallenges)
    .set({ ticketUsedAt: ctx.now })
    .where(
      and(
        eq(captchaChallenges.ticketHash, sha256(ticket)),
        eq(captchaChallenges.channelId, ctx.channelId),
        isNull(captchaChallenges.ticketUsedAt),
        gt(captchaChallenges.ticketExpiresAt, ctx.now),
      ),
    )
    .returning({ id: captchaChallenges.id });
  return rows.length === 1;
}
