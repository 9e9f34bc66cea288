import type { DayFigures } from './daily';

/**
 * The reports table as CSV (issue 32: "CSV export"): the same rows and columns as the console's table, money in yuan
 * with two decimals, conversion in percent. RFC 4180 quoting; a cell starting with =, +, - or @ is prefixed with a
 * quote so a spreadsheet does not run it as a formula (none of ours can, but the rule costs nothing).
 */
export const REPORT_CSV_COLUMNS = [
  'day',
  'page_views',
  'visitors',
  'buyers',
  'orders',
  'paid_yuan',
  'refunds',
  'refund_yuan',
  'conversion_percent',
  // issue 36: visits through buyers' share links, and paid orders credited to a sharer (docs/sharing.md).
  'share_visits',
  'share_buys',
] as const;

const yuan = (fen: number) => (fen / 100).toFixed(2);

function cell(value: string): string {
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function reportCsv(rows: readonly DayFigures[]): string {
  const lines = [REPORT_CSV_COLUMNS.join(',')];
  for (const r of rows) {
    lines.push(
      [
        r.day,
        String(r.pageViews),
        String(r.visitors),
        String(r.buyers),
        String(r.orders),
        yuan(r.paidAmount),
        String(r.refunds),
        yuan(r.refundAmount),
        r.conversion === null ? '' : (r.conversion * 100).toFixed(2),
        String(r.shareVisits),
        String(r.shareBuys),
      ]
        .map(cell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The download's file name: the channel and the range, nothing a header could be broken with. */
export function reportCsvFileName(channelKey: string, from: string, to: string): string {
  return `report-${channelKey.replace(/[^A-Za-z0-9]/g, '')}-${from}-${to}.csv`;
}
