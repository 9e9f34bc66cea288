import { z } from 'zod';

/** Paging request (DESIGN §5): 1-based pageCount, pageSize up to 50. */
export const pagingSchema = z.object({
  pageCount: z.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be 1 or more').default(1),
  pageSize: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .max(50, 'must be 50 or less')
    .default(10),
});
