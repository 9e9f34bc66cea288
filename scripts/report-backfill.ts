/**
 * `npm run report:backfill -- <from> <to> [CHANNEL ...]`: counts the reports' daily figures (issue 32; lib/report/daily.ts)
 * again for every day from `from` to `to` (yyyy-MM-dd, in each channel's time zone), for every channel or those named
 * by key. The job counts only today and yesterday; older days move only through this (docs/reports.md). With the
 * embedded database, stop the server first (PGlite belongs to one process).
 */
async function main() {
  const { env, EnvError } = await import('../lib/env');
  try {
    env();
  } catch (error) {
    console.error(error instanceof EnvError ? error.message : error);
    process.exit(1);
  }
  const { isDay, daysBetween } = await import('../lib/report/days');
  const [from, to, ...keys] = process.argv.slice(2);
  if (!from || !to || !isDay(from) || !isDay(to) || to < from) {
    console.error('usage: npm run report:backfill -- <from yyyy-MM-dd> <to yyyy-MM-dd> [CHANNEL_KEY ...]  (from not after to)');
    process.exit(1);
  }
  if (daysBetween(from, to).length > 3660) {
    console.error('report:backfill: at most ten years at once');
    process.exit(1);
  }
  const { openDb } = await import('../lib/db/client');
  const { channels } = await import('../lib/db/schema');
  const { inArray } = await import('drizzle-orm');
  const { backfillDays } = await import('../lib/report/daily');
  const { db, close } = openDb();
  try {
    let ids: number[] | undefined;
    if (keys.length) {
      const found = await db.select({ id: channels.id, key: channels.key }).from(channels).where(inArray(channels.key, keys));
      const missing = keys.filter((k) => !found.some((c) => c.key === k));
      if (missing.length) throw new Error(`no channel ${missing.join(', ')}`);
      ids = found.map((c) => c.id);
    }
    const started = Date.now();
    const counted = await backfillDays(db, from, to, new Date(), ids);
    console.log(
      `report:backfill: counted ${counted} channel-day(s) from ${from} to ${to} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

export {};
