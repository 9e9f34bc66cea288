/** `statusTrade` (DESIGN §5 name): what the order records page shows. Zod-free, for the browser too (lib/order/schema.ts). */
export const ORDER_STATUS = { toPay: 0, paid: 1, cancelled: 2, closed: 3 } as const;
export type OrderStatus = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];

/** An order number as the store makes them (lib/order/service.ts `newOrderNo`): 22 digits. */
export const ORDER_NO = /^\d{22}$/;
/** A payment number of an order as the store makes them (lib/payment/service.ts `newPaymentNo`): `P` and 21 digits. */
export const PAYMENT_NO = /^P\d{21}$/;

/**
 * An order's state as a buyer reads it: `statusTrade`, with a cancelled order told apart by its `cancelReason`. One
 * that ran out of time unpaid reads "expired", one the buyer cancelled "cancelled" (issue 30: both read cancelled).
 */
export type OrderState = 'toPay' | 'paid' | 'cancelled' | 'expired' | 'closed';

export function orderState(order: { statusTrade: OrderStatus; cancelReason: string | null }): OrderState {
  switch (order.statusTrade) {
    case ORDER_STATUS.toPay:
      return 'toPay';
    case ORDER_STATUS.paid:
      return 'paid';
    case ORDER_STATUS.closed:
      return 'closed';
    case ORDER_STATUS.cancelled:
      return order.cancelReason === 'expired' ? 'expired' : 'cancelled';
  }
}
