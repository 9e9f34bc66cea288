/**
 * A record's dates as the wire carries them (docs/api.md: "Times are ISO-8601"): every `Date` field an ISO 8601 string, a null one
 * null, every other field as it is. One level deep: the calls that use it answer flat records.
 */
export type WireDates<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

export function wireDates<T extends object>(record: T): WireDates<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) out[key] = value instanceof Date ? value.toISOString() : value;
  return out as WireDates<T>;
}
