import 'server-only';
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client';
import { redeemCodeBatches, redeemCodes } from '../db/schema';
import { hitAll } from '../rate-limit/rate-limit';
import { sha256 } from '../security/crypto';
import { AppError } from '../procedure/errors';
import { codeFromBytes, normalizeCode } from './format';
import { msg } from '../procedure/messages';
import { REASON } from '../procedure/reasons';

export { codeFromBytes, normalizeCode };

/**
 * Redeem and chain-up codes (DESIGN §10): 128 bits from the CSPRNG, written in Crockford base32 (26 characters, no
 * I, L, O, U), stored only as SHA-256. What a person types is normalised first (case, spaces, dashes, and the look-
 * alikes O→0, I/L→1), so a code read off a card works however it was typed. Wrong codes are also rate-limited per
 * user and per IP, and every wrong code gets the same answer.
 */
export const CODE_LIMITS = {
  /** Wrong codes allowed per user, and per IP, in the window. */
  wrongPerUser: 10,
  wrongPerIp: 30,
  windowMs: 60 * 60_000,
} as const;

/** A fresh code: 128 random bits as 26 base32 characters, grouped by 4 with dashes for reading off a card. */
export function generateCode(): string {
  return codeFromBytes(randomBytes(16));
}

/** The stored form of a code. */
export function hashCode(input: string): string {
  return sha256(normalizeCode(input));
}

type Attempt = { db: Db; kind: 'redeem' | 'chain'; userId: number; ip?: string; now: Date };

/** A counted try of a code; given back when the code turns out right (only wrong codes use up the allowance). */
export type CodeAttempt = { giveBack: () => Promise<void> };

/**
 * Counts a try against the user's and the IP's allowance before the code is looked at, and refuses (429) one over
 * either (security review, finding 10: counted first in one atomic statement each, so 40 concurrent wrong codes let
 * exactly the allowance through to be evaluated). The caller gives the try back unless the code was wrong.
 */
export async function takeCodeAttempt(a: Attempt): Promise<CodeAttempt> {
  const { refused, hits } = await hitAll(
    a.db,
    [
      { bucket: `code:${a.kind}:user:${a.userId}`, max: CODE_LIMITS.wrongPerUser, windowMs: CODE_LIMITS.windowMs },
      ...(a.ip ? [{ bucket: `code:${a.kind}:ip:${a.ip}`, max: CODE_LIMITS.wrongPerIp, windowMs: CODE_LIMITS.windowMs }] : []),
    ],
    a.now,
  );
  const giveBack = async () => {
    for (const h of hits) await h.undo();
  };
  if (refused) {
    throw new AppError(429, msg('codeFlood', { kind: a.kind }));
  }
  return { giveBack };
}

/**
 * The one answer every wrong code gets (used, unknown, or another offer's); its try stays counted. It names the kind of
 * code the buyer typed: a redeem code (gifts, exchanges) or the product or certificate code of a chain-up (issue 30).
 */
export function wrongCode(kind: Attempt['kind']): AppError {
  return new AppError(409, kind === 'chain' ? msg('chainCodeWrong') : msg('codeWrong'), { reason: REASON.badCode });
}

/**
 * Thrown inside a transaction when a code did not match; the caller answers `answer()` once the transaction is undone.
 * A wrong, used or unknown code gets the one `wrongCode` answer; a code of the offer that an operator revoked, or whose
 * batch expired, gets its own words (issue 32), since the buyer holds a real code and should know why it stopped working.
 */
export class CodeRefused extends Error {
  constructor(readonly why: { kind: 'wrong' } | { kind: 'revoked' } | { kind: 'expired'; at: Date } = { kind: 'wrong' }) {
    super(why.kind);
  }

  answer(): AppError {
    if (this.why.kind === 'revoked') return new AppError(409, msg('codeRevoked'), { reason: REASON.badCode });
    if (this.why.kind === 'expired') return new AppError(409, msg('codeExpired', { at: this.why.at }), { reason: REASON.badCode });
    return wrongCode('redeem');
  }
}

/** A code that is neither revoked on its own nor in a revoked batch, and whose batch (if any) has not expired at `now`. */
function usable(now: Date): SQL {
  return and(
    isNull(redeemCodes.revokedAt),
    or(
      isNull(redeemCodes.batchId),
      sql`exists (select 1 from ${redeemCodeBatches} where ${redeemCodeBatches.id} = ${redeemCodes.batchId} and ${redeemCodeBatches.revokedAt} is null and (${redeemCodeBatches.expiresAt} is null or ${redeemCodeBatches.expiresAt} > ${now.toISOString()}::timestamptz))`,
    ),
  )!;
}

/**
 * Uses one of an offer's redeem codes inside the caller's transaction (gifts and exchanges): the code is marked used
 * by this user only if it is the offer's, still unused, not revoked and not expired (issue 32), so concurrent tries of
 * one code let exactly one through. Returns the code's id; throws CodeRefused otherwise, saying why when the code is
 * the offer's, unused, and revoked or expired.
 */
export async function useRedeemCode(tx: Db, input: { offerId: number; code: string; userId: number; now: Date }): Promise<number> {
  const hash = hashCode(input.code);
  const [used] = await tx
    .update(redeemCodes)
    .set({ usedBy: input.userId, usedAt: input.now })
    .where(and(eq(redeemCodes.codeHash, hash), eq(redeemCodes.offerId, input.offerId), isNull(redeemCodes.usedBy), usable(input.now)))
    .returning({ id: redeemCodes.id });
  if (used) return used.id;
  const [found] = await tx
    .select({ revokedAt: redeemCodes.revokedAt, batchRevokedAt: redeemCodeBatches.revokedAt, expiresAt: redeemCodeBatches.expiresAt })
    .from(redeemCodes)
    .leftJoin(redeemCodeBatches, eq(redeemCodeBatches.id, redeemCodes.batchId))
    .where(and(eq(redeemCodes.codeHash, hash), eq(redeemCodes.offerId, input.offerId), isNull(redeemCodes.usedBy)));
  if (found?.revokedAt || found?.batchRevokedAt) throw new CodeRefused({ kind: 'revoked' });
  if (found?.expiresAt && found.expiresAt <= input.now) throw new CodeRefused({ kind: 'expired', at: found.expiresAt });
  throw new CodeRefused();
}
