import { openDb } from '../db/client';
import { seed, seedDemoBuyers } from './seed';
import { demoSummary } from './summary';
import { env, EnvError } from '../env';

async function main() {
  const { db, close } = openDb();
  const result = await seed(db);
  await seedDemoBuyers(db);
  await close();
  console.log(`seeded ${result.channels} channels and ${result.sales} sales (idempotent).`);
  console.log(demoSummary(result.codes, env().PORT));
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError ? error.message : error);
  process.exit(1);
});
