/**
 * Every statement prepared once per connection, so statements pipeline (docs/benchmarks.md, "Statements that
 * pipeline").
 *
 * drizzle-orm's postgres.js driver sends each query with `prepare: false` unless it was given a name with
 * `.prepare(name)`. postgres.js (3.4.9, `build` in its connection.js) then describes every statement with parameters
 * before running it: a round trip of its own (Parse, Describe, Flush), during which the connection takes no other
 * statement. So a connection ran one statement at a time, in two round trips, where it could carry many at once. On the
 * embedded database, whose one connection carries every request, a drop's buyers queued behind that: 800 statements a
 * second with both threads mostly idle.
 *
 * A prepared statement is described once per connection and then sent with the statements around it. The statements a
 * connection prepares are bounded: the first `max` distinct texts a client sees are prepared, any other is sent as
 * drizzle asks (a text carrying a value inlined would otherwise leave a statement per value on the server for the life
 * of the connection). The store's queries are a few hundred texts, each with a few lengths of `in (…)` lists.
 */

/** The statement texts one database handle prepares, at most (each connection then keeps at most these). */
export const MAX_PREPARED_TEXTS = 2000;

type QueryOptions = { prepare?: boolean } & Record<string, unknown>;
/** What of a postgres.js client this touches: `unsafe` (drizzle's queries), `begin` and `savepoint` (its transactions). */
type Client = {
  unsafe: (query: string, params?: unknown[], options?: QueryOptions) => unknown;
  begin: (...args: unknown[]) => unknown;
  savepoint?: (...args: unknown[]) => unknown;
};

/**
 * `sql` (a postgres.js client) as drizzle should get it: its queries prepared, within the bound, and the same in the
 * transactions and savepoints it opens. Everything else of the client is the client's own.
 */
export function preparingStatements<T extends object>(sql: T, max = MAX_PREPARED_TEXTS): T {
  const texts = new Set<string>();
  const preparable = (text: string) => {
    if (texts.has(text)) return true;
    if (texts.size >= max) return false;
    texts.add(text);
    return true;
  };
  /** A call whose last argument is the transaction's body: the body gets the transaction's client, wrapped. */
  const scoped =
    (open: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      const body = args[args.length - 1];
      if (typeof body !== 'function') return open(...args);
      return open(...args.slice(0, -1), (tx: object) => body(wrap(tx)));
    };
  const wrap = <C extends object>(client: C): C => {
    // What is assigned to the wrapper stays on the wrapper and wins over it (a test counting the calls replaces
    // `unsafe` for a while): the client's own methods are never replaced by the wrapper's, which call them.
    const assigned = new Map<string | symbol, unknown>();
    return new Proxy(client, {
      set(_target, key, value) {
        assigned.set(key, value);
        return true;
      },
      get(target, key) {
        if (assigned.has(key)) return assigned.get(key);
        const own = target as unknown as Client;
        if (key === 'unsafe') {
          return (query: string, params?: unknown[], options?: QueryOptions) =>
            own.unsafe(query, params, options?.prepare === false && preparable(query) ? { ...options, prepare: true } : options);
        }
        if (key === 'begin') return scoped(own.begin.bind(target));
        if (key === 'savepoint' && own.savepoint) return scoped(own.savepoint.bind(target));
        return Reflect.get(target, key);
      },
    });
  };
  return wrap(sql);
}
