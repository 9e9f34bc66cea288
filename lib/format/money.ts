/**
 * Money format (spec §9): integer fen → "¥1,234.50", yen sign prefix, grouped by 3. Amounts are integer fen in the
 * database and API (DESIGN §5). Negative amounts keep their sign after the yen sign: "¥-1.00".
 */
export function formatFen(fen: number): string {
  if (!Number.isFinite(fen)) return '';
  const whole = Math.trunc(fen);
  const sign = whole < 0 ? '-' : '';
  const abs = Math.abs(whole);
  const yuanPart = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fenPart = (abs % 100).toString().padStart(2, '0');
  return `¥${sign}${yuanPart}.${fenPart}`;
}
