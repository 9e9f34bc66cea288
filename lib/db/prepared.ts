import type { Db } from './client';

/**
 * Queries every buy call runs, built once per database handle (drizzle's `.prepare()` with `sql.placeholder`s)
 * instead of on each call: building a select costs about 0.1 ms of the request thread, as much again as PGlite takes
 * to run it (docs/benchmarks.md, the drop's profile).
 */
const registry = new WeakMap<object, Map<string, unknown>>();

/** The query `name` of `db`, built by `build` the first time it is asked for. */
export function preparedOn<T>(db: Db, name: string, build: (db: Db) => T): T {
  let queries = registry.get(db);
  if (!queries) {
    queries = new Map();
    registry.set(db, queries);
  }
  let query = queries.get(name) as T | undefined;
  if (query === undefined) {
    query = build(db);
    queries.set(name, query);
  }
  return query;
}
