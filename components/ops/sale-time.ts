import { format } from 'date-fns';
import { TZDate } from '@date-fns/tz';

/**
 * A sale's times as the console shows and takes them (issue 32: "opening and closing time in the channel's time zone,
 * shown with the zone"): a `datetime-local` value read in the channel's zone, whatever the operator's computer says.
 */

/** An ISO moment as the `datetime-local` value it is in `timeZone` (`2026-12-01T20:00`). */
export function toZoneInput(iso: string | null, timeZone: string): string {
  return iso ? format(new TZDate(new Date(iso).getTime(), timeZone), "yyyy-MM-dd'T'HH:mm") : '';
}

/** A `datetime-local` value read in `timeZone`, as an ISO moment with the zone's offset; null when empty or malformed. */
export function fromZoneInput(value: string, timeZone: string): string | null {
  const parts = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value.trim());
  if (!parts) return null;
  const [, y, mo, d, h, mi] = parts.map(Number) as [number, number, number, number, number, number];
  return new TZDate(y, mo - 1, d, h, mi, 0, timeZone).toISOString();
}

/** An ISO moment written for people in `timeZone`, with the zone named (`2026-12-01 20:00 Asia/Shanghai`). */
export function zoneText(iso: string | null, timeZone: string): string {
  return iso ? `${format(new TZDate(new Date(iso).getTime(), timeZone), 'yyyy-MM-dd HH:mm')} ${timeZone}` : '—';
}
