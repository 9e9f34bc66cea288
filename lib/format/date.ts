import { format } from 'date-fns';
import { TZDate } from '@date-fns/tz';

/** spec §9 default date pattern. */
export const DEFAULT_DATE_PATTERN = 'yyyy-MM-dd HH:mm:ss';

/**
 * Date format (spec §9): default yyyy-MM-dd HH:mm:ss; empty input gives an empty string, and so does an
 * unparseable one. Times are shown in the channel's time zone so server and browser render the same text.
 */
export function formatDate(
  input: Date | string | number | null | undefined,
  pattern: string = DEFAULT_DATE_PATTERN,
  timeZone = 'Asia/Shanghai',
): string {
  if (input === null || input === undefined || input === '') return '';
  const date = input instanceof Date ? input : new Date(input);
  if (Number.isNaN(date.getTime())) return '';
  return format(new TZDate(date.getTime(), isTimeZone(timeZone) ? timeZone : 'UTC'), pattern);
}

/** A misconfigured channel time zone must not break its pages: unknown zones fall back to UTC. */
function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * A console time with its zone named ("Nov 27, 2026, 2:13 PM GMT+8"): fields, not dateStyle/timeStyle, which Intl
 * cannot combine with the zone's name. `timeZone` empty: the runtime's own.
 */
export function zonedTimeFormat(locale: string, timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: timeZone || undefined,
    timeZoneName: 'short',
  });
}

/**
 * The zone's name in the reader's language (China Standard Time, 中国标准时间), not its IANA id, which a Chinese page
 * would show in Latin letters; the id when the runtime has no name for it.
 */
export function zoneName(timeZone: string, locale: string): string {
  try {
    const parts = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'long' }).formatToParts(new Date());
    return parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}
