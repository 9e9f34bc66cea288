import { z } from 'zod';
import { ORDER_NO, ORDER_STATUS } from './status';

/**
 * Orders as they travel in the API's JSON (DESIGN §5 names; docs/api.md, docs/orders.md): ids and times are strings,
 * money is integer fen. The browser imports only types from here (constants it needs are in ./status, without zod).
 */

/** An order number in a request: as the store makes them (./status ORDER_NO). */
export const orderNoSchema = z.string({ error: 'is required and must be a string' }).regex(ORDER_NO, 'is not an order number');

export const orderViewSchema = z.object({
  orderNo: z.string(),
  saleId: z.string(),
  quantity: z.number().int(),
  /** Unit price and total, integer fen; `pricePay` is what is paid (no discounts yet). */
  price: z.number().int(),
  amount: z.number().int(),
  pricePay: z.number().int(),
  statusTrade: z.enum(ORDER_STATUS),
  /** 'buyer' | 'expired' | 'paidLate' when cancelled or closed. */
  cancelReason: z.string().nullable().describe("'buyer' | 'expired' | 'paidLate' when cancelled or closed, else null"),
  createTime: z.string(),
  /** When an unpaid order expires. */
  expireTime: z.string(),
  payTime: z.string().nullable(),
  cancelTime: z.string().nullable(),
  commodity: z.object({ id: z.string(), name: z.string(), cover: z.string(), isBlindBox: z.boolean() }),
  /** Edition numbers minted by this order, once paid. */
  editions: z.array(z.object({ holdingId: z.string(), number: z.number().int(), amountNumber: z.number().int() })),
  /**
   * The order's refunds (issue 32), oldest first: fen and copies given back, the edition numbers taken back, when, and
   * whether the provider has given the money back yet (`owed` → `done`).
   */
  refunds: z.array(
    z.object({
      amount: z.number().int(),
      quantity: z.number().int(),
      numbers: z.array(z.number().int()),
      time: z.string(),
      status: z.enum(['owed', 'done']),
    }),
  ),
});
export type OrderView = z.infer<typeof orderViewSchema>;
