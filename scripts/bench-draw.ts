/**
 * `npm run bench:draw`: the lottery's draw over 100,000 registrants (issue 35: "the draw over 100,000 in ≤ 2 s";
 * DESIGN §10; docs/benchmarks.md, "The draw"). First pure CPU, no server, no database: it times lib/sale/draw.ts's runDraw
 * as the store runs it once at the draw (the first, cold run is the figure), then the offline check of the same draw;
 * then the store's whole draw on a database (scripts/bench-draw-db.ts).
 * Prints met or MISSED; exits 1 on a miss. BENCH_REGISTRANTS (100000) and BENCH_COPIES (500) change the sizes.
 */
import { randomInt } from 'node:crypto';
import { makeSeed, runDraw, verifyDraw } from '../lib/sale/draw';
import { drawOnDatabase } from './bench-draw-db';

const TARGET_MS = 2_000;
const registrants = Number(process.env.BENCH_REGISTRANTS ?? 100_000);
const copies = Number(process.env.BENCH_COPIES ?? 500);

/** Distinct account numbers as the store makes them: 10 digits from the CSPRNG, no leading zero. */
function accountNumbers(count: number): string[] {
  const numbers = new Set<string>();
  while (numbers.size < count) numbers.add(String(randomInt(1_000_000_000, 10_000_000_000)));
  return [...numbers];
}

const numbers = accountNumbers(registrants);
const seed = makeSeed();
const input = {
  saleId: '1',
  channelKey: 'AURORA',
  copies,
  seed,
  publicValue: '福彩3D 第2026345期 开奖号码 371',
  publicValueSource: 'China Welfare Lottery 3D, draw 2026345: the three winning digits',
  accountNumbers: numbers,
};

const started = performance.now();
const draw = runDraw(input);
const drawMs = performance.now() - started;

const checkStarted = performance.now();
const check = verifyDraw(draw);
const checkMs = performance.now() - checkStarted;

const count = new Intl.NumberFormat('en').format(registrants);
console.log(
  `draw of ${count} registrants, ${draw.winners.length} winners: ${drawMs.toFixed(0)} ms (target ≤ ${TARGET_MS} ms: ${drawMs <= TARGET_MS ? 'met' : 'MISSED'})`,
);
console.log(
  `offline check of the same draw (npm run draw:verify's work, without reading the file): ${checkMs.toFixed(0)} ms, ${check.ok ? 'verified' : 'NOT verified'}`,
);
console.log(`node ${process.version}, ${new Date().toISOString()}`);
if (!check.ok) console.error(check.problems.join('\n'));

// The same draw as the store runs it, with its database work (scripts/bench-draw-db.ts).
void drawOnDatabase(registrants, copies).then((storeMs) => {
  const where = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'the embedded database';
  console.log(
    `the store's draw (drawLottery) of ${count} registrants on ${where}: ${storeMs.toFixed(0)} ms (target ≤ ${TARGET_MS} ms: ${storeMs <= TARGET_MS ? 'met' : 'MISSED'})`,
  );
  process.exit(drawMs <= TARGET_MS && storeMs <= TARGET_MS && check.ok ? 0 : 1);
});
