import 'server-only';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { agreementAcceptances, buyerIdentities, channels, offerQuotas, saleQuotas } from '../db/schema';
import { isUniqueViolation } from '../db/errors';
import { AppError } from '../procedure/errors';
import { DEFAULT_TIME_ZONE, msg } from '../procedure/messages';
import { REASON } from '../procedure/reasons';
import { hitAll } from '../rate-limit/rate-limit';
import {
  dayIn,
  IDENTITY_ACTIONS,
  identityRequirement,
  parseIdentityPolicy,
  type IdentityAction,
  type IdentityRequirement,
} from '../channel/identity-policy';
import { maskLegalName, maskResidentId, normaliseResidentId, residentIdBirthDate, residentIdProblem } from '../format/resident-id';
import { IDENTITY_CONSENT_VERSION } from './consent';
import { identityOf } from './records';
import { identityHash, seal, type IdentityKeyRing } from './seal';
import type { IdentityProvider } from './provider';

/**
 * The buyer's real-name verification (issue 33; docs/security.md, "Real-name identities"). The name and the number
 * travel only from the call to the vendor and into the seal: no log line, error text, answer or audit entry holds them.
 */

/** Vendor calls one account may cause per day, and one client address per hour (issue 33): each call costs money. */
export const IDENTITY_TRIES = {
  perAccount: { max: 5, windowMs: 24 * 60 * 60 * 1000 },
  perAddress: { max: 20, windowMs: 60 * 60 * 1000 },
} as const;

/** What the store page and the verify call answer (docs/api.md, "identity/status"). */
export type IdentityStatus = {
  verified: boolean;
  maskedName: string | null;
  maskedIdNumber: string | null;
  verifiedAt: Date | null;
  requirement: Record<IdentityAction, IdentityRequirement>;
  blindBoxMinAge: number | null;
  consentVersion: string;
};

/** The buyer's verification state on the host's channel, with what the channel's policy asks per action. */
export async function identityStatus(db: Db, scope: { userId: number; channelId: number }): Promise<IdentityStatus> {
  const [[channel], identity] = await Promise.all([
    db.select({ identityPolicy: channels.identityPolicy }).from(channels).where(eq(channels.id, scope.channelId)).limit(1),
    identityOf(db, scope.userId),
  ]);
  const policy = parseIdentityPolicy(channel?.identityPolicy);
  return {
    verified: identity !== null,
    maskedName: identity?.maskedName ?? null,
    maskedIdNumber: identity?.maskedIdNumber ?? null,
    verifiedAt: identity?.verifiedAt ?? null,
    requirement: Object.fromEntries(IDENTITY_ACTIONS.map((action) => [action, identityRequirement(policy, action)])) as Record<
      IdentityAction,
      IdentityRequirement
    >,
    blindBoxMinAge: policy.blindBoxMinAge,
    consentVersion: IDENTITY_CONSENT_VERSION,
  };
}

/** Letters of any script, the middle dots and spaces of minority and foreign names; no digits or control characters. */
const NAME_CHARACTERS = /^[^\p{Nd}\p{Cc}\p{Cf}]+$/u;

/** The legal name as typed, trimmed, or a 400 naming `name` (the words never repeat what was typed). */
export function legalNameOf(input: string): string {
  const name = input.trim().replace(/\s+/g, ' ');
  const length = Array.from(name).length;
  if (length < 2 || length > 30 || !NAME_CHARACTERS.test(name)) throw new AppError(400, msg('identityName'));
  return name;
}

export type VerifyInput = {
  userId: number;
  channelId: number;
  name: string;
  idNumber: string;
  consentVersion: string;
  now: Date;
  /** The client's address (ctx.ip), for the per-address tries; absent outside an API call. */
  ip?: string;
  /** The channel's time zone: the birth date may not be after its today. */
  timeZone?: string;
};

const alreadyVerified = () => new AppError(409, msg('identityAlreadyVerified'), { reason: REASON.alreadyVerified });
// One answer whoever holds the identity: the owner is never revealed, not even whether it is on this channel.
const identityInUse = () => new AppError(409, msg('identityInUse'), { reason: REASON.identityInUse });

/** The open account that holds this identity, or null: a closed account's kept row does not hold it (issue 36). */
async function holderOf(db: Db, idHash: string): Promise<number | null> {
  const [row] = await db
    .select({ userId: buyerIdentities.userId })
    .from(buyerIdentities)
    .where(and(eq(buyerIdentities.idHash, idHash), isNull(buyerIdentities.closedAt)))
    .limit(1);
  return row?.userId ?? null;
}

/**
 * A person who closed an account and verifies a new one is the same buyer (issue 36; docs/security.md, "Closed
 * accounts"): what the closed accounts of this identity took counts on the new one. Their per-buyer quotas (copies of
 * each sale, gifts and exchanges of each offer) move onto the new account, added to what it took before verifying, as
 * the orders an account made before it verified count towards its identity. Moved, not copied: a person who closes and
 * comes back again carries each count once. A quota above its limit after adding (two accounts bought before either
 * verified) keeps its sum: nothing more is sold on it.
 */
async function carryClosedQuotas(tx: Db, idHash: string, userId: number): Promise<void> {
  const closed = sql`select ${buyerIdentities.userId} from ${buyerIdentities}
    where ${buyerIdentities.idHash} = ${idHash} and ${buyerIdentities.closedAt} is not null and ${buyerIdentities.userId} <> ${userId}`;
  await tx.execute(sql`with moved as (
      delete from ${saleQuotas} where ${saleQuotas.userId} in (${closed})
      returning ${saleQuotas.saleId} as sale_id, ${saleQuotas.reserved} as reserved, ${saleQuotas.maxReserved} as max_reserved
    ), summed as (
      select sale_id, sum(reserved)::integer as reserved, max(max_reserved)::integer as max_reserved from moved group by sale_id
    )
    insert into ${saleQuotas} (sale_id, user_id, reserved, max_reserved)
    select sale_id, ${userId}, reserved, greatest(reserved, max_reserved) from summed
    on conflict (sale_id, user_id) do update set
      reserved = sale_quotas.reserved + excluded.reserved,
      max_reserved = greatest(sale_quotas.max_reserved, sale_quotas.reserved + excluded.reserved)`);
  await tx.execute(sql`with moved as (
      delete from ${offerQuotas} where ${offerQuotas.userId} in (${closed})
      returning ${offerQuotas.offerId} as offer_id, ${offerQuotas.taken} as taken, ${offerQuotas.maxTaken} as max_taken
    ), summed as (
      select offer_id, sum(taken)::integer as taken, max(max_taken)::integer as max_taken from moved group by offer_id
    )
    insert into ${offerQuotas} (offer_id, user_id, taken, max_taken)
    select offer_id, ${userId}, taken, greatest(taken, max_taken) from summed
    on conflict (offer_id, user_id) do update set
      taken = offer_quotas.taken + excluded.taken,
      max_taken = greatest(offer_quotas.max_taken, offer_quotas.taken + excluded.taken)`);
}

/**
 * Verifies the buyer's real name: the input's own checks, one identity per account and per open account of the
 * deployment (a closed account's identity may verify a new account, which takes on its counts), the tries, then
 * the vendor (outside any transaction: it may take 5 s), then one transaction that keeps the sealed identity and the
 * consent accepted. Nothing is stored on any refusal.
 */
export async function verifyIdentity(db: Db, input: VerifyInput, provider: IdentityProvider, ring: IdentityKeyRing): Promise<void> {
  const name = legalNameOf(input.name);
  const idNumber = normaliseResidentId(input.idNumber);
  const problem = residentIdProblem(idNumber, dayIn(input.timeZone ?? DEFAULT_TIME_ZONE, input.now));
  if (problem) throw new AppError(400, msg('identityIdNumber', { problem }));
  if (input.consentVersion !== IDENTITY_CONSENT_VERSION) throw new AppError(400, msg('identityConsent'));

  if (await identityOf(db, input.userId)) throw alreadyVerified();
  const idHash = identityHash(ring, idNumber);
  const holder = await holderOf(db, idHash);
  if (holder !== null && holder !== input.userId) throw identityInUse();

  // Counted before the vendor is asked, and kept whatever it answers (each answer is paid for, issue 33), unless it
  // does not answer.
  const tries = await hitAll(
    db,
    [
      { bucket: `identity:user:${input.userId}`, ...IDENTITY_TRIES.perAccount },
      ...(input.ip ? [{ bucket: `identity:ip:${input.ip}`, ...IDENTITY_TRIES.perAddress }] : []),
    ],
    input.now,
  );
  if (tries.refused)
    throw new AppError(429, msg('identityFlood', { at: tries.refused.resetAt }), { until: tries.refused.resetAt.toISOString() });

  let verdict: Awaited<ReturnType<IdentityProvider['check']>>;
  try {
    verdict = await provider.check({ name, idNumber });
  } catch (error) {
    // The vendor did not answer or refused the store: not the buyer's try (and not billed), so it is given back.
    if (error instanceof AppError && error.code === 503) for (const h of tries.hits) await h.undo();
    throw error;
  }
  if (verdict !== 'match') {
    console.info(`[identity ${provider.name}] user ${input.userId}: the vendor answered ${verdict}; nothing kept`);
    // No record is told apart (a mistyped number that still passes the check digit), under the same reason: a client
    // branches on the mismatch, the buyer reads which of the two to look at.
    throw new AppError(409, msg(verdict === 'noRecord' ? 'identityNoRecord' : 'identityMismatch'), { reason: REASON.identityMismatch });
  }

  const sealedName = seal(ring, 'name', input.userId, name);
  const sealedNumber = seal(ring, 'idNumber', input.userId, idNumber);
  try {
    await db.transaction(async (tx) => {
      await tx.insert(buyerIdentities).values({
        userId: input.userId,
        idHash,
        nameSealed: sealedName.sealed,
        idNumberSealed: sealedNumber.sealed,
        keyId: sealedName.keyId,
        birthDate: residentIdBirthDate(idNumber),
        maskedName: maskLegalName(name),
        maskedIdNumber: maskResidentId(idNumber),
        provider: provider.name,
        verifiedAt: input.now,
      });
      await carryClosedQuotas(tx, idHash, input.userId);
      await tx
        .insert(agreementAcceptances)
        .values({
          userId: input.userId,
          channelId: input.channelId,
          agreement: 'identityConsent',
          version: input.consentVersion,
          acceptedAt: input.now,
        })
        .onConflictDoNothing();
    });
  } catch (error) {
    // A race with another verify of this account or of this identity: the unique index decides, the same answer as the
    // checks above (never a 500, never the database's words, which hold the hash).
    if (isUniqueViolation(error)) throw (await identityOf(db, input.userId)) ? alreadyVerified() : identityInUse();
    throw error;
  }
  console.info(`[identity ${provider.name}] user ${input.userId}: verified`);
}
