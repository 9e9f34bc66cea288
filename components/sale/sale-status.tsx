import { SALE_STATUS, type SaleStatus } from '@/lib/sale/status';
import { formatDate } from '@/lib/format/date';
import type { Translator } from '@/lib/i18n/translator';

/** Short text of a sale's state; coming soon carries the opening time (spec: "with the time it opens"). */
export function saleStatusText(t: Translator, status: SaleStatus, saleStartTime: string, timeZone: string): string {
  switch (status) {
    case SALE_STATUS.COMING_SOON:
      return t('status.opensAt', { time: formatDate(saleStartTime, 'MM-dd HH:mm', timeZone) });
    case SALE_STATUS.ON_SALE:
      return t('status.onSale');
    case SALE_STATUS.SOLD_OUT:
      return t('status.soldOut');
    case SALE_STATUS.ENDED:
      return t('status.ended');
  }
}

const TONE: Record<SaleStatus, string> = {
  [SALE_STATUS.COMING_SOON]: 'bg-amber-100 text-amber-800',
  [SALE_STATUS.ON_SALE]: 'bg-skin-button text-skin-button-text',
  [SALE_STATUS.SOLD_OUT]: 'bg-neutral-200 text-neutral-600',
  [SALE_STATUS.ENDED]: 'bg-neutral-200 text-neutral-500',
};

export function SaleStatusBadge({
  t,
  status,
  saleStartTime,
  timeZone,
}: {
  t: Translator;
  status: SaleStatus;
  saleStartTime: string;
  timeZone: string;
}) {
  return (
    <span
      data-testid="sale-status"
      data-status={status}
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ${TONE[status]}`}
    >
      {saleStatusText(t, status, saleStartTime, timeZone)}
    </span>
  );
}
