import {
  closesBeforeOpening,
  consoleSaleState,
  copiesBelowTaken,
  editionBelowMinted,
  frozenFieldChanged,
  oddsAddUp,
  openingNeedsConfirmation,
  percentOf,
} from './rules';

// Issue 32's rules for an operator's sales and boxes, alone.

const at = (iso: string) => new Date(iso);
const terms = { price: 990, limitPerUser: 2, saleStartTime: at('2026-12-01T12:00:00Z') };

it('freezes price, limit and opening once a sale has orders, and only a real change counts', () => {
  expect(frozenFieldChanged(terms, { price: 1 }, false)).toBeNull();
  expect(frozenFieldChanged(terms, { price: 1 }, true)).toBe('price');
  expect(frozenFieldChanged(terms, { limitPerUser: 3 }, true)).toBe('limitPerUser');
  expect(frozenFieldChanged(terms, { saleStartTime: at('2026-12-01T12:00:01Z') }, true)).toBe('saleStartTime');
  expect(frozenFieldChanged(terms, { ...terms, saleStartTime: at('2026-12-01T12:00:00Z') }, true)).toBeNull();
});

it('keeps copies at or above those sold or held', () => {
  expect(copiesBelowTaken(4, 5)).toBe(true);
  expect(copiesBelowTaken(5, 5)).toBe(false);
});

it('refuses a window closing at or before its opening', () => {
  expect(closesBeforeOpening(at('2026-12-01T12:00:00Z'), at('2026-12-01T12:00:00Z'))).toBe(true);
  expect(closesBeforeOpening(at('2026-12-01T12:00:00Z'), null)).toBe(false);
  expect(closesBeforeOpening(at('2026-12-01T12:00:00Z'), at('2026-12-01T12:00:01Z'))).toBe(false);
});

it('asks to confirm a changed opening in the past only', () => {
  const now = at('2026-12-01T12:00:00Z');
  expect(openingNeedsConfirmation(at('2026-12-01T11:59:59Z'), now, true, false)).toBe(true);
  expect(openingNeedsConfirmation(at('2026-12-01T11:59:59Z'), now, true, true)).toBe(false);
  expect(openingNeedsConfirmation(at('2026-12-01T11:59:59Z'), now, false, false)).toBe(false);
  expect(openingNeedsConfirmation(at('2026-12-01T12:01:00Z'), now, true, false)).toBe(false);
});

it('keeps an edition size at or above the editions minted', () => {
  expect(editionBelowMinted(9, 10)).toBe(true);
  expect(editionBelowMinted(10, 10)).toBe(false);
});

it('wants odds adding up to exactly 10000 basis points: 99.99% and 100.01% are refused', () => {
  expect(oddsAddUp([{ weight: 7000 }, { weight: 2500 }, { weight: 500 }])).toBe(true);
  expect(oddsAddUp([{ weight: 7000 }, { weight: 2500 }, { weight: 499 }])).toBe(false);
  expect(oddsAddUp([{ weight: 7000 }, { weight: 2500 }, { weight: 501 }])).toBe(false);
  expect(oddsAddUp([])).toBe(false);
  expect(percentOf(9999)).toBe('99.99%');
  expect(percentOf(7000)).toBe('70%');
});

it('names a sale’s state as the console lists it', () => {
  const now = at('2026-12-01T12:00:00Z');
  const sale = { saleStartTime: at('2026-12-01T11:00:00Z'), saleEndTime: null, amountAvailable: 3, pausedAt: null, archivedAt: null };
  expect(consoleSaleState(sale, now)).toBe('live');
  expect(consoleSaleState({ ...sale, saleStartTime: at('2026-12-01T13:00:00Z') }, now)).toBe('coming');
  expect(consoleSaleState({ ...sale, amountAvailable: 0 }, now)).toBe('soldOut');
  expect(consoleSaleState({ ...sale, pausedAt: now }, now)).toBe('paused');
  expect(consoleSaleState({ ...sale, saleEndTime: now }, now)).toBe('closed');
  expect(consoleSaleState({ ...sale, archivedAt: now, pausedAt: now }, now)).toBe('archived');
});
