import type { Page } from '@playwright/test';
import { channelUrl, seedChannel } from './support';
import { newPhone } from './login-helpers';
import { arriveFromOwnAddress } from './buyers';
import { signInFromPage } from './page-api';

// Logging a buyer in through the API, for specs that are about something else than logging in (the login form has its
// own specs: login.spec.ts, security-login.spec.ts). The browser ends up where the login form leaves it: the steps
// are e2e/page-api.ts's, taken from an address of the buyer's own (e2e/buyers.ts), as real buyers arrive, so the
// server's per-address limits stay on.

/**
 * Logs a new buyer (or the given phone) in on a channel, through the API, in this page's browser context; leaves the
 * page on the channel's origin. Returns the phone.
 */
export async function logInThroughApi(page: Page, channel: string, phone = newPhone()): Promise<string> {
  await arriveFromOwnAddress(page.context());
  // A page of the channel's own origin without the app: the calls and the storage belong to that host.
  await page.goto(channelUrl(channel, '/api/health'));
  await signInFromPage(page, phone, seedChannel(channel.toUpperCase()).brandName);
  return phone;
}
