import { isUniqueViolation } from '../db/errors';

/**
 * A write that a tap may send twice, claimed once by the user's idempotency key (DESIGN §7): the order, the gift
 * received, the exchange, the chain-up.
 */
export type ClaimOnce<T> = {
  /**
   * The record this key already made for this request, or null when the key is new. A key that already served another
   * request throws `idempotencyKeyReused()` (lib/procedure/schemas.ts) here.
   */
  find: () => Promise<T | null>;
  /** Makes the record, in one transaction that writes the key, so that a copy of the same tap racing it fails there. */
  make: () => Promise<T>;
  /** Whether `make` failed the way a copy that lost the race fails; by default a unique violation (the key's index). */
  lostRace?: (error: unknown) => boolean;
  /** Runs before a copy that lost the race answers with the winner's record. */
  won?: () => Promise<unknown>;
  /** When `make` failed and no winner was found: may try again or answer otherwise; by default the error stands. */
  otherwise?: (error: unknown) => Promise<T>;
};

/** The record made with this key: the one it already made, else a new one, else (two copies raced) the winner's. */
export async function claimOnce<T>(claim: ClaimOnce<T>): Promise<T> {
  const again = await claim.find();
  if (again) return again;
  return madeOrWinner(claim);
}

/** `make`, and when it lost the race to another copy of the tap (which rolled it back), the winner's record. */
export async function madeOrWinner<T>({ find, make, lostRace = isUniqueViolation, won, otherwise }: ClaimOnce<T>): Promise<T> {
  try {
    return await make();
  } catch (error) {
    if (lostRace(error)) {
      const winner = await find();
      if (winner) {
        await won?.();
        return winner;
      }
    }
    if (otherwise) return otherwise(error);
    throw error;
  }
}
