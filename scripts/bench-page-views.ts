/**
 * `npx tsx --conditions=react-server scripts/bench-page-views.ts`: what counting a page view costs the request that
 * enters the proxy (issue 31; docs/benchmarks.md, "Counting page views"): the check of its headers and the count in
 * memory, per call, over BENCH_CALLS calls (default 1,000,000). No database: the flush is one upsert per channel and
 * day every 5 s, outside any request.
 */
import { countsAsPageView, PageViewCounter } from '../lib/channel/page-views';

const CALLS = Number(process.env.BENCH_CALLS ?? 1_000_000);
const headers = new Headers({
  'user-agent': 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
  'sec-fetch-dest': 'document',
  accept: 'text/html',
});
const counter = new PageViewCounter();
const now = new Date('2026-11-26T08:00:00Z');
for (let i = 0; i < 10_000; i++) if (countsAsPageView('GET', headers, false)) counter.count(i % 4, 'Asia/Shanghai', now);
const started = process.hrtime.bigint();
for (let i = 0; i < CALLS; i++) if (countsAsPageView('GET', headers, false)) counter.count(i % 4, 'Asia/Shanghai', now);
const ns = Number(process.hrtime.bigint() - started) / CALLS;
console.log(`counting a page view: ${ns.toFixed(0)} ns per request over ${CALLS} calls (${counter.pending()} counted)`);
