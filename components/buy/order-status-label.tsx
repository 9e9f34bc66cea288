import { orderState, type OrderState, type OrderStatus } from '@/lib/order/status';
import type { Translator } from '@/lib/i18n/translator';

const TONE: Record<OrderState, string> = {
  toPay: 'text-skin-sign',
  paid: 'text-emerald-700',
  cancelled: 'text-neutral-500',
  expired: 'text-neutral-500',
  closed: 'text-neutral-500',
};

/**
 * An order's state as the order records write it: to pay, paid, cancelled (by the buyer), expired (not paid in time) or
 * closed (issue 30: an expired order read "Cancelled", as if the buyer had cancelled it).
 */
export function OrderStatusLabel({ order, t }: { order: { statusTrade: OrderStatus; cancelReason: string | null }; t: Translator }) {
  const state = orderState(order);
  return (
    <span className={`shrink-0 font-semibold ${TONE[state]}`} data-testid="order-status" data-state={state}>
      {t(`orders.${state}`)}
    </span>
  );
}
