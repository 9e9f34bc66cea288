/** Builds the storefront when its sources are newer than the last build (shared by `npm run demo` and the benchmarks). */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { COMPRESSED_DIR, COMPRESSED_LIST, type CompressedList } from '../lib/server/static-door';
import { buildServer, serverNeedsBuild } from './build-server';

const SOURCES = [
  'app',
  'components',
  'lib',
  'styles',
  'public',
  'proxy.ts',
  'instrumentation.ts',
  'instrumentation-client.ts',
  'next.config.ts',
  'postcss.config.mjs',
  'package-lock.json',
  'tsconfig.json',
];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** Whether Next's build is missing or older than the sources (the compiled entry server: serverNeedsBuild). */
export function needsBuild(root = process.cwd()): boolean {
  const buildId = path.join(root, process.env.NEXT_DIST_DIR ?? '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > built);
}

/**
 * Compiles the entry server (scripts/build-server.ts) when server.ts or a file it imports changed since, or when Next
 * was just built (`npm start` runs the compiled file, never server.ts: issue 34), and compresses the build's static
 * files for the static door when they are not this build's (compressStaticIfNeeded). Exits on failure.
 */
export function buildServerIfNeeded(force = false): void {
  compressStaticIfNeeded();
  if (!force && !serverNeedsBuild()) return;
  try {
    buildServer();
  } catch (error) {
    console.error('compiling the entry server (server.ts) failed:', error);
    process.exit(1);
  }
}

/**
 * Whether the static door's compressed files (scripts/compress-static.ts) are missing, were made from another build, or
 * were made before the post-build step added the compile hint (a build kept from then gains it without a rebuild).
 */
export function staticNeedsCompressing(root = process.cwd()): boolean {
  const dist = path.join(root, process.env.NEXT_DIST_DIR ?? '.next');
  try {
    const list = JSON.parse(readFileSync(path.join(dist, COMPRESSED_DIR, COMPRESSED_LIST), 'utf8')) as CompressedList;
    return list.buildId !== readFileSync(path.join(dist, 'BUILD_ID'), 'utf8').trim() || list.compileHints !== true;
  } catch {
    return true;
  }
}

/**
 * Compresses the build's static files for the static door (lib/server/static-door.ts) when they are missing or from
 * another build (after `next build`); about 10 s; exits on failure.
 */
export function compressStaticIfNeeded(): void {
  if (!staticNeedsCompressing()) return;
  const result = spawnSync('npx', ['tsx', 'scripts/compress-static.ts'], { stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * Runs `next build` when needed, with Next's own output, then compiles the entry server when it is missing or older
 * than its sources; exits the process with the build's status when it fails.
 */
export function buildIfNeeded(): void {
  const next = needsBuild();
  if (next) {
    console.log('building the storefront (sources changed since the last build)...');
    const result = spawnSync('npx', ['next', 'build'], { stdio: 'inherit', env: process.env });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  buildServerIfNeeded(next);
}

/**
 * The steps of `next build` a newcomer is told about, by the line Next starts each with (issue 30: the first
 * `npm run demo` built for minutes and said nothing a newcomer could read). A line Next words differently is only
 * in the log; the time still counts up.
 */
const BUILD_STEPS: { line: RegExp; step: string }[] = [
  { line: /Creating an optimized production build/, step: 'compiling every page (the longest step)' },
  { line: /Running TypeScript|Linting and checking validity of types/, step: 'checking the types' },
  { line: /Collecting page data/, step: "collecting the pages' data" },
  { line: /Generating static pages/, step: 'rendering the static pages' },
  { line: /Finalizing page optimization/, step: 'finishing' },
];
/** How often a step that goes on says it is still going. */
const STILL_GOING_MS = 20_000;

/** "0:05", "2:41": minutes and seconds. */
function clock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export type BuildProgress = {
  /** The build to run; Next's by default. */
  command?: readonly [string, ...string[]];
  /** Where the build's own output goes. */
  log?: string;
  /** Whether the store was never built here (the first start) or its sources changed. */
  first?: boolean;
  print?: (line: string) => void;
  printError?: (text: string) => void;
  now?: () => number;
  stillGoingMs?: number;
  /** Stops the build (tests). */
  signal?: AbortSignal;
};

/**
 * Builds, telling a newcomer what happens: once, that it builds and about how long that takes, then the steps of
 * Next's build as they come, each with the time so far, and every 20 s that a step is still going. The build's own
 * output goes to `log`, shown in full if it fails. Resolves to the build's exit status.
 */
export async function buildWithProgress({
  command = ['npx', 'next', 'build'],
  log = path.join('.data', 'next-build.log'),
  first = true,
  print = (line) => console.log(line),
  printError = (text) => console.error(text),
  now = Date.now,
  stillGoingMs = STILL_GOING_MS,
  signal,
}: BuildProgress = {}): Promise<number> {
  print(
    `${first ? 'First start: building' : 'The sources changed since the last build: building'} the storefront for production ` +
      `(next build). It takes about 3 minutes on a 2-core machine, less on a faster one, and is done again only when the ` +
      `sources change. The addresses to open and the demo codes follow when the store is ready. The build's own output: ${log}`,
  );
  mkdirSync(path.dirname(log), { recursive: true });
  const out = createWriteStream(log);
  const started = now();
  let current = 'starting Next.js';
  const say = (text: string) => print(`  [${clock(now() - started)}] ${text}`);
  say(`${current}...`);
  const stillGoing = setInterval(() => say(`still ${current}...`), stillGoingMs);

  const [program, ...args] = command;
  const build = spawn(program, args, { env: process.env, stdio: ['ignore', 'pipe', 'pipe'], signal });
  build.on('error', () => {}); // a stopped or missing command ends in 'close' with no status
  for (const stream of [build.stdout, build.stderr]) {
    stream.pipe(out, { end: false });
    createInterface({ input: stream }).on('line', (line) => {
      const step = BUILD_STEPS.find((s) => s.line.test(line));
      if (!step || step.step === current) return;
      current = step.step;
      say(`${current}...`);
    });
  }
  const status = await new Promise<number>((resolve) => build.on('close', (code) => resolve(code ?? 1)));
  clearInterval(stillGoing);
  await new Promise<void>((resolve) => out.end(resolve));
  if (status === 0) say('built.');
  else printError(`\nThe build failed (it exited with ${status}). Its output (${log}):\n\n${readFileSync(log, 'utf8')}`);
  return status;
}

/** `npm run demo`'s build: with progress when one is needed (buildWithProgress); exits the process if it fails. */
export async function buildIfNeededWithProgress(): Promise<void> {
  if (!needsBuild()) {
    buildServerIfNeeded();
    console.log('The storefront is built (no source changed since): starting it.');
    return;
  }
  const first = !existsSync(path.join(process.env.NEXT_DIST_DIR ?? '.next', 'BUILD_ID'));
  const status = await buildWithProgress({ first });
  if (status !== 0) process.exit(status);
  buildServerIfNeeded(true);
}
