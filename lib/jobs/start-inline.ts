import 'server-only';
import { getDb } from '../db/client';
import { env } from '../env';
import { startJobs } from './runner';

const globalForJobs = globalThis as unknown as { storefrontJobs?: () => void };

/** Starts the background jobs in this server process once, unless JOBS=off (then `npm run worker` runs them). */
export function startInlineJobs(): void {
  if (env().JOBS !== 'inline' || globalForJobs.storefrontJobs) return;
  globalForJobs.storefrontJobs = startJobs(getDb());
}
