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

type SaleWindow = { saleStartTime: Date; saleEndTime: Date | null };

/** Where `now` falls in the sale's window, whatever its stock: coming soon, on sale or ended (a buy's terms check). */
export function saleWindowStatus(
  sale: SaleWindow,
  now: Date,
): typeof SALE_STATUS.COMING_SOON | typeof SALE_STATUS.ON_SALE | typeof SALE_STATUS.ENDED {
  if (now < sale.saleStartTime) return SALE_STATUS.COMING_SOON;
  if (sale.saleEndTime && now >= sale.saleEndTime) return SALE_STATUS.ENDED;
  return SALE_STATUS.ON_SALE;
}

/** The status a buyer sees: the window, except that a sale whose stock ran out reads sold out once it has opened. */
export function saleStatus(sale: SaleWindow & { amountAvailable: number }, now: Date): SaleStatus {
  const window = saleWindowStatus(sale, now);
  return window !== SALE_STATUS.COMING_SOON && sale.amountAvailable <= 0 ? SALE_STATUS.SOLD_OUT : window;
}
