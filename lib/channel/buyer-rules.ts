import { z } from 'zod';
import type { IdentityPolicyJson, RiskPolicyJson } from '../db/schema';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { BLIND_BOX_MIN_AGES } from './identity-policy';
import { RISK_BOUNDS } from './risk-policy';

/**
 * What the console's Settings tab saves of a channel's buyer rules (issue 33): its real-name and age rules
 * (./identity-policy.ts reads them) and its risk rules at order time (./risk-policy.ts). Strict: the JSON columns only
 * ever hold what these schemas let through, so their lenient readers never meet a surprise written by the console.
 */

const flag = z.boolean({ error: 'must be true or false' });
const whole = (bounds: { min: number; max: number }, unit: string) =>
  z
    .number({ error: `must be a whole number of ${unit}` })
    .int(`must be a whole number of ${unit}`)
    .min(bounds.min, `must be ${bounds.min} to ${bounds.max} ${unit}`)
    .max(bounds.max, `must be ${bounds.min} to ${bounds.max} ${unit}`);

export const identityPolicySchema = z.strictObject({
  /** Real-name before buying, receiving (a gift or a free claim), an exchange, chain-up. */
  realName: z.strictObject(
    { buy: flag, receive: flag, exchange: flag, chainUp: flag },
    { error: 'must say for buy, receive, exchange and chainUp whether a verified real name is asked' },
  ),
  minAge: z.union([z.literal(14), z.literal(16), z.literal(18)], { error: 'must be 14, 16 or 18, or null for none' }).nullable(),
  /**
   * Any age is taken here so that one below 18 gets its own refusal (issue 33): the guardian's consent it would need
   * is not collected, which the operator is told in words, not as "not one of the values".
   */
  blindBoxMinAge: z
    .number({ error: 'must be 18, or null for none' })
    .int('must be a whole number of years')
    .min(0, 'must be 18, or null for none')
    .max(18, 'must be 18, or null for none')
    .nullable(),
});
export type IdentityPolicyInput = z.output<typeof identityPolicySchema>;

/** The JSON a channel keeps, or the refusal of a blind-box age below 18 (400, field `blindBoxMinAge`). */
export function identityPolicyColumn(input: IdentityPolicyInput): IdentityPolicyJson {
  const blindBoxMinAge = input.blindBoxMinAge;
  if (blindBoxMinAge !== null && !(BLIND_BOX_MIN_AGES as readonly number[]).includes(blindBoxMinAge))
    throw new AppError(400, msg('opsIdentityPolicyBlindBoxAge'));
  return { realName: { ...input.realName }, minAge: input.minAge, blindBoxMinAge: blindBoxMinAge as 18 | null };
}

export const riskPolicySchema = z.strictObject({
  unpaid: z.strictObject(
    {
      /** 0: off. */
      limit: whole(RISK_BOUNDS.limit, 'orders'),
      withinHours: whole(RISK_BOUNDS.hours, 'hours'),
      blockHours: whole(RISK_BOUNDS.hours, 'hours'),
    },
    { error: 'must give limit, withinHours and blockHours' },
  ),
  captcha: flag,
});
export type RiskPolicyInput = z.output<typeof riskPolicySchema>;

export function riskPolicyColumn(input: RiskPolicyInput): RiskPolicyJson {
  return { unpaid: { ...input.unpaid }, captcha: input.captcha };
}

/** Gifts between buyers (issue 36, docs/gifting.md): the holding period before a collectible may be given, in hours. */
export const GIFT_HOLDING_HOURS = { min: 0, max: 8760 } as const;

export const giftingPolicySchema = z.strictObject({ holdingHours: whole(GIFT_HOLDING_HOURS, 'hours') });
export type GiftingPolicyInput = z.output<typeof giftingPolicySchema>;
