import { openDb } from './client';
import { migrate } from './migrate';
import { env, EnvError } from '../env';

async function main() {
  const { db, close } = openDb();
  await migrate(db);
  await close();
  console.log(`migrations applied (${env().DATABASE_URL ? 'PostgreSQL' : `PGlite at ${env().PGLITE_DIR}`})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError ? error.message : error);
  process.exit(1);
});
