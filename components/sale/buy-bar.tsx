import { SALE_STATUS, saleStatusAt, type RenderedSale } from '@/lib/sale/status';
import { BuyActionView, type BuyActionLabels } from './buy-action-view';
import { BuyActionIsland } from './buy-action-island';

/**
 * The goods page's buy action (issue 34): a sale not yet open counts down to its opening second in the browser and
 * turns into "Buy now" there (./buy-action.tsx, loaded only then); any other is server HTML alone ("Buy now" a link to
 * the pay page, sold out and ended a disabled button). A page left open past a sale's end still offers "Buy now": the
 * pay page and the buy itself check the window again on the server.
 */
export function BuyBar(props: { sale: RenderedSale; saleId: string; renderedAt: number; labels: BuyActionLabels }) {
  const { status, secondsLeft } = saleStatusAt(props.sale, props.renderedAt);
  const view = <BuyActionView status={status} secondsLeft={secondsLeft} saleId={props.saleId} labels={props.labels} />;
  if (status === SALE_STATUS.COMING_SOON) return <BuyActionIsland {...props} fallback={view} />;
  return view;
}
