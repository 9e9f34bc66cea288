import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { channels, commodities, type ChannelRow } from '../db/schema';
import { ageOn, dayIn, identityRequirement, parseIdentityPolicy, type IdentityAction } from '../channel/identity-policy';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { REASON } from '../procedure/reasons';
import type { UserScope } from '../procedure/scope';
import { identityOf } from './records';

/**
 * The channel's real-name and age rules kept at each action (issue 33, "Per-channel policy"): buying, receiving a gift
 * or a free claim, an exchange, chain-up. Each service calls it once, before it takes anything, so a refused buyer
 * holds no stock, quota or code try.
 *
 * Whether the action is a blind box may be a lazy question: it is asked only when the channel's blind-box age could
 * change the answer, so a channel that asks nothing (`{}`, every channel made before issue 33) reads nothing at all.
 */
export type BlindBoxAnswer = boolean | (() => Promise<boolean>);

export type IdentityGateInput = {
  channel: Pick<ChannelRow, 'identityPolicy' | 'timeZone'>;
  userId: number;
  action: IdentityAction;
  blindBox?: BlindBoxAnswer;
  now: Date;
};

/**
 * Refuses the action when the channel asks a verified real name the buyer lacks (AppError 1010, data
 * `{reason: 'identityRequired', action}`) or a minimum age the buyer is under on the channel's today (AppError 1011,
 * data `{reason: 'ageRestricted', action, minAge}`; the message names the channel's rule, never the buyer's age).
 */
export async function requireIdentity(db: Db, input: IdentityGateInput): Promise<void> {
  const policy = parseIdentityPolicy(input.channel.identityPolicy);
  const plain = identityRequirement(policy, input.action);
  // Only when the blind-box age is stricter than what every action asks does the answer depend on what is taken.
  const boxMatters = policy.blindBoxMinAge !== null && (plain.minAge === null || policy.blindBoxMinAge > plain.minAge);
  const blindBox = boxMatters ? await answer(input.blindBox) : false;
  const need = blindBox ? identityRequirement(policy, input.action, { blindBox }) : plain;
  if (!need.realName) return;
  const identity = await identityOf(db, input.userId);
  if (!identity) {
    throw new AppError(1010, msg('identityGateRequired', { action: input.action }), {
      reason: REASON.identityRequired,
      action: input.action,
    });
  }
  if (need.minAge !== null && ageOn(identity.birthDate, dayIn(input.channel.timeZone, input.now)) < need.minAge) {
    throw new AppError(1011, msg('identityGateAge', { action: input.action, blindBox: blindBox ? 'yes' : 'no', minAge: need.minAge }), {
      reason: REASON.ageRestricted,
      action: input.action,
      minAge: need.minAge,
    });
  }
}

async function answer(blindBox: BlindBoxAnswer | undefined): Promise<boolean> {
  if (typeof blindBox === 'function') return blindBox();
  return blindBox ?? false;
}

/**
 * The gate for a buyer's call: the channel's row from the scope (API calls have it from the dispatcher's cached read),
 * else read by id (pages and tests that build a scope by hand).
 */
export async function requireIdentityIn(ctx: UserScope, action: IdentityAction, blindBox?: BlindBoxAnswer): Promise<void> {
  const channel = await channelPolicyIn(ctx);
  await requireIdentity(ctx.db, { channel, userId: ctx.userId, action, blindBox, now: ctx.now });
}

/** The channel's identity rule and time zone: the scope's row when the proxy gave it, else read (a test, a job). */
export async function channelPolicyIn(ctx: UserScope): Promise<Pick<ChannelRow, 'identityPolicy' | 'timeZone'>> {
  return ctx.channel ?? (await channelPolicyOf(ctx.db, ctx.channelId));
}

async function channelPolicyOf(db: Db, channelId: number): Promise<Pick<ChannelRow, 'identityPolicy' | 'timeZone'>> {
  const [row] = await db
    .select({ identityPolicy: channels.identityPolicy, timeZone: channels.timeZone })
    .from(channels)
    .where(eq(channels.id, channelId))
    .limit(1);
  // A scope always names a channel that exists; a missing one asks nothing (the service refuses on its own terms).
  return row ?? { identityPolicy: {}, timeZone: 'UTC' };
}

/** Whether a collectible is a blind box, asked lazily (what a gift, an exchange or a chain-up gives). */
export function isBlindBoxCommodity(db: Db, commodityId: number): () => Promise<boolean> {
  return async () => {
    const [row] = await db.select({ isBlindBox: commodities.isBlindBox }).from(commodities).where(eq(commodities.id, commodityId)).limit(1);
    return row?.isBlindBox ?? false;
  };
}
