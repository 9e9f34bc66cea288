import { z } from 'zod';

/** Deepest page anyone can ask for; keeps OFFSET within range whatever the input. */
export const MAX_PAGE = 100_000;

/** Paging request (DESIGN §5): 1-based pageCount, pageSize up to 50. */
export const pagingSchema = z.object({
  pageCount: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .max(MAX_PAGE, `must be ${MAX_PAGE} or less`)
    .default(1),
  pageSize: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .max(50, 'must be 50 or less')
    .default(10),
});

/** The page a list page shows from its `?page=` search param: 1 when missing or not a number, at most MAX_PAGE. */
export function pageFromSearch(value: string | string[] | undefined): number {
  const raw = Array.isArray(value) ? value[0] : value;
  return Math.min(MAX_PAGE, Math.max(1, Number.parseInt(raw ?? '1', 10) || 1));
}

/** What a paged read asks for (DESIGN §5): a 1-based page and its size. */
export type Paging = { pageCount: number; pageSize: number };

/** A paged answer (DESIGN §5): `{records, total, current, pages, size}`. */
export type Page<T> = { records: T[]; total: number; current: number; pages: number; size: number };

/** The zod schema of a paged answer of `record`s (the `output` of a paged procedure). */
export function pageSchema<T extends z.ZodType>(record: T) {
  return z.object({
    records: z.array(record),
    total: z.number().int(),
    current: z.number().int(),
    pages: z.number().int(),
    size: z.number().int(),
  });
}

/** Wraps one page of records and the total count as the paged answer. */
export function toPage<T>(records: T[], total: number, paging: Paging): Page<T> {
  return { records, total, current: paging.pageCount, pages: Math.ceil(total / paging.pageSize), size: paging.pageSize };
}
