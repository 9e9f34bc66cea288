import { format } from 'date-fns';
import { TZDate } from '@date-fns/tz';

/**
 * A lottery's times as its form takes them (issue 35): like a sale's (components/ops/sale-time.ts), typed in the
 * channel's time zone, but to the second, since a registration window may open a few seconds after it is set up.
 */

/** An ISO moment as the `datetime-local` value (with seconds) it is in `timeZone` (`2026-12-01T20:00:00`). */
export function toLotteryInput(iso: string | null, timeZone: string): string {
  return iso ? format(new TZDate(new Date(iso).getTime(), timeZone), "yyyy-MM-dd'T'HH:mm:ss") : '';
}

/** A `datetime-local` value (seconds optional) read in `timeZone`, as an ISO moment; null when empty or malformed. */
export function fromLotteryInput(value: string, timeZone: string): string | null {
  const parts = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(value.trim());
  if (!parts) return null;
  const [y, mo, d, h, mi, s] = parts.slice(1).map((p) => Number(p ?? 0)) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  return new TZDate(y, mo - 1, d, h, mi, s, timeZone).toISOString();
}

/** An ISO moment for people in `timeZone`, to the second, with the zone named (`2026-12-01 20:00:05 Asia/Shanghai`). */
export function lotteryMoment(iso: string | null, timeZone: string): string {
  return iso ? `${format(new TZDate(new Date(iso).getTime(), timeZone), 'yyyy-MM-dd HH:mm:ss')} ${timeZone}` : '—';
}
