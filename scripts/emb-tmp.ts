import { openEmbedded } from '../lib/db/embedded';
async function main() {
  const e = openEmbedded(undefined);
  await e.sql`select 1`;
  for (let round = 0; round < 3; round++) {
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    for (let i = 0; i < 2000; i++) await e.sql`select ${i}::int as i`;
    const u1 = process.cpuUsage(c1);
    const t2 = performance.now();
    const c2 = process.cpuUsage();
    await Promise.all(Array.from({ length: 2000 }, (_, i) => e.sql`select ${i}::int as i, 'x' as y`));
    const u2 = process.cpuUsage(c2);
    console.log(
      'seq',
      Math.round(performance.now() - t1 - (performance.now() - t2)),
      'ms',
      'par',
      Math.round(performance.now() - t2),
      'ms',
      'cpu seq',
      Math.round((u1.user + u1.system) / 1000),
      'par',
      Math.round((u2.user + u2.system) / 1000),
    );
  }
  await e.close();
}
main();
