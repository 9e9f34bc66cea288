/**
 * Blind-box draws (DESIGN §7): a roll in [0, total weight) from the CSPRNG picks the prize whose cumulative weight
 * range holds it, so each prize comes up with probability weight / total, the published odds.
 */
export type WeightedPrize = { commodityId: number; weight: number };

/** The prize a roll picks. Pure, for tests: `roll` must be in [0, sum of weights). */
export function pickByRoll<T extends WeightedPrize>(prizes: readonly T[], roll: number): T {
  let upTo = 0;
  for (const prize of prizes) {
    upTo += prize.weight;
    if (roll < upTo) return prize;
  }
  throw new RangeError(`roll ${roll} is outside [0, ${upTo})`);
}

export function totalWeight(prizes: readonly WeightedPrize[]): number {
  return prizes.reduce((sum, p) => sum + p.weight, 0);
}
