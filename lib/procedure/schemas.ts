import { z } from 'zod';
import { AppError } from './errors';
import { msg } from './messages';
import { REASON } from './reasons';

/** An id in a request: ids are strings (DESIGN §5); numbers are accepted too. Parsed to a number within int4. */
export const idSchema = z
  .union([z.string(), z.number()], { error: 'must be a string id' })
  .transform((v) => String(v))
  .pipe(z.string().regex(/^[1-9]\d{0,9}$/, 'must be a positive whole-number id'))
  .transform(Number)
  .refine((n) => n <= 2_147_483_647, 'is not an id we issue');

/** A client-made key that makes a tap safe to retry: a fresh random string per tap, reused when the tap is retried. */
export const idempotencyKeySchema = z
  .string({ error: 'is required: a fresh random string per tap, reused when the tap is retried' })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8 to 64 letters, digits, - or _');

/**
 * The answer when the user's key already served another request: another channel's, or a gift's for an exchange and
 * back (security review, finding 8). The key's unique index is per user, across channels and kinds, so such a key can
 * never make a second record; the client is told to make a fresh one.
 */
export function idempotencyKeyReused(): AppError {
  return new AppError(409, msg('idempotencyKeyReused'), { reason: REASON.keyReused });
}

/** A channel key as the console's calls take it (`channel`): upper-case letters and digits, as channels are created. */
export const channelKeySchema = z
  .string({ error: 'is required and must be a string' })
  .max(64, 'must be 64 characters or less')
  .regex(/^[A-Z0-9]{1,64}$/, 'must be a channel key: upper-case letters and digits');
