import { clockText, countdownParts } from '@/lib/format/countdown';
import { fillSlots, type Slotted } from '@/lib/i18n/slots';

/** A countdown's text: from a day up in the catalogue's words (`days`, with `days` and `hours` or `clock` slots). */
export function countdownText(secondsLeft: number, days: Slotted): string {
  const parts = countdownParts(secondsLeft);
  const clock = clockText(parts);
  return parts.days > 0 ? fillSlots(days, { days: String(parts.days), hours: String(parts.hours), clock }) : clock;
}
