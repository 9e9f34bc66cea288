import { randomInt } from 'node:crypto';
import type { BrowserContext } from '@playwright/test';

/** The channels whose logged-in buyer the setup project saves (buyers.setup.ts). */
export const BUYER_CHANNELS = ['aurora', 'chain'] as const;

/**
 * The saved browser state (cookies and localStorage) of the run's buyer on a channel, for `test.use({ storageState })`.
 * Shared by the specs that use it: a spec that counts what its buyer owns logs a new one in (logInThroughApi).
 */
export function buyerState(channel: (typeof BUYER_CHANNELS)[number]): string {
  return `e2e/.artifacts-buyers/${channel}.json`;
}

/**
 * Buyers arrive from addresses of their own, as real ones do, so the suite runs with the default per-address SMS and
 * captcha limits on (issue 29). Every browser of the suite connects from this machine, which the e2e server trusts as
 * its proxy (TRUSTED_PROXIES in scripts/e2e-server.sh); a context that asks for codes says, as a proxy would, which
 * address its buyer writes from (X-Forwarded-For on all its requests). The addresses are 127.A.B.C, loopback like the
 * rest of the run's traffic, never 127.0.0.x (the proxy itself); A is drawn per worker process, so a restarted worker
 * or a run against a reused server does not meet an earlier buyer's counters. IPv4 addresses count one by one by
 * default (SMS_IPV4_NETWORK_PREFIX=32), so neighbours are separate buyers.
 */
const network = randomInt(1, 255);
let sequence = 0;
const addresses = new WeakMap<BrowserContext, string>();

/** Gives the context's buyer an address of their own (once: a browser keeps its address); returns it. */
export async function arriveFromOwnAddress(context: BrowserContext): Promise<string> {
  let address = addresses.get(context);
  if (!address) {
    sequence++;
    address = `127.${network}.${(sequence >> 8) & 255}.${sequence & 255}`;
    addresses.set(context, address);
    await context.setExtraHTTPHeaders({ 'x-forwarded-for': address });
  }
  return address;
}
