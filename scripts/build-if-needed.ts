/** Builds the storefront when its sources are newer than the last build (shared by `npm run demo` and the benchmarks). */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCES = [
  'app',
  'components',
  'lib',
  'styles',
  'public',
  'proxy.ts',
  'instrumentation.ts',
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

export function needsBuild(root = process.cwd()): boolean {
  const buildId = path.join(root, process.env.NEXT_DIST_DIR ?? '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > built);
}

/** Runs `next build` when needed; exits the process with the build's status when it fails. */
export function buildIfNeeded(): void {
  if (!needsBuild()) return;
  console.log('building the storefront (sources changed since the last build)...');
  const result = spawnSync('npx', ['next', 'build'], { stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
