import { SALE_STATUS, saleStatus } from './status';

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
