import { openDb } from '../db/client';
import { seed } from './seed';
import { SEED_CHANNELS } from './seed-data';
import { env, EnvError } from '../env';

async function main() {
  const { db, close } = openDb();
  const result = await seed(db);
  await close();
  const port = env().PORT;
  console.log(`seeded ${result.channels} channels and ${result.sales} sales (idempotent). Demo channels:`);
  for (const c of SEED_CHANNELS)
    console.log(`  http://${c.host}:${port}  ${c.key}  labels ${c.labelList}${c.status === 0 ? '  (status 0: hidden)' : ''}`);
  console.log('Demo codes (each works once):');
  for (const g of result.codes) console.log(`  http://${g.host}:${port}${g.path}  ${g.name}\n    ${g.codes.join('  ')}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError ? error.message : error);
  process.exit(1);
});
