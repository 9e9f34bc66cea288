/**
 * Sale states (statusSell), a documented enumeration (DESIGN §5, docs/api.md).
 * Derived from the sale window and the stock at read time, never stored, so it cannot go stale.
 */
export const SALE_STATUS = {
  COMING_SOON: 0,
  ON_SALE: 1,
  SOLD_OUT: 2,
  ENDED: 3,
} as const;

export type SaleStatus = (typeof SALE_STATUS)[keyof typeof SALE_STATUS];

export function saleStatus(sale: { saleStartTime: Date; saleEndTime: Date | null; amountAvailable: number }, now: Date): SaleStatus {
  if (now < sale.saleStartTime) return SALE_STATUS.COMING_SOON;
  if (sale.amountAvailable <= 0) return SALE_STATUS.SOLD_OUT;
  if (sale.saleEndTime && now >= sale.saleEndTime) return SALE_STATUS.ENDED;
  return SALE_STATUS.ON_SALE;
}
