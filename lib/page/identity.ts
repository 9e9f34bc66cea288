import 'server-only';
import { getDb } from '../db/client';
import { readChannel } from '../channel/service';
import { ageOn, dayIn, identityRequirement, parseIdentityPolicy, type IdentityRequirement } from '../channel/identity-policy';
import { identityOf, type BuyerIdentity } from '../identity/records';
import type { PageChannel } from './channel';
import { pageLoader } from './loader';
import { asksIdentity } from '../buyer/mine-state';

const channelPolicy = pageLoader(async (channelKey: string) =>
  parseIdentityPolicy((await readChannel(getDb(), channelKey))?.identityPolicy),
);
const buyerIdentity = pageLoader((userId: number) => identityOf(getDb(), userId));

/**
 * What buying `sale` asks on this channel (issue 33: real-name, and the channel's or the blind box's minimum age), read
 * from the channel row the cached reads hold: the same for every visitor, so the shared goods page may show it.
 */
export async function pageBuyRequirement(channel: PageChannel, sale: { commodity: { isBlindBox: boolean } }): Promise<IdentityRequirement> {
  return identityRequirement(await channelPolicy(channel.key), 'buy', { blindBox: sale.commodity.isBlindBox });
}

/**
 * Whether the channel asks a verified real name for anything (issue 33): an action, the channel's age, or blind boxes'
 * age. /mine shows the real-name row then (docs/decisions.md, "The real-name row on /mine").
 */
export async function pageAsksIdentity(channel: PageChannel): Promise<boolean> {
  return asksIdentity(await channelPolicy(channel.key));
}

/** A buyer's verified identity, masked (issue 33), or null. One buyer's: never on a page served from the shared cache. */
export function pageBuyerIdentity(userId: number): Promise<BuyerIdentity | null> {
  return buyerIdentity(userId);
}

/**
 * Where a buyer stands against a requirement (issue 33): nothing asked or met ('ok'), not verified ('unverified'), or
 * verified but younger than the age asked on the channel's today ('underAge': the page then shows the channel's rule,
 * never the buyer's age).
 */
export function identityStanding(
  requirement: IdentityRequirement,
  identity: Pick<BuyerIdentity, 'birthDate'> | null,
  timeZone: string,
  now: Date,
): 'ok' | 'unverified' | 'underAge' {
  if (!requirement.realName) return 'ok';
  if (!identity) return 'unverified';
  if (requirement.minAge !== null && ageOn(identity.birthDate, dayIn(timeZone, now)) < requirement.minAge) return 'underAge';
  return 'ok';
}
