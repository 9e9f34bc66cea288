/** `statusTrade` (DESIGN §5 name): what the order records page shows. Zod-free, for the browser too (lib/order/schema.ts). */
export const ORDER_STATUS = { toPay: 0, paid: 1, cancelled: 2, closed: 3 } as const;
export type OrderStatus = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];
