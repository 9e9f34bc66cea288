/**
 * The drop day's whole journey for `BENCH_JOURNEY=1 npm run bench:drop` (issue 34; docs/benchmarks.md, "The drop
 * journey"): what one logged-in buyer's phone asks the storefront for, from the goods link to the result page, and
 * the tally and targets the benchmark prints. The HTTP itself is the benchmark's (scripts/bench-drop.ts passes `send`),
 * so the journey and its verdicts are tested without a server (scripts/bench-journey.test.ts).
 */
import { percentileMs } from './bench-server';

/** The journey's steps in the order a buyer takes them; a refused buyer goes from `order/create` to the sellout page. */
export const STEPS = [
  'goods page',
  'pay page',
  'payState',
  'order/create',
  'pay/create',
  'cashier page',
  'cashier detail',
  'sandbox pay',
  'result page',
  'payResult',
  'sellout page',
] as const;
export type Step = (typeof STEPS)[number];

/**
 * How a request is made: a document load (a link opened, a page reloaded: PAGE_LOAD_HEADERS and the session cookie),
 * an in-app navigation (the router's flight fetch, as `router.push`/`router.replace` make after a tap), or an API call
 * (the store's API client: JSON, the token and the cookie).
 */
export type Kind = 'document' | 'navigation' | 'api';
/** `from`, for a navigation: the page the router is on, whose state tree it sends (Next renders from where they differ). */
export type Request = { step: Step; kind: Kind; method: 'GET' | 'POST'; path: string; body?: unknown; from?: string };
/** An answer: HTTP status (0 when the connection failed, with `network`), the JSON body of an API call, its time. */
export type Answer = { status: number; ms: number; json: unknown; retryAfterMs: number; network?: string; location?: string };
export type Send = (request: Request) => Promise<Answer>;

type Envelope = { code?: number; data?: Record<string, unknown> | null };

/** What each step saw: its answers' times, busy answers (retried) and failures (counted, never skipped). */
export class JourneyTally {
  readonly ms = new Map<Step, number[]>(STEPS.map((s) => [s, []]));
  readonly busy = new Map<Step, number>(STEPS.map((s) => [s, 0]));
  readonly failed = new Map<Step, string[]>(STEPS.map((s) => [s, []]));
  readonly refused = new Map<string, number>();
  readonly orders = new Set<string>();
  /** Orders whose sandbox payment answered paid, by order number (a second "paid" for one order is a doubled payment). */
  readonly paid = new Map<string, number>();
  retriedKeyMismatch = 0;

  /** Every request the journey made, busy answers and failures included: the no-op phase makes as many. */
  get requests(): number {
    let n = 0;
    for (const s of STEPS) n += this.ms.get(s)!.length + this.busy.get(s)!;
    return n;
  }
  get failures(): number {
    let n = 0;
    for (const list of this.failed.values()) n += list.length;
    return n;
  }
  fail(step: Step, why: string): void {
    this.failed.get(step)!.push(why);
  }
}

export type JourneyOptions = {
  saleId: number;
  /** The tap's idempotency key, and a second one for a double tap that made two keys. */
  key: string;
  secondKey?: string;
  /** The same tap sent again after its answer (a lost answer): must give the same order back. */
  retryTap?: boolean;
  /** Waits out a busy answer (Retry-After, give or take); the tests pass one that returns at once. */
  pause?: (ms: number) => Promise<void>;
  /** How many busy answers in a row a step takes before it counts as failed. */
  maxBusy?: number;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One request of a step: a busy answer (HTTP 503 or 429) is waited out and sent again, as a buyer taps again on the
 * busy toast or reloads a busy page; it counts as busy, not as an answer. Any other answer is the step's.
 */
async function ask(send: Send, tally: JourneyTally, request: Request, options: JourneyOptions): Promise<Answer | null> {
  const pause = options.pause ?? ((ms: number) => sleep(ms + Math.random() * 500));
  for (let attempt = 0; attempt < (options.maxBusy ?? 600); attempt++) {
    const answer = await send(request);
    if (answer.network) {
      // A reset or refused connection: an error the buyer sees. Their phone tries again.
      tally.fail(request.step, `network: ${answer.network}`);
      await pause(200);
      continue;
    }
    if (answer.status === 503 || answer.status === 429) {
      tally.busy.set(request.step, tally.busy.get(request.step)! + 1);
      await pause(answer.retryAfterMs);
      continue;
    }
    tally.ms.get(request.step)!.push(answer.ms);
    return answer;
  }
  tally.fail(request.step, `still busy after ${options.maxBusy ?? 600} tries`);
  return null;
}

/**
 * A page: 200 is what the buyer should see. A redirect to the sellout page (the pay page of a sale sold out since the
 * goods page was drawn) is the answer a late buyer gets: the browser follows it and the buyer reads that page;
 * anything else (a redirect to /login, a 404, a 500) is the step failing.
 */
async function page(
  send: Send,
  tally: JourneyTally,
  step: Step,
  kind: Kind,
  path: string,
  options: JourneyOptions,
  from?: string,
): Promise<'ok' | 'soldOut' | 'failed'> {
  const answer = await ask(send, tally, { step, kind, method: 'GET', path, ...(from ? { from } : {}) }, options);
  if (!answer) return 'failed';
  if (answer.status === 200) return 'ok';
  if (kind === 'document' && [302, 303, 307].includes(answer.status) && /^(https?:\/\/[^/]+)?\/sellout(\?|$)/.test(answer.location ?? '')) {
    tally.refused.set('soldOut (pay page)', (tally.refused.get('soldOut (pay page)') ?? 0) + 1);
    await page(send, tally, 'sellout page', 'document', '/sellout', options);
    return 'soldOut';
  }
  tally.fail(step, `HTTP ${answer.status}${answer.location ? ` to ${answer.location}` : ''}`);
  return 'failed';
}

/** An API call answered 200 with code 200: its data; anything else is recorded on the step (a refusal is returned). */
async function call(
  send: Send,
  tally: JourneyTally,
  step: Step,
  path: string,
  body: unknown,
  options: JourneyOptions,
): Promise<{ data: Record<string, unknown> } | { refusal: string } | null> {
  const answer = await ask(send, tally, { step, kind: 'api', method: 'POST', path, body }, options);
  if (!answer) return null;
  const envelope = (answer.json ?? {}) as Envelope;
  if (answer.status === 200 && envelope.code === 200) return { data: envelope.data ?? {} };
  if (answer.status === 200 && envelope.code === 409) return { refusal: String(envelope.data?.reason ?? 'other') };
  tally.fail(step, `HTTP ${answer.status} ${JSON.stringify(answer.json).slice(0, 160)}`);
  return null;
}

/** One tap's order/create, as the pay form sends it: the order number, the refusal's reason, or null (failed). */
async function create(send: Send, tally: JourneyTally, key: string, options: JourneyOptions): Promise<string | { refusal: string } | null> {
  const answer = await call(
    send,
    tally,
    'order/create',
    '/api/market/api/order/create',
    { saleId: options.saleId, quantity: 1, idempotencyKey: key },
    options,
  );
  if (!answer) return null;
  if ('refusal' in answer) return answer;
  const orderNo = answer.data.orderNo;
  if (typeof orderNo !== 'string') {
    tally.fail('order/create', 'no orderNo in the answer');
    return null;
  }
  return orderNo;
}

/**
 * One logged-in buyer's drop day: the goods page (opened from the shared link), the pay page, the pay page's own-data
 * call, order/create (the tap on Pay), then pay/create and the sandbox cashier as the demo's browser goes (the cashier
 * page, the payment it reads, its pay button's call, the result page it lands on). A refused buyer (sold out, over the limit) reads the
 * sellout page and stops, as the pay form sends them there. A step that fails is recorded and the buyer goes on where
 * a phone would (a pay page whose own data did not come still has its Pay button).
 */
export async function buyerJourney(send: Send, tally: JourneyTally, options: JourneyOptions): Promise<void> {
  const { saleId } = options;
  await page(send, tally, 'goods page', 'document', `/goods/detail/${saleId}`, options);
  // A sale sold out since: the pay page sends the buyer to the sellout page, and their journey ends there.
  if ((await page(send, tally, 'pay page', 'document', `/pay/${saleId}`, options)) === 'soldOut') return;
  // The pay page's buyer part (issue 34, the contract of ROUND44): one small JSON call.
  await call(send, tally, 'payState', '/api/market/api/saleRecord/payState', { id: saleId }, options);

  const taps = options.secondKey
    ? await Promise.all([create(send, tally, options.key, options), create(send, tally, options.secondKey, options)])
    : [await create(send, tally, options.key, options)];
  const orders = taps.filter((t): t is string => typeof t === 'string');
  for (const tap of taps) if (tap && typeof tap === 'object') tally.refused.set(tap.refusal, (tally.refused.get(tap.refusal) ?? 0) + 1);
  for (const orderNo of orders) tally.orders.add(orderNo);
  if (orders.length === 0) {
    if (taps.some((t) => t && typeof t === 'object'))
      await page(send, tally, 'sellout page', 'navigation', '/sellout', options, `/pay/${saleId}`);
    return;
  }
  const orderNo = orders[0]!;
  if (options.retryTap && !options.secondKey && (await create(send, tally, options.key, options)) !== orderNo) tally.retriedKeyMismatch++;

  const payment = await call(send, tally, 'pay/create', '/api/market/api/pay/create', { orderNo, provider: 'sandbox' }, options);
  if (!payment || 'refusal' in payment) {
    if (payment) tally.fail('pay/create', `refused: ${payment.refusal}`);
    return;
  }
  const payUrl = payment.data.payUrl;
  const paymentNo = typeof payUrl === 'string' ? /^\/sandbox\/cashier\/(P\d{21})$/.exec(payUrl)?.[1] : undefined;
  if (!paymentNo) {
    tally.fail('pay/create', `not the sandbox cashier: ${String(payUrl)}`);
    return;
  }
  await page(send, tally, 'cashier page', 'navigation', payUrl as string, options, `/pay/${saleId}`);
  // The cashier's buyer part (issue 34, as the pay page's payState): the payment, read by the page once shown.
  const detail = await call(send, tally, 'cashier detail', '/api/market/api/pay/sandbox/detail', { paymentNo }, options);
  if (detail && 'refusal' in detail) tally.fail('cashier detail', `refused: ${detail.refusal}`);
  else if (detail && detail.data.status !== 'created')
    tally.fail('cashier detail', `payment ${paymentNo} read as ${String(detail.data.status)}`);
  const settled = await call(send, tally, 'sandbox pay', '/api/market/api/pay/sandbox/complete', { paymentNo, outcome: 'paid' }, options);
  if (!settled || 'refusal' in settled) {
    if (settled) tally.fail('sandbox pay', `refused: ${settled.refusal}`);
    return;
  }
  const order = settled.data.order as { statusTrade?: number } | undefined;
  if (order?.statusTrade !== 1) {
    tally.fail('sandbox pay', `order ${orderNo} not paid after the cashier's pay (status ${String(order?.statusTrade)})`);
    return;
  }
  tally.paid.set(orderNo, (tally.paid.get(orderNo) ?? 0) + 1);
  await page(send, tally, 'result page', 'navigation', `/pay/success?orderNo=${encodeURIComponent(orderNo)}`, options, payUrl as string);
  // The result page's buyer part (issue 34, as the pay page's payState): the order, read by the page once shown.
  const result = await call(send, tally, 'payResult', '/api/market/api/pay/query', { orderNo }, options);
  if (result && !('refusal' in result) && result.data.statusTrade !== 1) {
    tally.fail('payResult', `order ${orderNo} read as not paid (status ${String(result.data.statusTrade)})`);
  } else if (result && 'refusal' in result) tally.fail('payResult', `refused: ${result.refusal}`);
}

/** A row of the printed targets: what, the figure, met or not. */
export type TargetRow = { name: string; figure: string; met: boolean };

/**
 * Issue 34's targets for the journey: its wall time ≤ 2.5 × the no-op phase's (as many GET /api/ping over as many
 * connections), every step's p99 ≤ 3 × the no-op phase's p99, busy answers ≤ 5% of the journey's requests, and every
 * step answered as a buyer expects (a step that failed, e.g. an own-data call that is not there, is a miss).
 */
export function journeyTargets(tally: JourneyTally, wallMs: number, noop: { wallMs: number; ms: number[] }): TargetRow[] {
  const noopP99 = percentileMs(noop.ms, 99) ?? 0;
  const rows: TargetRow[] = [
    { name: 'journey wall time ≤ 2.5 × no-op phase', figure: `${(wallMs / noop.wallMs).toFixed(2)} ×`, met: wallMs <= 2.5 * noop.wallMs },
  ];
  for (const step of STEPS) {
    const p99 = percentileMs(tally.ms.get(step)!, 99);
    if (p99 === null) continue;
    rows.push({ name: `${step} p99 ≤ 3 × no-op p99`, figure: `${(p99 / noopP99).toFixed(2)} ×`, met: p99 <= 3 * noopP99 });
  }
  const busy = [...tally.busy.values()].reduce((a, b) => a + b, 0);
  const share = tally.requests ? busy / tally.requests : 0;
  rows.push({ name: 'busy answers ≤ 5% of requests', figure: `${(share * 100).toFixed(1)}%`, met: share <= 0.05 });
  for (const step of STEPS) {
    const failed = tally.failed.get(step)!;
    const answered = tally.ms.get(step)!.length;
    if (failed.length === 0 && answered === 0) continue;
    rows.push({
      name: `${step}: every answer as expected`,
      figure: failed.length ? `${failed.length} failed` : 'yes',
      met: failed.length === 0,
    });
  }
  return rows;
}

/** The per-step lines: count, p50 / p99, busy answers, failures with the first reason. */
export function stepLines(tally: JourneyTally): [string, string][] {
  const fmt = (ms: number | null) => (ms === null ? '-' : `${ms.toFixed(1)} ms`);
  return STEPS.filter((s) => tally.ms.get(s)!.length + tally.busy.get(s)! + tally.failed.get(s)!.length > 0).map((step) => {
    const ms = tally.ms.get(step)!;
    const failed = tally.failed.get(step)!;
    return [
      step,
      `${String(ms.length).padStart(6)} answers  p50 ${fmt(percentileMs(ms, 50)).padStart(10)}  p99 ${fmt(percentileMs(ms, 99)).padStart(10)}` +
        `  busy ${tally.busy.get(step)}` +
        (failed.length ? `  FAILED ${failed.length} (${failed[0]})` : ''),
    ];
  });
}
