import { SALE_STATUS, saleStatusAt, type SaleStatus } from '@/lib/sale/status';
import type { SaleRecord } from '@/lib/sale/schema';
import { formatDate } from '@/lib/format/date';
import { slotArgs, toSlotted } from '@/lib/i18n/slots';
import type { Translator } from '@/lib/i18n/translator';
import { SaleStatusView, type SaleStatusLabels } from './sale-status-view';
import { LiveSaleStatusIsland } from './live-sale-status-island';

/** The badge's texts in the channel's language; coming soon is named by its opening time (spec: "with the time it opens"). */
export function saleStatusLabels(t: Translator, saleStartTime: string, timeZone: string): SaleStatusLabels {
  const text: Record<SaleStatus, string> = {
    [SALE_STATUS.COMING_SOON]: t('status.comingSoon'),
    [SALE_STATUS.ON_SALE]: t('status.onSale'),
    [SALE_STATUS.SOLD_OUT]: t('status.soldOut'),
    [SALE_STATUS.ENDED]: t('status.ended'),
  };
  return {
    text,
    opensAt: t('status.opensAt', { time: formatDate(saleStartTime, 'MM-dd HH:mm', timeZone) }),
    days: toSlotted(t('status.countdownDays', slotArgs('days', 'hours'))),
  };
}

/**
 * A sale's state (server side): for a sale not yet open, a client leaf that counts down and changes state at the
 * opening second (components/sale/live-sale-status.tsx, loaded only then); otherwise server HTML alone. `renderedAt`: the server's time of this render.
 */
export function SaleStatusBadge({
  t,
  sale,
  renderedAt,
  timeZone,
}: {
  t: Translator;
  sale: SaleRecord;
  renderedAt: number;
  timeZone: string;
}) {
  const { statusSell, saleStartTime, saleEndTime, amountAvailable } = sale;
  const labels = saleStatusLabels(t, saleStartTime, timeZone);
  // A sale cancelled on drop day (issue 32) reads ended, and its badge says why.
  if (sale.cancelled) labels.text[SALE_STATUS.ENDED] = t('refunds.saleCancelled');
  const rendered = { statusSell, saleStartTime, saleEndTime, amountAvailable };
  const { status, secondsLeft } = saleStatusAt(rendered, renderedAt);
  // Only a sale not yet open changes while the page is open (its opening second): it counts down in the browser. One
  // already open is drawn here alone (issue 34); its end is checked again by the pay page and the buy itself.
  const view = <SaleStatusView status={status} secondsLeft={secondsLeft} labels={labels} />;
  if (status !== SALE_STATUS.COMING_SOON) return view;
  return <LiveSaleStatusIsland sale={rendered} renderedAt={renderedAt} labels={labels} fallback={view} />;
}
