/**
 * The rules an operator's catalogue and sale edits keep (issue 32, "Sales" and "Blind boxes"), pure so they are tested
 * alone and shared by the services (./admin.ts, ./catalogue.ts) and the console's forms. Each answers the field a
 * refusal is about, or null when the edit may go ahead.
 */

/** Blind-box odds are written in basis points: 10000 is 100% (issue 32: "must add up to exactly 100%"). */
export const ODDS_TOTAL = 10_000;

/** The fields of a sale that freeze once its first order exists (issue 32: buyers bought on these terms). */
export const FROZEN_AFTER_FIRST_ORDER = ['price', 'limitPerUser', 'saleStartTime'] as const;
export type FrozenField = (typeof FROZEN_AFTER_FIRST_ORDER)[number];

/** What an edit asks of a sale's terms; a field left out is not changed. */
export type SaleTermsEdit = { price?: number; limitPerUser?: number; saleStartTime?: Date };
export type SaleTermsNow = { price: number; limitPerUser: number; saleStartTime: Date };

/**
 * The first frozen field an edit would change on a sale that has orders, or null. Setting a field to the value it has
 * is no change (a console form sends every field back).
 */
export function frozenFieldChanged(current: SaleTermsNow, edit: SaleTermsEdit, hasOrders: boolean): FrozenField | null {
  if (!hasOrders) return null;
  if (edit.price !== undefined && edit.price !== current.price) return 'price';
  if (edit.limitPerUser !== undefined && edit.limitPerUser !== current.limitPerUser) return 'limitPerUser';
  if (edit.saleStartTime !== undefined && edit.saleStartTime.getTime() !== current.saleStartTime.getTime()) return 'saleStartTime';
  return null;
}

/** Issue 32: "copies never below what is sold or held in unpaid orders". */
export function copiesBelowTaken(copies: number, taken: number): boolean {
  return copies < taken;
}

/** A sale's window: closing at or before opening is refused (it could never be bought). */
export function closesBeforeOpening(saleStartTime: Date, saleEndTime: Date | null): boolean {
  return saleEndTime !== null && saleEndTime.getTime() <= saleStartTime.getTime();
}

/**
 * Issue 32: "an opening time in the past asks for confirmation": opening a sale at once by a typo in the date is what
 * this guards. Only an opening time being set (a new sale, or a changed one) asks.
 */
export function openingNeedsConfirmation(saleStartTime: Date, now: Date, changed: boolean, confirmPast: boolean): boolean {
  return changed && !confirmPast && saleStartTime.getTime() < now.getTime();
}

/** An edition size below the editions already minted would number copies that exist twice. */
export function editionBelowMinted(amountSku: number, minted: number): boolean {
  return amountSku < minted;
}

/** A box's prizes as the console sends them. */
export type PrizeOdds = { weight: number };

/** The sum of a box's odds, in basis points. */
export function oddsTotal(prizes: readonly PrizeOdds[]): number {
  return prizes.reduce((sum, p) => sum + p.weight, 0);
}

/** Whether a box's odds add up to exactly 100% (issue 32: 99.99% and 100.01% are both refused). */
export function oddsAddUp(prizes: readonly PrizeOdds[]): boolean {
  return prizes.length > 0 && oddsTotal(prizes) === ODDS_TOTAL;
}

/** Basis points as the percent a buyer reads: 7000 → "70%", 1 → "0.01%". */
export function percentOf(basisPoints: number, total: number = ODDS_TOTAL): string {
  const percent = (basisPoints / total) * 100;
  return `${Number(percent.toFixed(2))}%`;
}

/** Where a sale stands as the console lists it (issue 32). */
export const CONSOLE_SALE_STATES = ['coming', 'live', 'paused', 'soldOut', 'closed', 'archived'] as const;
export type ConsoleSaleState = (typeof CONSOLE_SALE_STATES)[number];

/** The console's status of a sale: archived and closed outrank paused; paused outranks sold out and live. */
export function consoleSaleState(
  sale: { saleStartTime: Date; saleEndTime: Date | null; amountAvailable: number; pausedAt: Date | null; archivedAt: Date | null },
  now: Date,
): ConsoleSaleState {
  if (sale.archivedAt) return 'archived';
  if (sale.saleEndTime && now.getTime() >= sale.saleEndTime.getTime()) return 'closed';
  if (sale.pausedAt) return 'paused';
  if (now.getTime() < sale.saleStartTime.getTime()) return 'coming';
  return sale.amountAvailable <= 0 ? 'soldOut' : 'live';
}
