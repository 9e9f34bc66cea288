import 'server-only';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { buyerBlocks, smsCodes } from '../db/schema';
import { parseAddress, type ClientAddress } from '../security/address';

/**
 * A higher-risk buy may be asked for a captcha at the buy tap, decided on the server (issue 33, "Risk controls at order
 * time"; docs/security.md, "Captcha at the buy tap"). A bot farm with many phones passes the login captcha once per
 * phone, then buys as fast as it can tap: the signals below are what such a farm looks like at the buy.
 */

/** The thresholds (issue 33: "a new account, an address with many accounts, a blocked range nearby"). */
export const BUY_RISK = {
  /** An account created this recently is new. */
  newAccountMs: 60 * 60_000,
  /** How far back the accounts seen at the caller's address are counted. */
  addressWindowMs: 24 * 60 * 60_000,
  /** This many distinct accounts asking codes from one address within the window make it a crowded address. */
  accountsPerAddress: 5,
  /** "Nearby" a blocked range: within the caller's /16 (IPv4) or /48 (IPv6), the network one operator usually holds. */
  nearbyIpv4Bits: 16,
  nearbyIpv6Bits: 48,
} as const;

/** What the scorer reads, gathered by `readBuyRiskSignals`. */
export type BuyRiskSignals = {
  /** The account was created within BUY_RISK.newAccountMs. */
  newAccount: boolean;
  /** Distinct accounts (phones) that asked login codes from the caller's address in the last 24 h (capped). */
  accountsAtAddress: number;
  /** A live 'cidr' block of this channel (or of every channel) lies within the caller's /16 or /48. */
  blockedRangeNearby: boolean;
};

export type BuyRiskSignal = 'newAccount' | 'crowdedAddress' | 'blockedRangeNearby';
export type BuyRiskDecision = { captcha: boolean; signals: BuyRiskSignal[] };

/**
 * Pure: signals in, decision out. A crowded address or a blocked range nearby asks for the captcha on its own; a new
 * account only together with another signal: every buyer is new at their first buy, and a captcha on every first buy
 * would tax the honest buyer the drop is for (docs/decisions.md, "Captcha at the buy tap: a new account alone is not
 * enough"). The farm this is for is new accounts on crowded or suspect addresses, which this still catches.
 */
export function scoreBuyRisk(signals: BuyRiskSignals): BuyRiskDecision {
  const found: BuyRiskSignal[] = [];
  if (signals.newAccount) found.push('newAccount');
  if (signals.accountsAtAddress >= BUY_RISK.accountsPerAddress) found.push('crowdedAddress');
  if (signals.blockedRangeNearby) found.push('blockedRangeNearby');
  const strong = found.some((s) => s !== 'newAccount');
  return { captcha: strong, signals: found };
}

/** The first `bits` bits of an address's bytes, as a comparable key. */
function prefixBytes(bytes: number[], bits: number): number[] {
  return bytes.map((byte, i) => byte & ((0xff << (8 - Math.max(0, Math.min(8, bits - 8 * i)))) & 0xff));
}

/** A range as a block's value keeps it ('203.0.113.0/24', '2001:db8::/32', or a bare address), or null if it is not one. */
export function parseRange(value: string): { address: ClientAddress; bits: number } | null {
  const [text, prefix, extra] = value.trim().split('/');
  if (extra !== undefined) return null;
  const address = parseAddress(text);
  if (!address) return null;
  const max = address.family === 4 ? 32 : 128;
  if (prefix === undefined) return { address, bits: max };
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return null;
  return { address, bits: Number(prefix) };
}

/**
 * Whether the range overlaps the caller's neighbourhood (their /16 or /48): two prefixes overlap when they agree on the
 * shorter one's bits. Pure, exported for tests. A range of the other family, or a value that is not a range, never does.
 */
export function rangeNearby(caller: ClientAddress, range: string): boolean {
  const parsed = parseRange(range);
  if (!parsed || parsed.address.family !== caller.family) return false;
  const nearby = caller.family === 4 ? BUY_RISK.nearbyIpv4Bits : BUY_RISK.nearbyIpv6Bits;
  const bits = Math.min(nearby, parsed.bits);
  const a = prefixBytes(caller.bytes, bits);
  const b = prefixBytes(parsed.address.bytes, bits);
  return a.every((byte, i) => byte === b[i]);
}

/** Whether the range holds the caller's address itself (a block, not a neighbour). Pure, exported for tests. */
export function rangeHolds(caller: ClientAddress, range: string): boolean {
  const parsed = parseRange(range);
  if (!parsed || parsed.address.family !== caller.family) return false;
  const a = prefixBytes(caller.bytes, parsed.bits);
  const b = prefixBytes(parsed.address.bytes, parsed.bits);
  return a.every((byte, i) => byte === b[i]);
}

/**
 * The signals of one buy. Two indexed reads: the distinct phones that asked codes from the address (sms_codes by
 * ip and time, the address spelt as the code records keep it: ctx.ip; every login asks a code, so these are the
 * accounts that logged in or tried to from there), at most
 * BUY_RISK.accountsPerAddress of them; and the live 'cidr' blocks (buyer_blocks by kind; operators keep few). The
 * caller skips this entirely when the channel's captcha is off.
 */
export async function readBuyRiskSignals(
  db: Db,
  input: { channelId: number; accountCreatedAt: Date; ip: string; now: Date },
): Promise<BuyRiskSignals> {
  const newAccount = input.now.getTime() - input.accountCreatedAt.getTime() < BUY_RISK.newAccountMs;
  const caller = parseAddress(input.ip);
  // No address we can read (a test harness, a misconfigured proxy): the address signals are unknown, not alarming.
  if (!caller) return { newAccount, accountsAtAddress: 0, blockedRangeNearby: false };
  const since = new Date(input.now.getTime() - BUY_RISK.addressWindowMs);
  const [phones, ranges] = await Promise.all([
    db
      .selectDistinct({ phone: smsCodes.phone })
      .from(smsCodes)
      .where(and(eq(smsCodes.ip, input.ip), gt(smsCodes.createdAt, since)))
      .limit(BUY_RISK.accountsPerAddress),
    db
      .select({ value: buyerBlocks.value })
      .from(buyerBlocks)
      .where(
        and(
          eq(buyerBlocks.kind, 'cidr'),
          isNull(buyerBlocks.liftedAt),
          or(isNull(buyerBlocks.channelId), eq(buyerBlocks.channelId, input.channelId)),
        ),
      ),
  ]);
  // An address inside a blocked range is not asked for a captcha: the buy answers with the block's own words
  // (lib/order/unpaid-rule.ts reads the blocklist), which a solved captcha would not change.
  if (ranges.some((r) => r.value !== null && rangeHolds(caller, r.value))) {
    return { newAccount, accountsAtAddress: 0, blockedRangeNearby: false };
  }
  return {
    newAccount,
    accountsAtAddress: phones.length,
    blockedRangeNearby: ranges.some((r) => r.value !== null && rangeNearby(caller, r.value)),
  };
}
