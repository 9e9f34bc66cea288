import { buyerJourney, journeyTargets, JourneyTally, stepLines, type Answer, type Request } from './bench-journey';

// Issue 34: the journey mode of bench:drop takes each buyer through the drop day as their phone does, and reports a
// step that does not answer as failed (never skipped), busy answers per step, and the targets met or MISSED. The
// storefront here is a stand-in that answers as the real one does.

const ok = (data: unknown, ms = 10): Answer => ({ status: 200, ms, json: { code: 200, message: 'ok', data }, retryAfterMs: 1000 });
const refused = (reason: string): Answer => ({
  status: 200,
  ms: 10,
  json: { code: 409, message: 'no', data: { reason } },
  retryAfterMs: 1000,
});
const status = (code: number, ms = 10): Answer => ({ status: code, ms, json: null, retryAfterMs: 1000 });

/** A storefront where the sale is on sale and payState answers `payState`; records what was asked. */
function storefront(overrides: Partial<Record<string, () => Answer>> = {}) {
  const asked: Request[] = [];
  const answers: Record<string, () => Answer> = {
    '/goods/detail/7': () => status(200),
    '/pay/7': () => status(200),
    '/api/market/api/saleRecord/payState': () => ok({ left: 1 }),
    '/api/market/api/order/create': () => ok({ orderNo: '20261127000000000000001' }),
    '/api/market/api/pay/create': () =>
      ok({ provider: 'sandbox', payUrl: '/sandbox/cashier/P202611270000000000001', paymentNo: 'P202611270000000000001' }),
    '/sandbox/cashier/P202611270000000000001': () => status(200),
    '/api/market/api/pay/sandbox/detail': () => ok({ paymentNo: 'P202611270000000000001', status: 'created' }),
    '/api/market/api/pay/sandbox/complete': () => ok({ outcome: 'paid', order: { statusTrade: 1 } }),
    '/pay/success?orderNo=20261127000000000000001': () => status(200),
    '/api/market/api/pay/query': () => ok({ orderNo: '20261127000000000000001', statusTrade: 1 }),
    '/sellout': () => status(200),
    ...overrides,
  };
  const send = async (request: Request): Promise<Answer> => {
    asked.push(request);
    const answer = answers[request.path];
    return answer ? answer() : status(404);
  };
  return { asked, send };
}

const options = { saleId: 7, key: 'k1', pause: async () => {} };

describe('the drop journey of one buyer', () => {
  it('goes from the goods link to the result page as a phone does, and pays once', async () => {
    const { asked, send } = storefront();
    const tally = new JourneyTally();
    await buyerJourney(send, tally, options);
    expect(asked.map((r) => `${r.kind} ${r.method} ${r.path}`)).toEqual([
      'document GET /goods/detail/7',
      'document GET /pay/7',
      'api POST /api/market/api/saleRecord/payState',
      'api POST /api/market/api/order/create',
      'api POST /api/market/api/pay/create',
      'navigation GET /sandbox/cashier/P202611270000000000001',
      'api POST /api/market/api/pay/sandbox/detail',
      'api POST /api/market/api/pay/sandbox/complete',
      'navigation GET /pay/success?orderNo=20261127000000000000001',
      'api POST /api/market/api/pay/query',
    ]);
    expect(asked[2]!.body).toEqual({ id: 7 });
    expect(asked[6]!.body).toEqual({ paymentNo: 'P202611270000000000001' });
    expect(asked[9]!.body).toEqual({ orderNo: '20261127000000000000001' });
    expect(tally.failures).toBe(0);
    expect([...tally.paid]).toEqual([['20261127000000000000001', 1]]);
    expect(tally.requests).toBe(10);
  });

  it('reports a pay page own-data call that answers 404 as a failed step, and the buyer still buys and pays', async () => {
    const { send } = storefront({ '/api/market/api/saleRecord/payState': () => status(404) });
    const tally = new JourneyTally();
    await buyerJourney(send, tally, options);
    expect(tally.failed.get('payState')).toEqual(['HTTP 404 null']);
    expect(tally.paid.size).toBe(1);
    const targets = journeyTargets(tally, 100, { wallMs: 100, ms: [10, 10, 10] });
    expect(targets.find((t) => t.name === 'payState: every answer as expected')).toEqual({
      name: 'payState: every answer as expected',
      figure: '1 failed',
      met: false,
    });
    expect(stepLines(tally).find(([step]) => step === 'payState')?.[1]).toMatch(/FAILED 1 \(HTTP 404 null\)$/);
  });

  it('sends a refused buyer to the sellout page and no further', async () => {
    const { asked, send } = storefront({ '/api/market/api/order/create': () => refused('soldOut') });
    const tally = new JourneyTally();
    await buyerJourney(send, tally, options);
    expect(asked.slice(3).map((r) => `${r.kind} ${r.path}`)).toEqual(['api /api/market/api/order/create', 'navigation /sellout']);
    expect(tally.refused.get('soldOut')).toBe(1);
    expect(tally.failures).toBe(0);
    expect(tally.paid.size).toBe(0);
  });

  it('takes busy answers again after the wait, counts them per step, and misses the target when they pass 5%', async () => {
    let busyLeft = 2;
    const { send } = storefront({
      '/api/market/api/order/create': () => (busyLeft-- > 0 ? status(503) : ok({ orderNo: '20261127000000000000001' })),
    });
    const tally = new JourneyTally();
    await buyerJourney(send, tally, options);
    expect(tally.busy.get('order/create')).toBe(2);
    expect(tally.ms.get('order/create')).toHaveLength(1);
    expect(tally.paid.size).toBe(1);
    expect(tally.requests).toBe(12);
    const busyRow = journeyTargets(tally, 100, { wallMs: 100, ms: [10] }).find((t) => t.name.startsWith('busy answers'));
    expect(busyRow).toEqual({ name: 'busy answers ≤ 5% of requests', figure: '16.7%', met: false });
  });

  it('misses the wall time and p99 targets against the no-op phase', () => {
    const tally = new JourneyTally();
    tally.ms.get('pay page')!.push(10, 10, 95);
    const rows = journeyTargets(tally, 251, { wallMs: 100, ms: [10, 20, 30] });
    expect(rows[0]).toEqual({ name: 'journey wall time ≤ 2.5 × no-op phase', figure: '2.51 ×', met: false });
    expect(rows.find((r) => r.name === 'pay page p99 ≤ 3 × no-op p99')).toEqual({
      name: 'pay page p99 ≤ 3 × no-op p99',
      figure: '3.17 ×',
      met: false,
    });
    const within = journeyTargets(tally, 250, { wallMs: 100, ms: [10, 20, 40] });
    expect(within.every((r) => r.met)).toBe(true);
  });

  it('finds the same order when a tap is sent again, and counts a different one as a mismatch', async () => {
    let n = 0;
    const { send } = storefront({
      '/api/market/api/order/create': () => ok({ orderNo: n++ === 0 ? '20261127000000000000001' : '20261127000000000000002' }),
    });
    const tally = new JourneyTally();
    await buyerJourney(send, tally, { ...options, retryTap: true });
    expect(tally.retriedKeyMismatch).toBe(1);
  });
});

describe('a buyer who reaches the pay page after the sell-out', () => {
  it('follows its redirect to the sellout page, reads it and stops', async () => {
    const { asked, send } = storefront({ '/pay/7': () => ({ ...status(307), location: '/sellout' }) });
    const tally = new JourneyTally();
    await buyerJourney(send, tally, options);
    expect(asked.map((r) => `${r.kind} ${r.path}`)).toEqual(['document /goods/detail/7', 'document /pay/7', 'document /sellout']);
    expect(tally.failures).toBe(0);
    expect(tally.refused.get('soldOut (pay page)')).toBe(1);
  });

  it('counts a pay page sending the buyer to the login page as a failed step', async () => {
    const { send } = storefront({ '/pay/7': () => ({ ...status(307), location: '/login?redirect=%2Fpay%2F7' }) });
    const tally = new JourneyTally();
    await buyerJourney(send, tally, options);
    expect(tally.failed.get('pay page')).toEqual(['HTTP 307 to /login?redirect=%2Fpay%2F7']);
  });
});
