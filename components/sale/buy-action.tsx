'use client';

import Link from 'next/link';
import { SALE_STATUS, type RenderedSale, type SaleStatus } from '@/lib/sale/status';
import { fillSlots, type Slotted } from '@/lib/i18n/slots';
import { useSaleClock } from './use-sale-clock';
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
 * The goods page's buy bar action: "Buy now" while on sale; before the opening a countdown to its second ("Opens in
 * 2d 03:14:07") that turns into "Buy now" at zero without a reload, by the server's clock. The pay page and the buy
 * itself check the window again on the server.
 */
export function BuyAction({
  sale,
  saleId,
  renderedAt,
  labels,
}: {
  sale: RenderedSale;
  saleId: string;
  renderedAt: number;
  labels: BuyActionLabels;
}) {
  const { status, secondsLeft } = useSaleClock(sale, renderedAt);
  const wasSoon = sale.statusSell === SALE_STATUS.COMING_SOON;
  return (
    <>
      {wasSoon && (
        // Present from the first render, so the change is announced: once, when the sale opens.
        <span className="sr-only" role="status">
          {status === SALE_STATUS.COMING_SOON ? '' : labels.opened[status]}
        </span>
      )}
      <Action status={status} secondsLeft={secondsLeft} saleId={saleId} labels={labels} />
    </>
  );
}

function Action({
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
        <Link
          href={`/pay/${saleId}`}
          data-testid="buy-button"
          className={`${BASE} bg-skin-button text-skin-button-text shadow-card active:scale-95 motion-reduce:active:scale-100`}
        >
          {labels.buy}
        </Link>
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
