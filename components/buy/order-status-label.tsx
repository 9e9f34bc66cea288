import { orderState, type OrderState, type OrderStatus } from '@/lib/order/status';
import type { Translator } from '@/lib/i18n/translator';

/** A paid order whose every copy was refunded (issue 32) reads "Refunded", not "Paid". */
type LabelState = OrderState | 'refunded';

const TONE: Record<LabelState, string> = {
  toPay: 'text-skin-sign',
  paid: 'text-emerald-700',
  cancelled: 'text-neutral-500',
  expired: 'text-neutral-500',
  closed: 'text-neutral-500',
  refunded: 'text-neutral-500',
};

/**
 * An order's state as the order records write it: to pay, paid, cancelled (by the buyer), expired (not paid in time) or
 * closed (issue 30: an expired order read "Cancelled", as if the buyer had cancelled it); refunded once every copy of
 * a paid order was refunded (issue 32; a part refund leaves it "Paid", its refunds listed under it).
 */
export function OrderStatusLabel({
  order,
  t,
}: {
  order: { statusTrade: OrderStatus; cancelReason: string | null; quantity?: number; refunds?: readonly { quantity: number }[] };
  t: Translator;
}) {
  const refunded = (order.refunds ?? []).reduce((sum, r) => sum + r.quantity, 0);
  const base = orderState(order);
  const state: LabelState = base === 'paid' && order.quantity !== undefined && refunded >= order.quantity ? 'refunded' : base;
  return (
    <span className={`shrink-0 font-semibold ${TONE[state]}`} data-testid="order-status" data-state={state}>
      {t(`orders.${state}`)}
    </span>
  );
}
