import { ORDER_STATUS, orderState } from './status';

describe('an order as a buyer reads it (issue 30)', () => {
  it('tells an order that expired unpaid from one the buyer cancelled', () => {
    expect(orderState({ statusTrade: ORDER_STATUS.cancelled, cancelReason: 'expired' })).toBe('expired');
    expect(orderState({ statusTrade: ORDER_STATUS.cancelled, cancelReason: 'buyer' })).toBe('cancelled');
  });

  it('reads the other states by their status', () => {
    expect(orderState({ statusTrade: ORDER_STATUS.toPay, cancelReason: null })).toBe('toPay');
    expect(orderState({ statusTrade: ORDER_STATUS.paid, cancelReason: null })).toBe('paid');
    expect(orderState({ statusTrade: ORDER_STATUS.closed, cancelReason: 'paidLate' })).toBe('closed');
  });
});
