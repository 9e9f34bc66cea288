import { SALE_STATUS, type SaleStatus } from '@/lib/sale/status';
import type { Slotted } from '@/lib/i18n/slots';
import { countdownText } from './sale-countdown';

/** Texts of the badge, translated on the server (no message formatter in the browser; lib/i18n/slots.ts). */
export type SaleStatusLabels = {
  text: Record<SaleStatus, string>;
  /** The badge's accessible name while coming soon: the opening time, which does not change every second. */
  opensAt: string;
  /** status.countdownDays cut at its slots. */
  days: Slotted;
};

const TONE: Record<SaleStatus, string> = {
  [SALE_STATUS.COMING_SOON]: 'bg-amber-100 text-amber-800',
  [SALE_STATUS.ON_SALE]: 'bg-skin-button text-skin-button-text',
  [SALE_STATUS.SOLD_OUT]: 'bg-neutral-200 text-neutral-600',
  [SALE_STATUS.ENDED]: 'bg-neutral-200 text-neutral-500',
};

/**
 * A sale's state as a badge, drawn for one moment: coming soon shows a clock icon and the time left ("2d 3h", then
 * "01:59:59"); the other states their word. One line always: it sits beside the price on a half-width card of a 390 px
 * phone. Screen readers get the opening time as the timer's name and no announcement per second (role timer: aria-live
 * off). No client code: a sale already open is drawn by the server alone (./sale-status.tsx); one not yet open counts
 * down in the browser (./live-sale-status.tsx).
 */
export function SaleStatusView({
  status,
  secondsLeft,
  labels,
  testId = 'sale-status',
}: {
  status: SaleStatus;
  secondsLeft: number;
  labels: SaleStatusLabels;
  testId?: string;
}) {
  const soon = status === SALE_STATUS.COMING_SOON;
  return (
    <span
      data-testid={testId}
      data-status={status}
      {...(soon ? { role: 'timer', 'aria-live': 'off' as const, 'aria-label': labels.opensAt } : {})}
      className={`inline-flex shrink-0 items-center gap-1 rounded-full py-0.5 text-xs font-medium whitespace-nowrap ${soon ? 'px-2' : 'px-2.5'} ${TONE[status]}`}
    >
      {soon ? (
        <>
          <svg viewBox="0 0 16 16" aria-hidden="true" className="size-[1.1em] shrink-0" fill="none" stroke="currentColor" strokeWidth={1.6}>
            <circle cx="8" cy="8" r="6.2" />
            <path d="M8 4.6V8l2.3 1.5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span className="tabular-nums" data-testid="sale-countdown">
            {countdownText(secondsLeft, labels.days)}
          </span>
        </>
      ) : (
        labels.text[status]
      )}
    </span>
  );
}
