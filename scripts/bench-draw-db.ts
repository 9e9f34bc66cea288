/**
 * The draw as the store runs it (issue 35: "the draw over 100,000 in ≤ 2 s"), on the embedded database: 100,000
 * registrants of one lottery sale (inserted directly), then lib/sale/lottery.ts `drawLottery` timed whole: the locked
 * read, the ranking, the ranks written in one statement, the published file, the winners' texts queued, the audit
 * hook, in its one transaction. Run by `npm run bench:draw` after the pure-CPU figure; with DATABASE_URL, on that
 * PostgreSQL instead. BENCH_REGISTRANTS and BENCH_COPIES as there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export async function drawOnDatabase(registrants: number, copies: number): Promise<number> {
  const dir = process.env.DATABASE_URL ? null : mkdtempSync(path.join(os.tmpdir(), 'bench-draw-'));
  if (dir) process.env.PGLITE_DIR = dir;
  process.env.DEMO_MODE ??= '1';
  const { openDb } = await import('../lib/db/client');
  const { migrate } = await import('../lib/db/migrate');
  const { seed } = await import('../lib/demo/seed');
  const { makeSale } = await import('../test/buying');
  const { sql, eq } = await import('drizzle-orm');
  const { saleAllocations } = await import('../lib/db/schema');
  const { setUpLottery, drawLottery } = await import('../lib/sale/lottery');
  const { db, close } = openDb();
  try {
    await migrate(db);
    const now = new Date();
    await seed(db, now);
    const { saleId, channelId } = await makeSale(db, { code: `draw-${Date.now()}`, amount: copies, limitPerUser: 1, now });
    const settings = {
      registrationOpensAt: new Date(now.getTime() + 1000),
      registrationClosesAt: new Date(now.getTime() + 2000),
      drawAt: new Date(now.getTime() + 2000),
      purchaseWindowMinutes: 60,
      publicValueSource: 'bench',
    };
    await setUpLottery(db, channelId, saleId, settings, now, async () => {});
    // The registrants, with their users and account numbers, by generate_series (not the registration's path).
    await db.execute(sql`insert into users (uuid, phone)
      select 'draw-' || ${saleId} || '-' || g, '1' || lpad(g::text, 10, '0') from generate_series(1, ${registrants}) g`);
    await db.execute(sql`insert into lottery_registrations (sale_id, channel_id, user_id, account_number, created_at)
      select ${saleId}, ${channelId}, u.id, (1000000000 + row_number() over (order by u.id))::text, now()
      from users u where u.uuid like ${`draw-${saleId}-%`}`);
    // Registration over, the draw due: the one shortcut (a real lottery waits for them).
    const closed = new Date();
    await db
      .update(saleAllocations)
      .set({ registrationOpensAt: new Date(closed.getTime() - 1000), registrationClosesAt: closed, drawAt: closed })
      .where(eq(saleAllocations.saleId, saleId));
    const started = performance.now();
    await drawLottery(db, channelId, saleId, '福彩3D 第2026345期 开奖号码 371', new Date(), async () => {});
    return performance.now() - started;
  } finally {
    await close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
