import { defineConfig } from 'drizzle-kit';

// Migrations are generated from lib/db/schema.ts and committed under drizzle/;
// they are applied by `npm run db:migrate`, never pushed.
export default defineConfig({
  dialect: 'postgresql',
  schema: './lib/db/schema.ts',
  out: './drizzle',
});
