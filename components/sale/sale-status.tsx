import { SALE_STATUS, type SaleStatus } from '@/lib/sale/status';
import type { SaleRecord } from '@/lib/sale/schema';
import { formatDate } from '@/lib/format/date';
import { slotArgs, toSlotted } from '@/lib/i18n/slots';
import type { Translator } from '@/lib/i18n/translator';
import { LiveSaleStatus, type SaleStatusLabels } from './live-sale-status';

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
 * A sale's state (server side): the badge itself is a client leaf that counts down and changes state at the opening
 * second (components/sale/live-sale-status.tsx). `renderedAt`: the server's time of this render.
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
  return <LiveSaleStatus sale={{ statusSell, saleStartTime, saleEndTime, amountAvailable }} renderedAt={renderedAt} labels={labels} />;
}
