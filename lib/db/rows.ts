/** Rows of a raw `execute` answer: PGlite gives `{ rows }`, postgres.js an array. */
export function executedRows<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
