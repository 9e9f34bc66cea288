/**
 * A count (copies, edition sizes, stock left, limits, quantities) as a buyer reads it: grouped the way the channel's
 * language groups digits, by Intl ("1,000" in English and in Chinese), the same as the catalogues' `{count, number}`
 * arguments write them. One formatter for every count the store shows (issue 30: "1,000" on one page, "1000" on the
 * next). Edition numbers (`#12/1000`) are names of copies, not counts, and stay as DESIGN §5 writes them.
 */
const formats = new Map<string, Intl.NumberFormat>();

export function formatCount(count: number, locale: string): string {
  if (!Number.isFinite(count)) return '';
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    formats.set(locale, format);
  }
  return format.format(count);
}
