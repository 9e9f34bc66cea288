/**
 * Lighthouse mobile on one URL (goods detail performance median of 5 ≥ 95 and none below 90, issue 34; LCP ≤ 1.2 s,
 * DESIGN §10), with Debian's
 * Chromium (CHROME_PATH, default /usr/bin/chromium; DESIGN §11: lighthouse 12.8 on Node 20). Lighthouse's default
 * config: mobile form factor and screen, simulated slow-4G and 4× CPU throttling; performance category only. Each run
 * gets a fresh browser (empty cache, as a link opened from a chat). Chromium resolves *.localhost to loopback, so
 * `http://aurora.localhost:3310/goods/detail/1` reaches a local server.
 *
 * `npm run bench:pages` imports lighthouseMobile. Alone, for measuring: `npx tsx scripts/bench-lighthouse.ts <url>
 * [runs]` prints each run, the median and what the median run's report says costs the most; LIGHTHOUSE_REPORT=<file>
 * also writes that run's full JSON report.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Result } from 'lighthouse';

export type LighthouseRun = { performance: number; lcpMs: number; fcpMs: number; tbtMs: number; cls: number };
export type LighthouseSummary = { runs: LighthouseRun[]; median: { performance: number; lcpMs: number } };

const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

/** A load Lighthouse could not record (its report's runtimeError). */
class LighthouseRuntimeError extends Error {}

/** One Lighthouse run in a browser of its own; the figures and the full report. */
async function runOnce(url: string): Promise<{ run: LighthouseRun; lhr: Result }> {
  // Imported when run, not at the top: under tsx a static import of these ES modules goes through its CommonJS
  // transform, which adds esbuild's __name helper to the page functions Lighthouse sends to the browser ("__name is
  // not defined" there); and bench:pages pays for loading Lighthouse only when it measures.
  const [{ default: lighthouse }, chromeLauncher] = await Promise.all([import('lighthouse'), import('chrome-launcher')]);
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
  });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    if (!result) throw new Error(`lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new LighthouseRuntimeError(`lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const metric = (id: string): number => {
      const value = lhr.audits[id]?.numericValue;
      if (typeof value !== 'number') throw new Error(`lighthouse: no ${id} for ${url}`);
      return value;
    };
    const score = lhr.categories.performance?.score;
    if (typeof score !== 'number') throw new Error(`lighthouse: no performance score for ${url}`);
    return {
      run: {
        performance: Math.round(score * 100),
        lcpMs: metric('largest-contentful-paint'),
        fcpMs: metric('first-contentful-paint'),
        tbtMs: metric('total-blocking-time'),
        cls: metric('cumulative-layout-shift'),
      },
      lhr,
    };
  } finally {
    await chrome.kill();
  }
}

/** Lighthouse's own failures to record a load (NO_NAVSTART, NO_FCP, ...) say "run again": up to 3 tries per run. */
async function runWithRetries(url: string, tries = 3): Promise<{ run: LighthouseRun; lhr: Result }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(url);
    } catch (error) {
      if (!(error instanceof LighthouseRuntimeError) || attempt >= tries) throw error;
      console.error(`${error.message}; trying again (${attempt + 1} of ${tries})`);
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function measure(url: string, runs: number): Promise<{ summary: LighthouseSummary; reports: Result[] }> {
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`runs must be a whole number of 1 or more (got ${runs})`);
  const results: LighthouseRun[] = [];
  const reports: Result[] = [];
  // One after another: parallel runs on a shared 2-core machine would throttle each other.
  for (let i = 0; i < runs; i++) {
    const { run, lhr } = await runWithRetries(url);
    results.push(run);
    reports.push(lhr);
  }
  return {
    summary: {
      runs: results,
      median: { performance: median(results.map((r) => r.performance)), lcpMs: median(results.map((r) => r.lcpMs)) },
    },
    reports,
  };
}

/** Lighthouse mobile performance of `url`: each run's figures and the median of `runs` (score and LCP each). */
export async function lighthouseMobile(url: string, runs = 3): Promise<LighthouseSummary> {
  return (await measure(url, runs)).summary;
}

// ---------------------------------------------------------------- standalone: figures and what costs the most

const ms = (n: number) => `${Math.round(n)} ms`;

/** The report's view of where the time goes: LCP element and phases, then the audits with the largest savings. */
function describeCosts(lhr: Result): string[] {
  const lines: string[] = [];
  const lcpElement = lhr.audits['largest-contentful-paint-element'];
  const items = (lcpElement?.details as { items?: { items?: Record<string, unknown>[] }[] } | undefined)?.items ?? [];
  const node = items[0]?.items?.[0]?.node as { snippet?: string } | undefined;
  if (node?.snippet) lines.push(`LCP element: ${node.snippet.slice(0, 160)}`);
  const phases = items[1]?.items as { phase?: string; timing?: number }[] | undefined;
  if (phases?.length) lines.push(`LCP phases: ${phases.map((p) => `${p.phase} ${ms(p.timing ?? 0)}`).join(', ')}`);
  const ranked = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 1 && a.metricSavings)
    .map((a) => {
      const s = a.metricSavings ?? {};
      return { a, lcp: s.LCP ?? 0, fcp: s.FCP ?? 0, tbt: s.TBT ?? 0 };
    })
    .filter((x) => x.lcp + x.fcp + x.tbt > 0)
    .sort((x, y) => y.lcp + y.fcp + y.tbt - (x.lcp + x.fcp + x.tbt));
  for (const { a, lcp, fcp, tbt } of ranked.slice(0, 8)) {
    lines.push(`- ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}: saves LCP ${ms(lcp)}, FCP ${ms(fcp)}, TBT ${ms(tbt)}`);
  }
  for (const id of ['server-response-time', 'bootup-time', 'mainthread-work-breakdown', 'total-byte-weight']) {
    const a = lhr.audits[id];
    if (a?.displayValue) lines.push(`${a.title}: ${a.displayValue}`);
  }
  return lines;
}

async function main(): Promise<void> {
  const [url, runsArg] = process.argv.slice(2);
  if (!url) {
    console.error('usage: npx tsx scripts/bench-lighthouse.ts <url> [runs=3]');
    process.exit(2);
  }
  const { summary, reports } = await measure(url, runsArg ? Number(runsArg) : 3);
  console.log(`Lighthouse ${reports[0]?.lighthouseVersion} mobile, ${url}`);
  console.log('| run | performance | LCP | FCP | TBT | CLS |\n|---|---|---|---|---|---|');
  summary.runs.forEach((r, i) =>
    console.log(`| ${i + 1} | ${r.performance} | ${ms(r.lcpMs)} | ${ms(r.fcpMs)} | ${ms(r.tbtMs)} | ${r.cls.toFixed(3)} |`),
  );
  console.log(`| median | ${summary.median.performance} | ${ms(summary.median.lcpMs)} | | | |`);
  // The run whose score is the median one stands for the set.
  const medianIndex = summary.runs.map((r, i) => [r.performance, i] as const).sort((a, b) => a[0] - b[0])[
    Math.floor(summary.runs.length / 2)
  ]![1];
  const lhr = reports[medianIndex]!;
  console.log(`\nWhat run ${medianIndex + 1}'s report says costs the most:`);
  for (const line of describeCosts(lhr)) console.log(line);
  if (process.env.LIGHTHOUSE_REPORT) {
    writeFileSync(process.env.LIGHTHOUSE_REPORT, JSON.stringify(lhr, null, 1));
    console.log(`\nfull report of run ${medianIndex + 1}: ${process.env.LIGHTHOUSE_REPORT}`);
  }
}

if (path.basename(process.argv[1] ?? '') === 'bench-lighthouse.ts') {
  void main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
