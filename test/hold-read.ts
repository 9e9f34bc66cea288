import type { Db } from '@/lib/db/client';

/**
 * Holds `db`'s next raw read (`db.execute`: the waiting room's snapshot read) after it has run and before it returns,
 * as a slow refresh under a crowd, or another connection's read on PostgreSQL: `readRan` once it ran, `release` to
 * let it return.
 */
export function holdNextRead(db: Db): { readRan: Promise<void>; release: () => void } {
  let release: () => void = () => {};
  const held = new Promise<void>((go) => (release = go));
  let readDone: () => void = () => {};
  const readRan = new Promise<void>((done) => (readDone = done));
  const target = db as unknown as { execute: (query: unknown) => Promise<unknown> };
  const execute = target.execute.bind(db);
  target.execute = async (query: unknown) => {
    const result = await execute(query);
    target.execute = execute;
    readDone();
    await held;
    return result;
  };
  return { readRan, release };
}
