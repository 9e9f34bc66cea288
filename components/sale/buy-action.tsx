'use client';

import { SALE_STATUS, type RenderedSale } from '@/lib/sale/status';
import { useSaleClock } from './use-sale-clock';
import { BuyActionView, type BuyActionLabels } from './buy-action-view';

export type { BuyActionLabels } from './buy-action-view';

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
      <BuyActionView status={status} secondsLeft={secondsLeft} saleId={saleId} labels={labels} />
    </>
  );
}
