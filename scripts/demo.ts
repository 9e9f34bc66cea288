/**
 * `npm run demo`: everything needed to serve the demo channels on the embedded database:
 * migrate, seed (idempotent), build when the sources are newer than the last build, start.
 */
import { spawn, spawnSync } from 'node:child_process';
import { buildIfNeeded } from './build-if-needed';

process.env.DEMO_MODE ??= '1';
process.env.DEFAULT_CHANNEL ??= 'AURORA';
process.env.PORT ??= '3000';

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
  buildIfNeeded();
  // The entry server (server.ts) rewrites forwarding headers before Next sees a request (docs/security.md).
  const server = spawn('npx', ['tsx', 'server.ts'], { stdio: 'inherit', env: process.env });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code) => process.exit(code ?? 0));
}

void main();
