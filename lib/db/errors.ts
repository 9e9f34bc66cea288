/** The database error with SQLSTATE `code` inside `error`, through the driver's and drizzle's wrappers, or null. */
export function databaseError(error: unknown, code: string): { code: string; detail?: string } | null {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === code) return e as { code: string; detail?: string };
  }
  return null;
}

/** Is this a unique-constraint violation (PostgreSQL 23505), through the driver's and drizzle's wrappers? */
export function isUniqueViolation(error: unknown): boolean {
  return databaseError(error, '23505') !== null;
}
