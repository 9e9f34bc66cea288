/** The channels whose logged-in buyer the setup project saves (buyers.setup.ts). */
export const BUYER_CHANNELS = ['aurora', 'chain'] as const;

/**
 * The saved browser state (cookies and localStorage) of the run's buyer on a channel, for `test.use({ storageState })`.
 * Shared by the specs that use it: a spec that counts what its buyer owns logs a new one in (logInThroughApi).
 */
export function buyerState(channel: (typeof BUYER_CHANNELS)[number]): string {
  return `e2e/.artifacts-buyers/${channel}.json`;
}
