import { SALE_STATUS, type SaleStatus } from '@/lib/sale/status';
import { fillSlots, type Slotted } from '@/lib/i18n/slots';
import { RouterLink } from '@/components/shell/router-link';
import { countdownText } from './sale-countdown';

/** Texts of the buy bar, translated on the server (lib/i18n/slots.ts). */
export type BuyActionLabels = {
  buy: string;
  soldOut: string;
  ended: string;
  /** The countdown's accessible name: the opening time. */
  opensAt: string;
  /** goods.opensIn and goods.countdownDays, cut at their slots. */
  opensIn: Slotted;
  days: Slotted;
  /** Said once to screen readers when the sale opens while the page is open. */
  opened: Record<SaleStatus, string>;
};

const BASE = 'flex h-[0.88rem] flex-1 items-center justify-center rounded-full text-base font-semibold whitespace-nowrap';

/**
 * The buy bar's action drawn for one moment, with no client code (issue 34): "Buy now" is a link to the pay page (server
 * HTML that the router takes once the page's scripts run, components/shell/router-link.tsx), the other states a
 * disabled button. A sale not yet open counts down in the browser (./buy-action.tsx); one already open is drawn by the
 * server alone (./buy-bar.tsx).
 */
export function BuyActionView({
  status,
  secondsLeft,
  saleId,
  labels,
}: {
  status: SaleStatus;
  secondsLeft: number;
  saleId: string;
  labels: BuyActionLabels;
}) {
  switch (status) {
    case SALE_STATUS.ON_SALE:
      return (
        <RouterLink
          href={`/pay/${saleId}`}
          data-testid="buy-button"
          className={`${BASE} bg-skin-button text-skin-button-text shadow-card active:scale-95 motion-reduce:active:scale-100`}
        >
          {labels.buy}
        </RouterLink>
      );
    case SALE_STATUS.COMING_SOON:
      return (
        <span
          data-testid="buy-button"
          role="timer"
          aria-live="off"
          aria-label={labels.opensAt}
          className={`${BASE} bg-neutral-200 text-neutral-600 tabular-nums`}
        >
          {fillSlots(labels.opensIn, { countdown: countdownText(secondsLeft, labels.days) })}
        </span>
      );
    case SALE_STATUS.SOLD_OUT:
      return (
        <span data-testid="buy-button" aria-disabled="true" className={`${BASE} bg-neutral-200 text-neutral-500`}>
          {labels.soldOut}
        </span>
      );
    case SALE_STATUS.ENDED:
      return (
        <span data-testid="buy-button" aria-disabled="true" className={`${BASE} bg-neutral-200 text-neutral-500`}>
          {labels.ended}
        </span>
      );
  }
}
