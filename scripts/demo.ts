/**
 * `npm run demo`: everything needed to serve the demo channels on the embedded database: migrate, seed (idempotent),
 * build when the sources are newer than the last build, start; and once the server answers, where to go and the demo
 * codes, so they are the last thing on the screen (issue 30: they used to scroll away under the first build).
 */
import { spawn, spawnSync } from 'node:child_process';
import { buildIfNeededWithProgress } from './build-if-needed';
import { SERVER_OUT } from './build-server';

process.env.DEMO_MODE ??= '1';
process.env.DEFAULT_CHANNEL ??= 'AURORA';
process.env.PORT ??= '3000';

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Resolves once the server at `url` answers (if it stops first, the demo stops with it: see main). */
async function answers(url: string): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function main() {
  const { env, parseEnv, EnvError } = await import('../lib/env');
  try {
    parseEnv(process.env);
  } catch (error) {
    console.error(error instanceof EnvError ? error.message : error);
    process.exit(1);
  }
  run('npm', ['run', '--silent', 'db:migrate']);
  const { openDb } = await import('../lib/db/client');
  const { seed, seedDemoBuyers } = await import('../lib/demo/seed');
  const { demoSummary } = await import('../lib/demo/summary');
  const { db, close } = openDb();
  const seeded = await seed(db);
  // issue 36: two demo buyers of AURORA and a gift between them left unanswered past its 72 hours.
  await seedDemoBuyers(db);
  // The demo owner's one-time enrolment link (issue 31; demo mode only: DEMO_MODE is 1 here unless set otherwise).
  const { demoOwnerEnrolment, DEMO_OWNER } = await import('../lib/operator/first-owner');
  const owner = env().DEMO_MODE === '1' ? await demoOwnerEnrolment(db, new Date()) : null;
  await close();
  console.log(`seeded ${seeded.channels} channels and ${seeded.sales} sales (idempotent).`);
  await buildIfNeededWithProgress();

  // The entry server (server.ts) rewrites forwarding headers before Next sees a request (docs/security.md); started
  // compiled, as `npm start` runs it (issue 34: no TypeScript compiler in the production server).
  const server = spawn(process.execPath, [SERVER_OUT], { stdio: 'inherit', env: process.env });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code) => process.exit(code ?? 0));
  // Node does not resolve *.localhost (DESIGN §11): ask on the loopback address, or on the one the server listens on.
  const listening = process.env.HOSTNAME;
  const host =
    !listening || listening === '0.0.0.0' || listening === '::' ? '127.0.0.1' : listening.includes(':') ? `[${listening}]` : listening;
  await answers(`http://${host}:${env().PORT}/api/health`);
  const { publicOrigin } = await import('../lib/env');
  const console_ = publicOrigin(env().OPERATOR_HOST);
  const ops =
    env().DEMO_MODE !== '1'
      ? ''
      : owner
        ? `\nOperator console: ${console_}\n  Enrol the demo owner (${DEMO_OWNER}) once, at: ${console_}/enrol/${owner.token}`
        : `\nOperator console: ${console_}/sign-in (the demo owner ${DEMO_OWNER} has enrolled)`;
  console.log(`\nThe storefront is ready. ${demoSummary(seeded.codes, env().PORT)}${ops}\nStop it with Ctrl+C.`);
}

void main();
