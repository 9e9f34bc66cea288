/**
 * `npm run worker`: the background jobs (order expiry sweep, payment reconciliation, chain-up, retention sweep, the audit trail's included) in their own process, for deployments that
 * scale the web servers out (run those with JOBS=off). Needs DATABASE_URL: the embedded database belongs to one
 * process, and there the server runs the jobs itself (JOBS=inline, the default).
 */
async function main() {
  const { env, EnvError } = await import('../lib/env');
  try {
    if (!env().DATABASE_URL) {
      console.error(
        'worker: set DATABASE_URL to the PostgreSQL the servers use; with the embedded database the server runs the jobs itself (JOBS=inline).',
      );
      process.exit(1);
    }
  } catch (error) {
    console.error(error instanceof EnvError ? error.message : error);
    process.exit(1);
  }
  const { openDb } = await import('../lib/db/client');
  const { startJobs } = await import('../lib/jobs/runner');
  const { db, close } = openDb();
  const stop = startJobs(db, (line) => console.log(line));
  console.log(
    'worker: running the order expiry sweep, payment reconciliation, chain-up, retention sweep (the audit trail after AUDIT_RETENTION_DAYS among them) and domain re-check; Ctrl-C stops it',
  );
  const shutdown = async () => {
    stop();
    await close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  setInterval(() => {}, 1 << 30);
}

void main();
