import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildWithProgress } from './build-if-needed';

// A newcomer's first `npm run demo` (issue 30): the build says what it does and how long it takes, once, then its steps
// as Next reports them, in words a newcomer reads, with the time so far; Next's own output goes to a log, shown in full
// when the build fails. The build here is a stand-in that writes what `next build` writes.

const NEXT_OUTPUT = [
  '   ▲ Next.js 16.4.5 (Turbopack)',
  '   Creating an optimized production build ...',
  ' ✓ Compiled successfully in 75s',
  '   Running TypeScript ...',
  '   Collecting page data using 1 worker ...',
  '   Generating static pages using 1 worker (0/6) ...',
  ' ✓ Generating static pages using 1 worker (6/6) in 1194ms',
  '   Finalizing page optimization ...',
  'Route (app)',
];

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-build-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A stand-in build: node printing `lines`, then exiting with `status`. */
const standIn = (lines: string[], status = 0): [string, ...string[]] => [
  process.execPath,
  '-e',
  `for (const line of ${JSON.stringify(lines)}) console.log(line); process.exit(${status});`,
];

/** A clock that moves 30 s every time it is read. */
function steppingClock(): () => number {
  let t = 0;
  return () => (t += 30_000) - 30_000;
}

describe('the demo build', () => {
  it('says once what it does and how long it takes, then each step of the build with the time so far', async () => {
    const printed: string[] = [];
    const log = path.join(dir, 'next-build.log');
    const status = await buildWithProgress({
      command: standIn(NEXT_OUTPUT),
      log,
      print: (line) => printed.push(line),
      now: steppingClock(),
    });
    expect(status).toBe(0);
    expect(printed[0]).toMatch(/^First start: building the storefront for production \(next build\)\. It takes about 3 minutes/);
    expect(printed[0]).toContain(log);
    expect(printed.slice(1)).toEqual([
      '  [0:30] starting Next.js...',
      '  [1:00] compiling every page (the longest step)...',
      '  [1:30] checking the types...',
      "  [2:00] collecting the pages' data...",
      '  [2:30] rendering the static pages...',
      '  [3:00] finishing...',
      '  [3:30] built.',
    ]);
    expect(fs.readFileSync(log, 'utf8')).toBe(NEXT_OUTPUT.map((line) => `${line}\n`).join(''));
  });

  it('shows the whole output of a build that fails, and its status', async () => {
    const errors: string[] = [];
    const status = await buildWithProgress({
      command: standIn(['   Creating an optimized production build ...', 'Type error: Property x does not exist'], 1),
      log: path.join(dir, 'next-build.log'),
      first: false,
      print: () => {},
      printError: (text) => errors.push(text),
    });
    expect(status).toBe(1);
    expect(errors.join('\n')).toMatch(/The build failed \(it exited with 1\)[\s\S]*Type error: Property x does not exist/);
  });

  it('says a long step is still going every 20 s', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const printed: string[] = [];
      let compiling = () => {};
      const started = new Promise<void>((resolve) => (compiling = resolve));
      const stop = new AbortController();
      const build = buildWithProgress({
        // Starts compiling, and goes on until stopped.
        command: [process.execPath, '-e', "console.log('   Creating an optimized production build ...'); setInterval(() => {}, 1000);"],
        log: path.join(dir, 'next-build.log'),
        print: (line) => {
          printed.push(line);
          if (line.includes('compiling')) compiling();
        },
        printError: () => {},
        now: () => 0,
        signal: stop.signal,
      });
      await started;
      jest.advanceTimersByTime(40_000);
      stop.abort();
      await build;
      expect(printed.filter((line) => line.includes('still'))).toEqual([
        '  [0:00] still compiling every page (the longest step)...',
        '  [0:00] still compiling every page (the longest step)...',
      ]);
    } finally {
      jest.useRealTimers();
    }
  });
});
