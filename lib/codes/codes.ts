import 'server-only';
import { and, count, eq, gte, isNull } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client';
import { codeAttempts, redeemCodes } from '../db/schema';
import { sha256 } from '../auth/crypto';
import { AppError } from '../api/errors';
import { codeFromBytes, normalizeCode } from './format';

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

type Attempt = { db: Db; kind: 'redeem' | 'chain'; userId: number; ip: string; now: Date };

/** Refuses (429) a user or IP that has entered too many wrong codes lately; call before looking the code up. */
export async function assertCodeAttemptsLeft(a: Attempt): Promise<void> {
  const since = new Date(a.now.getTime() - CODE_LIMITS.windowMs);
  const [byUser] = await a.db
    .select({ n: count() })
    .from(codeAttempts)
    .where(and(eq(codeAttempts.kind, a.kind), eq(codeAttempts.userId, a.userId), gte(codeAttempts.createdAt, since)));
  const [byIp] = a.ip
    ? await a.db
        .select({ n: count() })
        .from(codeAttempts)
        .where(and(eq(codeAttempts.kind, a.kind), eq(codeAttempts.ip, a.ip), gte(codeAttempts.createdAt, since)))
    : [{ n: 0 }];
  if ((byUser?.n ?? 0) >= CODE_LIMITS.wrongPerUser || (byIp?.n ?? 0) >= CODE_LIMITS.wrongPerIp) {
    throw new AppError(429, 'code: too many wrong codes; try again in an hour');
  }
}

/** Records a wrong code and answers the one message every wrong code gets (used, unknown, or another offer's). */
export async function wrongCode(a: Attempt): Promise<AppError> {
  await a.db.insert(codeAttempts).values({ kind: a.kind, userId: a.userId, ip: a.ip || null, createdAt: a.now });
  return new AppError(409, 'code: this code is not valid here, or has been used', { reason: 'badCode' });
}

/** Thrown inside a transaction when a code did not match; the caller answers `wrongCode` once the transaction is undone. */
export class CodeRefused extends Error {}

/**
 * Uses one of an offer's redeem codes inside the caller's transaction (gifts and exchanges): the code is marked used
 * by this user only if it is the offer's and still unused, so concurrent tries of one code let exactly one through.
 * Returns the code's id; throws CodeRefused otherwise.
 */
export async function useRedeemCode(tx: Db, input: { offerId: number; code: string; userId: number; now: Date }): Promise<number> {
  const [used] = await tx
    .update(redeemCodes)
    .set({ usedBy: input.userId, usedAt: input.now })
    .where(and(eq(redeemCodes.codeHash, hashCode(input.code)), eq(redeemCodes.offerId, input.offerId), isNull(redeemCodes.usedBy)))
    .returning({ id: redeemCodes.id });
  if (!used) throw new CodeRefused();
  return used.id;
}
