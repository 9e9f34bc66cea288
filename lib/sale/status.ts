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

/** What a page knows of a sale to keep its status live in the browser (times as the API's ISO strings). */
export type RenderedSale = {
  statusSell: SaleStatus;
  saleStartTime: string;
  saleEndTime: string | null;
  amountAvailable: number;
};

/**
 * The status of a sale rendered as `sale.statusSell`, at a later time `now` (ms, the server's clock as the browser
 * estimates it), and while it is coming soon the whole seconds until it opens (1 in its last second, 0 once open).
 * A status only moves forward from what the server rendered (coming soon → on sale or sold out → ended): a page is
 * never told by a browser's clock that an open sale has not opened. Sold out stays sold out; stock is the server's.
 */
export function saleStatusAt(sale: RenderedSale, now: number): { status: SaleStatus; secondsLeft: number } {
  const window = { saleStartTime: new Date(sale.saleStartTime), saleEndTime: sale.saleEndTime ? new Date(sale.saleEndTime) : null };
  const at = new Date(now);
  switch (sale.statusSell) {
    case SALE_STATUS.COMING_SOON: {
      const status = saleStatus({ ...window, amountAvailable: sale.amountAvailable }, at);
      const secondsLeft = status === SALE_STATUS.COMING_SOON ? Math.ceil((window.saleStartTime.getTime() - now) / 1000) : 0;
      return { status, secondsLeft };
    }
    case SALE_STATUS.ON_SALE:
      return { status: saleWindowStatus(window, at) === SALE_STATUS.ENDED ? SALE_STATUS.ENDED : SALE_STATUS.ON_SALE, secondsLeft: 0 };
    default:
      return { status: sale.statusSell, secondsLeft: 0 };
  }
}
