/**
 * `npm run demo`: everything needed to serve the demo channels on the embedded database:
 * migrate, seed (idempotent), build when the sources are newer than the last build, start.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

process.env.DEMO_MODE ??= '1';
process.env.DEFAULT_CHANNEL ??= 'AURORA';
process.env.PORT ??= '3000';

const root = process.cwd();
const SOURCES = ['app', 'components', 'lib', 'styles', 'public', 'middleware.ts', 'instrumentation.ts', 'next.config.ts', 'postcss.config.mjs', 'package-lock.json', 'tsconfig.json'];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function needsBuild(): boolean {
  const buildId = path.join(root, process.env.NEXT_DIST_DIR ?? '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > built);
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

async function main() {
  const { parseEnv, EnvError } = await import('../lib/env');
  try {
    parseEnv(process.env);
  } catch (error) {
    console.error(error instanceof EnvError ? error.message : error);
    process.exit(1);
  }
  run('npm', ['run', '--silent', 'db:migrate']);
  run('npm', ['run', '--silent', 'db:seed']);
  if (needsBuild()) {
    console.log('building the storefront (sources changed since the last build)...');
    run('npx', ['next', 'build']);
  }
  const server = spawn('npx', ['next', 'start', '-p', process.env.PORT!], { stdio: 'inherit', env: process.env });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code) => process.exit(code ?? 0));
}

void main();
