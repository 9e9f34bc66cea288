import { hostnameOf } from '../security/domain-name';

/**
 * The operator host (issue 31): the console is served only there, and no channel is. Pure (host names are read by
 * lib/security/domain-name.ts, as the domains read them), so the proxy, the dispatcher and the pages share it.
 */

/**
 * The key of the operator host by spec §1's rule (`ops.<brand domain>` → OPS), reserved: it can never be a channel's
 * (issue 31: "its key, OPS by the spec's rule, is reserved and can never be a channel"). Refused where channels are
 * made (lib/demo/seed.ts), by the env check of DEFAULT_CHANNEL, and by the channels table's check constraint.
 */
export const OPERATOR_KEY = 'OPS';

/** Whether a channel key is reserved for the console. */
export function isReservedChannelKey(key: string): boolean {
  return key.trim().toUpperCase() === OPERATOR_KEY;
}

/** Whether a request's Host header names the operator host (OPERATOR_HOST; any port). */
export function isOperatorHost(host: string | null | undefined, operatorHost: string): boolean {
  return Boolean(host) && hostnameOf(host!) === hostnameOf(operatorHost);
}

/**
 * The console's pages on the operator host (issue 31), by path: anything else there (every channel path) is 404.
 * `/` goes to the channel list or to sign-in.
 */
const CONSOLE_PATHS: readonly RegExp[] = [
  /^\/$/,
  /^\/sign-in$/,
  /^\/enrol\/[A-Za-z0-9_-]{20,100}$/,
  /^\/channels$/,
  // A channel's pages (issue 31): creating one, each channel's tabs by its key (components/ops/channel-tabs.tsx) and
  // the skin editor's preview frame (app/ops/[locale]/channels/[key]/...).
  /^\/channels\/new$/,
  /^\/channels\/[A-Z0-9]{1,64}(\/(settings|skin|domains|preview))?$/,
  // A channel's orders and buyers (issue 32): the search, an order by its number, a buyer by their account number.
  /^\/channels\/[A-Z0-9]{1,64}\/(orders(\/\d{22})?|buyers\/[1-9]\d{9})$/,
  // A channel's Buyers tab: its blocklist (issue 33).
  /^\/channels\/[A-Z0-9]{1,64}\/buyers$/,
  // A channel's reports, its live drop view and the reports' CSV (issue 32).
  /^\/channels\/[A-Z0-9]{1,64}\/reports(\/(live|export))?$/,
  // The Catalogue and Sales tabs and a collectible's or a sale's page, by its code (issue 32).
  /^\/channels\/[A-Z0-9]{1,64}\/(catalogue|sales)(\/[a-z0-9][a-z0-9-]{0,63})?$/,
  // A channel's campaigns and one campaign's page (issue 32).
  /^\/channels\/[A-Z0-9]{1,64}\/campaigns(\/\d{1,9})?$/,
  // A channel's Notices tab (issue 32).
  /^\/channels\/[A-Z0-9]{1,64}\/notices$/,
  // The team, the audit trail (and its CSV) and the operator's own account (issue 31).
  /^\/team$/,
  /^\/audit(\/export)?$/,
  /^\/account$/,
];

export function isConsolePath(pathname: string): boolean {
  return CONSOLE_PATHS.some((p) => p.test(pathname));
}

/** The cookie of an operator session (issue 31): `__Host-` so it is host-only, path /, and Secure. */
export const OPERATOR_COOKIE = '__Host-ops';
