/**
 * The secret that signs and encrypts sessions (next-auth JWT) and keys the SMS-code hashes. The proxy, pages
 * and API read it alike. lib/env.ts refuses the demo value in production (DESIGN §8).
 */
export const DEMO_AUTH_SECRET = 'demo-secret-change-me-demo-secret-change-me';

export function authSecret(): string {
  return process.env.AUTH_SECRET || DEMO_AUTH_SECRET;
}
