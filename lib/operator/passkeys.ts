import 'server-only';
import { createHmac } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { operatorPasskeyCeremonies, operatorPasskeys, operatorRecoveryCodes, operators } from '../db/schema';
import { env, publicOrigin, type Env } from '../env';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { hitAll } from '../rate-limit/rate-limit';
import { randomToken, sha256 } from '../security/crypto';
import { hostnameOf } from '../security/domain-name';
import type { OperatorRole } from '../procedure/roles';
import { countPasswordAttempt, createOperatorSession, normalName } from './accounts';
import { recordAudit } from './audit';

/**
 * Passkeys as an operator's second factor (issue 31, "Operator accounts": "a second factor: TOTP … and/or a passkey
 * (WebAuthn)"; "No account works without a second factor"). An operator adds passkeys on their Account page and, at
 * sign-in, answers with one instead of a code — with the name and password: a passkey alone never signs in.
 *
 * Each ceremony's challenge is kept server-side (operator_passkey_ceremonies), bound to what it is for and, for a
 * sign-in, to the account named (the password is checked with the answer); it works once and for
 * PASSKEY_LIMITS.ceremonyTtlMs. Answers are checked against the operator host's origin and rpID (relyingParty), so a
 * ceremony answered for another site is refused. docs/operators.md ("Second factors") and docs/security.md say why each figure.
 */
export const PASSKEY_LIMITS = {
  /** A ceremony's challenge works once, for five minutes (the browser's prompt times out before that). */
  ceremonyTtlMs: 5 * 60_000,
  /** Passkeys per operator: a few devices and a spare key, not a place to hoard credentials. */
  perOperator: 10,
  nameMax: 64,
  /**
   * Passkey sign-in starts per address (issue 31): a start takes the name only and proves nothing, so it is no failed
   * sign-in and is never given back; this only bounds the pending sign-ins and audit entries one address can make. Three
   * times the failed sign-ins per address, so an office behind one address signs in all morning.
   */
  startsPerAddress: [
    { max: 60, windowMs: 15 * 60_000 },
    { max: 300, windowMs: 24 * 3_600_000 },
  ],
} as const;

/** Who the browser is asked to make a passkey for: the operator host, by name (rpID) and by origin. */
export type RelyingParty = { rpId: string; origin: string; name: string };

/** The operator host of this deployment as WebAuthn sees it (OPERATOR_HOST; the origin as the deployment serves it). */
export function relyingParty(e: Env = env()): RelyingParty {
  return { rpId: hostnameOf(e.OPERATOR_HOST), origin: publicOrigin(e.OPERATOR_HOST, e), name: 'Storefront console' };
}

export type PasskeySummary = { id: number; name: string; createdAt: Date; lastUsedAt: Date | null };

/** What the Account page shows: whether TOTP is set, the recovery codes left (a count), and the passkeys. */
export async function secondFactorsOf(
  db: Db,
  operatorId: number,
): Promise<{ totp: boolean; recoveryCodesLeft: number; passkeys: PasskeySummary[] }> {
  const [operator] = await db.select({ totpSecret: operators.totpSecret }).from(operators).where(eq(operators.id, operatorId));
  const [codes] = await db
    .select({ n: count() })
    .from(operatorRecoveryCodes)
    .where(and(eq(operatorRecoveryCodes.operatorId, operatorId), isNull(operatorRecoveryCodes.usedAt)));
  const passkeys = await db
    .select({
      id: operatorPasskeys.id,
      name: operatorPasskeys.name,
      createdAt: operatorPasskeys.createdAt,
      lastUsedAt: operatorPasskeys.lastUsedAt,
    })
    .from(operatorPasskeys)
    .where(eq(operatorPasskeys.operatorId, operatorId))
    .orderBy(asc(operatorPasskeys.id));
  return { totp: Boolean(operator?.totpSecret), recoveryCodesLeft: codes?.n ?? 0, passkeys };
}

type Actor = { operatorId: number; name: string; ip: string };

async function openCeremony(
  db: Db,
  input: { purpose: 'register' | 'signIn'; operatorId: number | null; challenge: string; now: Date; ip: string },
): Promise<string> {
  const token = randomToken();
  await db.insert(operatorPasskeyCeremonies).values({
    tokenHash: sha256(token),
    purpose: input.purpose,
    operatorId: input.operatorId,
    challenge: input.challenge,
    ip: input.ip,
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + PASSKEY_LIMITS.ceremonyTtlMs),
  });
  return token;
}

/**
 * Spends a ceremony: the row when it is open (not used, not expired) and for `purpose`, marked used in the same
 * statement so of two answers to one challenge only one gets it; null otherwise (a replay, a stale tab, a made-up token).
 */
async function spendCeremony(db: Db, token: string, purpose: 'register' | 'signIn', now: Date) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [row] = await db
    .update(operatorPasskeyCeremonies)
    .set({ usedAt: now })
    .where(
      and(
        eq(operatorPasskeyCeremonies.tokenHash, sha256(token)),
        eq(operatorPasskeyCeremonies.purpose, purpose),
        isNull(operatorPasskeyCeremonies.usedAt),
        gt(operatorPasskeyCeremonies.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/** The WebAuthn user handle of an operator: their id, not their name (a handle must not be personal information). */
function userHandle(operatorId: number): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`operator:${operatorId}`);
}

/**
 * Starts adding a passkey (the Account page's "Add a passkey"): the options for navigator.credentials.create and the
 * ceremony's token. User verification and a resident key are preferred (a fingerprint or PIN where the device has
 * one); the operator's own passkeys are excluded so one device is not registered twice.
 */
export async function startPasskeyRegistration(
  db: Db,
  input: { operator: Actor; now: Date; rp?: RelyingParty },
): Promise<{ ceremony: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const rp = input.rp ?? relyingParty();
  const existing = await db
    .select({ credentialId: operatorPasskeys.credentialId, transports: operatorPasskeys.transports })
    .from(operatorPasskeys)
    .where(eq(operatorPasskeys.operatorId, input.operator.operatorId));
  if (existing.length >= PASSKEY_LIMITS.perOperator)
    throw new AppError(409, msg('opsPasskeyTooMany', { max: String(PASSKEY_LIMITS.perOperator) }));
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.rpId,
    userName: input.operator.name,
    userID: userHandle(input.operator.operatorId),
    timeout: PASSKEY_LIMITS.ceremonyTtlMs,
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credentialId, transports: c.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  const ceremony = await openCeremony(db, {
    purpose: 'register',
    operatorId: input.operator.operatorId,
    challenge: options.challenge,
    now: input.now,
    ip: input.operator.ip,
  });
  return { ceremony, options };
}

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > PASSKEY_LIMITS.nameMax)
    throw new AppError(400, `name: must be 1 to ${PASSKEY_LIMITS.nameMax} characters`);
  return trimmed;
}

/**
 * Finishes adding a passkey: the ceremony is this operator's, open, and spent now; the browser's answer is verified
 * against its challenge, the operator host's origin and rpID. Stored, and audited with the credential id (the public
 * key stays out of the trail).
 */
export async function finishPasskeyRegistration(
  db: Db,
  input: { operator: Actor; ceremony: string; response: RegistrationResponseJSON; name: string; now: Date; rp?: RelyingParty },
): Promise<PasskeySummary> {
  const rp = input.rp ?? relyingParty();
  const name = cleanName(input.name);
  const open = await spendCeremony(db, input.ceremony, 'register', input.now);
  if (!open || open.operatorId !== input.operator.operatorId) throw new AppError(409, msg('opsPasskeyNotAdded'));
  const verified = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge: open.challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpId,
    // "user verification preferred": a key without a PIN or fingerprint still counts, as a second factor.
    requireUserVerification: false,
  }).catch(() => null);
  if (!verified?.verified) throw new AppError(409, msg('opsPasskeyNotAdded'));
  const { credential } = verified.registrationInfo;
  return db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: operatorPasskeys.id })
      .from(operatorPasskeys)
      .where(eq(operatorPasskeys.credentialId, credential.id));
    if (taken) throw new AppError(409, msg('opsPasskeyNotAdded'));
    const [row] = await tx
      .insert(operatorPasskeys)
      .values({
        operatorId: input.operator.operatorId,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name,
        createdAt: input.now,
      })
      .returning();
    await recordAudit(tx, {
      at: input.now,
      operatorId: input.operator.operatorId,
      operatorName: input.operator.name,
      ip: input.operator.ip,
      procedure: 'passkey/add',
      input: { name },
      before: null,
      after: { id: row!.id, credentialId: credential.id, name },
    });
    return { id: row!.id, name: row!.name, createdAt: row!.createdAt, lastUsedAt: row!.lastUsedAt };
  });
}

async function ownPasskey(db: Db, operatorId: number, id: number) {
  const [row] = await db
    .select()
    .from(operatorPasskeys)
    .where(and(eq(operatorPasskeys.id, id), eq(operatorPasskeys.operatorId, operatorId)));
  if (!row) throw new AppError(404, msg('opsPasskeyNotFound'));
  return row;
}

/** Renames one of the operator's own passkeys. Audited. */
export async function renamePasskey(db: Db, input: { operator: Actor; id: number; name: string; now: Date }): Promise<PasskeySummary> {
  const name = cleanName(input.name);
  return db.transaction(async (tx) => {
    const before = await ownPasskey(tx, input.operator.operatorId, input.id);
    const [row] = await tx.update(operatorPasskeys).set({ name }).where(eq(operatorPasskeys.id, before.id)).returning();
    await recordAudit(tx, {
      at: input.now,
      operatorId: input.operator.operatorId,
      operatorName: input.operator.name,
      ip: input.operator.ip,
      procedure: 'passkey/rename',
      input: { id: input.id, name },
      before: { id: before.id, credentialId: before.credentialId, name: before.name },
      after: { id: before.id, credentialId: before.credentialId, name },
    });
    return { id: row!.id, name: row!.name, createdAt: row!.createdAt, lastUsedAt: row!.lastUsedAt };
  });
}

/**
 * Removes one of the operator's own passkeys — never the last second factor left ("No account works without a second
 * factor"): with no TOTP set, the last passkey stays. The operator's row is locked first, so two tabs removing the last
 * two passkeys at once cannot both pass. Audited.
 */
export async function removePasskey(db: Db, input: { operator: Actor; id: number; now: Date }): Promise<void> {
  await db.transaction(async (tx) => {
    const [operator] = await tx
      .select({ totpSecret: operators.totpSecret })
      .from(operators)
      .where(eq(operators.id, input.operator.operatorId))
      .for('update');
    const before = await ownPasskey(tx, input.operator.operatorId, input.id);
    const [left] = await tx.select({ n: count() }).from(operatorPasskeys).where(eq(operatorPasskeys.operatorId, input.operator.operatorId));
    if (!operator?.totpSecret && (left?.n ?? 0) <= 1) throw new AppError(409, msg('opsPasskeyLastFactor'));
    await tx.delete(operatorPasskeys).where(eq(operatorPasskeys.id, before.id));
    await recordAudit(tx, {
      at: input.now,
      operatorId: input.operator.operatorId,
      operatorName: input.operator.name,
      ip: input.operator.ip,
      procedure: 'passkey/remove',
      input: { id: input.id },
      before: { id: before.id, credentialId: before.credentialId, name: before.name },
      after: null,
    });
  });
}

let dummyHash: Promise<string> | undefined;

/**
 * A credential id that stands in for the passkeys of a name with none to offer (unknown, not active, or TOTP only): the
 * same for the same name, so asking twice tells nothing, and unknown to any authenticator.
 */
function decoyCredentialId(name: string, e: Env = env()): string {
  return createHmac('sha256', e.AUTH_SECRET).update(`operator passkey decoy:${name}`).digest().subarray(0, 32).toString('base64url');
}

/**
 * Starts a sign-in with a passkey (in place of the code; the password comes with the passkey's answer). Takes the name
 * only: the options name the account's passkeys (ids, no transports), or a stand-in for a name with none, so the answer
 * cannot depend on the password and this step is no password oracle (issue 31, red team: a wrong password used to get
 * a decoy and the right one the real credentials). Starts are limited per address in their own bucket (they prove
 * nothing, so they are not failed sign-ins) and audited.
 */
export async function startPasskeySignIn(
  db: Db,
  input: { name: string; now: Date; ip: string; rp?: RelyingParty },
): Promise<{ ceremony: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const rp = input.rp ?? relyingParty();
  const name = normalName(input.name);
  const started = await hitAll(
    db,
    PASSKEY_LIMITS.startsPerAddress.map((l) => ({ bucket: `ops:passkey-start:ip:${l.windowMs}:${input.ip}`, ...l })),
    input.now,
  );
  if (started.refused) {
    throw new AppError(429, msg('opsSignInLimited', { waitMs: Math.max(1000, started.refused.resetAt.getTime() - input.now.getTime()) }));
  }
  const [operator] = await db.select().from(operators).where(eq(operators.name, name));
  const account = operator && operator.status === 'active' ? operator : null;
  const passkeys = account
    ? await db
        .select({ credentialId: operatorPasskeys.credentialId })
        .from(operatorPasskeys)
        .where(eq(operatorPasskeys.operatorId, account.id))
        .orderBy(asc(operatorPasskeys.id))
    : [];
  const allow = passkeys.length ? passkeys.map((p) => ({ id: p.credentialId })) : [{ id: decoyCredentialId(name) }];
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId,
    allowCredentials: allow,
    userVerification: 'preferred',
    timeout: PASSKEY_LIMITS.ceremonyTtlMs,
  });
  const ceremony = await openCeremony(db, {
    purpose: 'signIn',
    operatorId: passkeys.length ? account!.id : null,
    challenge: options.challenge,
    now: input.now,
    ip: input.ip,
  });
  await recordAudit(db, {
    at: input.now,
    operatorId: null,
    operatorName: name.slice(0, 64),
    ip: input.ip,
    procedure: 'session/passkeyOptions',
    input: { name: name.slice(0, 64) },
    after: { started: true },
  });
  return { ceremony, options };
}

/**
 * Finishes a sign-in with a passkey: name, password and the passkey's answer together. Counts one try against the same
 * limits as a sign-in with a code (per name and per address; a throttled try is audited and answered 429). Then the
 * pending sign-in is open and spent now (single use), it was started for this name's account, the password is right,
 * the credential is one of that account's, and the answer verifies against the challenge, the operator host's origin
 * and rpID, and the stored public key, with a signature counter that went forward (a counter going backwards means a
 * cloned authenticator). Anything else is refused in the words of a wrong code, after the same argon2 work. Audited,
 * refused or not; the count is given back when it passes. Answers the session token for the cookie.
 */
export async function finishPasskeySignIn(
  db: Db,
  input: {
    name: string;
    password: string;
    ceremony: string;
    response: AuthenticationResponseJSON;
    now: Date;
    ip: string;
    rp?: RelyingParty;
  },
): Promise<{ token: string; expiresAt: Date; operator: { name: string; role: OperatorRole } }> {
  const rp = input.rp ?? relyingParty();
  const name = normalName(input.name);
  const audited = {
    operatorId: null,
    operatorName: name.slice(0, 64),
    procedure: 'session/passkeySignIn',
    input: {
      name: name.slice(0, 64),
      password: input.password,
      credentialId: typeof input.response?.id === 'string' ? input.response.id.slice(0, 200) : null,
    },
  };
  const attempt = await countPasswordAttempt(db, {
    name,
    ip: input.ip,
    now: input.now,
    throttled: { ...audited, after: { signedIn: false } },
  });
  const open = await spendCeremony(db, input.ceremony, 'signIn', input.now);
  const [named] = await db.select().from(operators).where(eq(operators.name, name));
  // The same argon2 work whether or not the name exists, so the answer's time does not tell either.
  dummyHash ??= hash(randomToken());
  const passwordRight = await verify(named?.passwordHash ?? (await dummyHash), input.password).catch(() => false);
  const operator =
    named && named.status === 'active' && passwordRight && open?.operatorId != null && open.operatorId === named.id ? named : undefined;
  const [passkey] =
    operator && typeof input.response?.id === 'string'
      ? await db
          .select()
          .from(operatorPasskeys)
          .where(and(eq(operatorPasskeys.operatorId, operator.id), eq(operatorPasskeys.credentialId, input.response.id)))
      : [];
  let newCounter: number | null = null;
  if (open && passkey) {
    const verified = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: open.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: false,
    }).catch(() => null);
    if (verified?.verified) newCounter = verified.authenticationInfo.newCounter;
  }
  let passes = false;
  if (passkey && newCounter !== null) {
    // The counter moves forward in the same statement that reads it, so two answers racing cannot both pass with one
    // count; an authenticator that keeps no counter (always 0) is let through, as WebAuthn says.
    const moved = await db
      .update(operatorPasskeys)
      .set({ counter: newCounter, lastUsedAt: input.now })
      .where(
        and(
          eq(operatorPasskeys.id, passkey.id),
          newCounter === 0 ? eq(operatorPasskeys.counter, 0) : sql`${operatorPasskeys.counter} < ${newCounter}`,
        ),
      )
      .returning({ id: operatorPasskeys.id });
    passes = moved.length === 1;
  }
  await recordAudit(db, { ...audited, at: input.now, operatorId: passes ? operator!.id : null, ip: input.ip, after: { signedIn: passes } });
  if (!passes) throw new AppError(401, msg('opsSignInRefused'));
  for (const h of attempt.hits) await h.undo();
  const session = await createOperatorSession(db, { operatorId: operator!.id, now: input.now, ip: input.ip });
  return { ...session, operator: { name: operator!.name, role: operator!.role } };
}
