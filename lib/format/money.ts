/**
 * Money format (spec §9): yen sign prefix, 2 decimals rounded down, grouped by 3: 1234.567 → "¥1,234.56".
 * Amounts are integer fen in the database and API (DESIGN §5); `formatFen` is what the UI uses.
 */
export function formatYuan(yuan: number | string | null | undefined): string {
  if (yuan === null || yuan === undefined || yuan === '') return '';
  const value = typeof yuan === 'string' ? Number(yuan) : yuan;
  if (!Number.isFinite(value)) return '';
  // Round down to the fen, guarding against binary float noise (0.29 * 100 = 28.999999999999996).
  const fen = Math.floor(Number((value * 100).toFixed(6)));
  return formatFen(fen);
}

/** Integer fen → "¥1,234.50". Negative amounts keep their sign after the yen sign: "¥-1.00". */
export function formatFen(fen: number): string {
  if (!Number.isFinite(fen)) return '';
  const whole = Math.trunc(fen);
  const sign = whole < 0 ? '-' : '';
  const abs = Math.abs(whole);
  const yuanPart = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fenPart = (abs % 100).toString().padStart(2, '0');
  return `¥${sign}${yuanPart}.${fenPart}`;
}

/** Price conversion (spec §9): yuan × 100 → integer fen. */
export function yuanToFen(yuan: number): number {
  return Math.round(yuan * 100);
}
