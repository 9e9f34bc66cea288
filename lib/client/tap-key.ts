/**
 * The idempotency key of one tap (DESIGN §7): 128 random bits as hex, fresh per tap and sent again when that same
 * tap is retried, so the server answers a retry with what the first attempt made.
 */
export function newTapKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
