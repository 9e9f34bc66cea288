import { SALE_STATUS, saleStatus, saleStatusAt, type RenderedSale } from './status';

const start = new Date('2026-11-22T08:00:00Z');
const end = new Date('2026-11-29T08:00:00Z');
const at = (iso: string) => new Date(iso);

function sale(amountAvailable: number, saleEndTime: Date | null = end) {
  return { saleStartTime: start, saleEndTime, amountAvailable };
}

describe('saleStatus', () => {
  it('is coming soon before the start, even with no stock left', () => {
    expect(saleStatus(sale(100), at('2026-11-22T07:59:59.999Z'))).toBe(SALE_STATUS.COMING_SOON);
    expect(saleStatus(sale(0), at('2026-11-01T00:00:00Z'))).toBe(SALE_STATUS.COMING_SOON);
  });

  it('is on sale from exactly the start time', () => {
    expect(saleStatus(sale(100), start)).toBe(SALE_STATUS.ON_SALE);
    expect(saleStatus(sale(1), at('2026-11-25T00:00:00Z'))).toBe(SALE_STATUS.ON_SALE);
  });

  it('is sold out during the window when no stock is left', () => {
    expect(saleStatus(sale(0), start)).toBe(SALE_STATUS.SOLD_OUT);
    expect(saleStatus(sale(0), at('2026-11-25T00:00:00Z'))).toBe(SALE_STATUS.SOLD_OUT);
  });

  it('is ended from exactly the end time', () => {
    expect(saleStatus(sale(100), at('2026-11-29T07:59:59.999Z'))).toBe(SALE_STATUS.ON_SALE);
    expect(saleStatus(sale(100), end)).toBe(SALE_STATUS.ENDED);
    expect(saleStatus(sale(100), at('2027-01-01T00:00:00Z'))).toBe(SALE_STATUS.ENDED);
  });

  it('never ends without an end time', () => {
    expect(saleStatus(sale(5, null), at('2099-01-01T00:00:00Z'))).toBe(SALE_STATUS.ON_SALE);
  });

  it('uses the documented numbers for statusSell', () => {
    expect(SALE_STATUS).toEqual({ COMING_SOON: 0, ON_SALE: 1, SOLD_OUT: 2, ENDED: 3 });
  });
});

describe('saleStatusAt: a rendered sale kept live in the browser', () => {
  const rendered = (statusSell: RenderedSale['statusSell'], amountAvailable = 100): RenderedSale => ({
    statusSell,
    saleStartTime: start.toISOString(),
    saleEndTime: end.toISOString(),
    amountAvailable,
  });
  const ms = (iso: string) => new Date(iso).getTime();

  it('counts whole seconds down to the opening second, then is on sale', () => {
    const soon = rendered(SALE_STATUS.COMING_SOON);
    expect(saleStatusAt(soon, ms('2026-11-21T08:00:00Z'))).toEqual({ status: SALE_STATUS.COMING_SOON, secondsLeft: 86_400 });
    expect(saleStatusAt(soon, ms('2026-11-22T07:59:58.500Z'))).toEqual({ status: SALE_STATUS.COMING_SOON, secondsLeft: 2 });
    expect(saleStatusAt(soon, ms('2026-11-22T07:59:59.999Z'))).toEqual({ status: SALE_STATUS.COMING_SOON, secondsLeft: 1 });
    expect(saleStatusAt(soon, start.getTime())).toEqual({ status: SALE_STATUS.ON_SALE, secondsLeft: 0 });
  });

  it('opens as sold out when it has no stock, and ends at its end', () => {
    expect(saleStatusAt(rendered(SALE_STATUS.COMING_SOON, 0), start.getTime()).status).toBe(SALE_STATUS.SOLD_OUT);
    expect(saleStatusAt(rendered(SALE_STATUS.ON_SALE), end.getTime()).status).toBe(SALE_STATUS.ENDED);
  });

  it('never moves back from what the server rendered, whatever the browser’s clock says', () => {
    expect(saleStatusAt(rendered(SALE_STATUS.ON_SALE), ms('2026-11-01T00:00:00Z')).status).toBe(SALE_STATUS.ON_SALE);
    expect(saleStatusAt(rendered(SALE_STATUS.SOLD_OUT), ms('2026-11-01T00:00:00Z')).status).toBe(SALE_STATUS.SOLD_OUT);
    expect(saleStatusAt(rendered(SALE_STATUS.ENDED), ms('2026-11-01T00:00:00Z')).status).toBe(SALE_STATUS.ENDED);
  });
});
