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
