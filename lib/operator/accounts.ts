import 'server-only';
import { hash, verify } from '@node-rs/argon2';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  channels,
  operatorGrants,
  operatorInvites,
  operatorRecoveryCodes,
  operatorSessions,
  operatorTotpSteps,
  operators,
  type OperatorRow,
} from '../db/schema';
import { randomBytes } from 'node:crypto';
import { randomToken, sha256 } from '../security/crypto';
import { hitAll, type Limit } from '../rate-limit/rate-limit';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { recordAudit } from './audit';
import { newTotpSecret, totpEnrolment, totpStep } from './totp';
import type { OperatorRole } from '../procedure/roles';
import type { OperatorSession } from '../procedure/scope';

/**
 * Operator accounts (issue 31, "Operator accounts"): names and argon2id passwords, a TOTP second factor without which
 * no account works, one-time recovery codes, one-time enrolment links, and sessions with an idle timeout and an
 * absolute lifetime, all kept hashed. docs/operators.md ("Accounts and roles") and docs/security.md say why each figure.
 */
export const OPERATOR_LIMITS = {
  /** An enrolment link works once, for three days. */
  inviteTtlMs: 72 * 3_600_000,
  /** A session ends after 30 minutes without a call, and 12 hours after sign-in whatever happens. */
  sessionIdleMs: 30 * 60_000,
  sessionMaxMs: 12 * 3_600_000,
  /** lastSeenAt is written at most once a minute per session (a page makes several calls). */
  touchEveryMs: 60_000,
  recoveryCodes: 10,
  /**
   * Failed sign-ins, counted before the check and given back when it passes. Per account name (typed, known or not,
   * so the answer tells nothing) and per address; each in a short and a long window, so the wait grows (backoff) for
   * someone who keeps guessing: 5 in 15 minutes then 20 in a day per name; 20 in 15 minutes then 100 in a day per address.
   */
  perAccount: [
    { max: 5, windowMs: 15 * 60_000 },
    { max: 20, windowMs: 24 * 3_600_000 },
  ],
  perAddress: [
    { max: 20, windowMs: 15 * 60_000 },
    { max: 100, windowMs: 24 * 3_600_000 },
  ],
} as const;

export type { OperatorSession };

/** Account names: 3 to 32 lower-case letters, digits, dots, dashes and underscores, starting with a letter. */
export const OPERATOR_NAME = /^[a-z][a-z0-9._-]{2,31}$/;

export function normalName(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * A new operator in the invited state and their one-time enrolment link's token (shown once; kept as SHA-256).
 * Throws when the name is taken or not a name.
 */
export async function createInvitedOperator(
  db: Db,
  input: {
    name: string;
    role: OperatorRole;
    /** Channel keys granted (a manager's or support's; an owner works on every channel anyway). */
    channels?: readonly string[];
    now: Date;
    by?: { operatorId: number | null; name: string; ip: string };
  },
): Promise<{ operatorId: number; token: string; expiresAt: Date; channels: string[] }> {
  const name = normalName(input.name);
  if (!OPERATOR_NAME.test(name))
    throw new AppError(
      400,
      `name: ${JSON.stringify(input.name)} must be 3 to 32 lower-case letters, digits, dots, dashes or underscores, starting with a letter`,
    );
  const keys = input.role === 'owner' ? [] : [...new Set(input.channels ?? [])].sort();
  const token = randomToken();
  const expiresAt = new Date(input.now.getTime() + OPERATOR_LIMITS.inviteTtlMs);
  const operatorId = await db.transaction(async (tx) => {
    const [taken] = await tx.select({ id: operators.id }).from(operators).where(eq(operators.name, name));
    if (taken) throw new AppError(409, `name: there is already an operator called ${name}`);
    const granted = keys.length
      ? await tx.select({ id: channels.id, key: channels.key }).from(channels).where(inArray(channels.key, keys))
      : [];
    const missing = keys.filter((k) => !granted.some((g) => g.key === k));
    if (missing.length) throw new AppError(400, `channels: there is no channel ${missing.join(', ')}`);
    const [row] = await tx.insert(operators).values({ name, role: input.role, status: 'invited', createdAt: input.now }).returning();
    if (granted.length) await tx.insert(operatorGrants).values(granted.map((g) => ({ operatorId: row!.id, channelId: g.id })));
    await tx.insert(operatorInvites).values({
      operatorId: row!.id,
      tokenHash: sha256(token),
      pendingTotpSecret: newTotpSecret(),
      createdAt: input.now,
      expiresAt,
    });
    await recordAudit(tx, {
      at: input.now,
      operatorId: input.by?.operatorId ?? null,
      operatorName: input.by?.name ?? 'ops:owner',
      ip: input.by?.ip ?? 'command line',
      procedure: 'operator/invite',
      input: { name, role: input.role, channels: keys },
      after: { id: row!.id, name, role: input.role, status: 'invited', channels: keys },
    });
    return row!.id;
  });
  return { operatorId, token, expiresAt, channels: keys };
}

type OpenInvite = { inviteId: number; operator: OperatorRow; secret: string };

async function findOpenInvite(db: Db, token: string, now: Date): Promise<OpenInvite | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [row] = await db
    .select({ invite: operatorInvites, operator: operators })
    .from(operatorInvites)
    .innerJoin(operators, eq(operators.id, operatorInvites.operatorId))
    .where(and(eq(operatorInvites.tokenHash, sha256(token)), isNull(operatorInvites.usedAt), gt(operatorInvites.expiresAt, now)));
  if (!row || row.operator.status !== 'invited') return null;
  return { inviteId: row.invite.id, operator: row.operator, secret: row.invite.pendingTotpSecret };
}

/** What the enrolment page shows for a link that still works: the name, role, and the TOTP secret as QR and text. */
export async function readEnrolment(
  db: Db,
  token: string,
  now: Date,
): Promise<{ name: string; role: OperatorRole; secret: string; uri: string; qrSvg: string } | null> {
  const open = await findOpenInvite(db, token, now);
  if (!open) return null;
  return {
    name: open.operator.name,
    role: open.operator.role,
    secret: open.secret,
    ...(await totpEnrolment(open.secret, open.operator.name)),
  };
}

function newRecoveryCode(): string {
  // 80 random bits in Crockford-like base32 without look-alikes, grouped: abcd-efgh-jkmn-pqrs.
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(16);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}-${chars.slice(12, 16)}`;
}

function recoveryHash(code: string): string {
  return sha256(code.trim().toLowerCase().replaceAll(' ', ''));
}

/** Marks a TOTP step used; false when it already was (a replay), atomically on both databases. */
async function spendStep(db: Db, operatorId: number, step: number, now: Date): Promise<boolean> {
  const rows = await db.insert(operatorTotpSteps).values({ operatorId, step, usedAt: now }).onConflictDoNothing().returning();
  return rows.length === 1;
}

/**
 * Completes an enrolment (issue 31): the link still works, the password is set (argon2id), and a code from the offered
 * secret proves the authenticator app has it. The link is spent, the account active, and the recovery codes are
 * answered once (only their hashes are kept). Audited.
 */
export async function completeEnrolment(
  db: Db,
  input: { token: string; password: string; code: string; now: Date; ip: string },
): Promise<{ name: string; role: OperatorRole; recoveryCodes: string[] }> {
  const open = await findOpenInvite(db, input.token, input.now);
  if (!open) throw new AppError(404, msg('opsInviteInvalid'));
  const step = totpStep(open.secret, input.code, input.now);
  if (step === null) throw new AppError(400, msg('opsCodeWrong'));
  const passwordHash = await hash(input.password);
  const recoveryCodes = Array.from({ length: OPERATOR_LIMITS.recoveryCodes }, newRecoveryCode);
  await db.transaction(async (tx) => {
    // Spend the link first: of two tabs completing at once, one wins.
    const spent = await tx
      .update(operatorInvites)
      .set({ usedAt: input.now })
      .where(and(eq(operatorInvites.id, open.inviteId), isNull(operatorInvites.usedAt)))
      .returning({ id: operatorInvites.id });
    if (spent.length === 0) throw new AppError(404, msg('opsInviteInvalid'));
    if (!(await spendStep(tx, open.operator.id, step, input.now))) throw new AppError(400, msg('opsCodeWrong'));
    await tx.update(operators).set({ status: 'active', passwordHash, totpSecret: open.secret }).where(eq(operators.id, open.operator.id));
    await tx
      .insert(operatorRecoveryCodes)
      .values(recoveryCodes.map((code) => ({ operatorId: open.operator.id, codeHash: recoveryHash(code) })));
    await recordAudit(tx, {
      at: input.now,
      operatorId: open.operator.id,
      operatorName: open.operator.name,
      ip: input.ip,
      procedure: 'enrol/complete',
      input: { token: input.token, password: input.password, code: input.code },
      before: { status: 'invited' },
      after: { status: 'active', secondFactor: 'totp', recoveryCodes: recoveryCodes.length },
    });
  });
  return { name: open.operator.name, role: open.operator.role, recoveryCodes };
}

let dummyHash: Promise<string> | undefined;

/** Whether the second factor is right: a TOTP code not used before, or an unused recovery code (then spent). */
async function secondFactorPasses(db: Db, operator: OperatorRow, code: string, now: Date): Promise<boolean> {
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) {
    const step = operator.totpSecret ? totpStep(operator.totpSecret, trimmed, now) : null;
    return step !== null && (await spendStep(db, operator.id, step, now));
  }
  const spent = await db
    .update(operatorRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(operatorRecoveryCodes.operatorId, operator.id),
        eq(operatorRecoveryCodes.codeHash, recoveryHash(trimmed)),
        isNull(operatorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: operatorRecoveryCodes.id });
  return spent.length === 1;
}

function waitOf(refused: { resetAt: Date }, now: Date): number {
  return Math.max(1000, refused.resetAt.getTime() - now.getTime());
}

/**
 * Signs an operator in (issue 31): name, password and a second factor (a TOTP code, or a recovery code). A wrong name,
 * a wrong password, a wrong code, an account not enrolled and a disabled one all get the same refusal, after the same
 * argon2 work. Failures count per name and per address (OPERATOR_LIMITS); too many is 429 with the wait. Audited,
 * refused or not. Answers the session token for the cookie.
 */
export async function signIn(
  db: Db,
  input: { name: string; password: string; code: string; now: Date; ip: string },
): Promise<{ token: string; expiresAt: Date; operator: { name: string; role: OperatorRole } }> {
  const name = normalName(input.name);
  const limits: Limit[] = [
    ...OPERATOR_LIMITS.perAccount.map((l) => ({ bucket: `ops:sign-in:name:${l.windowMs}:${name}`, ...l })),
    ...OPERATOR_LIMITS.perAddress.map((l) => ({ bucket: `ops:sign-in:ip:${l.windowMs}:${input.ip}`, ...l })),
  ];
  const attempt = await hitAll(db, limits, input.now);
  if (attempt.refused) {
    if (attempt.refused.count === attempt.refused.max + 1) {
      console.error(
        `[alert] operator console: ${attempt.refused.max} failed sign-ins (${attempt.refused.bucket.split(':')[2]}) ` +
          `within ${attempt.refused.windowMs / 60_000} minutes; refused until ${attempt.refused.resetAt.toISOString()}. ` +
          'If no operator is at it, someone is guessing: block the address.',
      );
    }
    throw new AppError(429, msg('opsSignInLimited', { waitMs: waitOf(attempt.refused, input.now) }));
  }
  const [operator] = await db.select().from(operators).where(eq(operators.name, name));
  // The same argon2 work whether or not the name exists, so the answer's time does not tell either.
  dummyHash ??= hash(randomToken());
  const passwordRight = await verify(operator?.passwordHash ?? (await dummyHash), input.password).catch(() => false);
  const passes =
    operator !== undefined &&
    operator.status === 'active' &&
    passwordRight &&
    (await secondFactorPasses(db, operator, input.code, input.now));
  await recordAudit(db, {
    at: input.now,
    operatorId: passes ? operator!.id : null,
    operatorName: name.slice(0, 64),
    ip: input.ip,
    procedure: 'session/signIn',
    input: { name: name.slice(0, 64), password: input.password, code: input.code },
    after: { signedIn: passes },
  });
  if (!passes) throw new AppError(401, msg('opsSignInRefused'));
  for (const h of attempt.hits) await h.undo();
  const session = await createOperatorSession(db, { operatorId: operator!.id, now: input.now, ip: input.ip });
  return { ...session, operator: { name: operator!.name, role: operator!.role } };
}

/** A new session of an operator who has just proved who they are: its token for the cookie (kept as SHA-256). */
export async function createOperatorSession(
  db: Db,
  input: { operatorId: number; now: Date; ip: string | null },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(input.now.getTime() + OPERATOR_LIMITS.sessionMaxMs);
  await db.insert(operatorSessions).values({
    tokenHash: sha256(token),
    operatorId: input.operatorId,
    createdAt: input.now,
    lastSeenAt: input.now,
    expiresAt,
    ip: input.ip,
  });
  return { token, expiresAt };
}

/**
 * The operator behind a session cookie's token, or null: unknown, revoked, past its absolute lifetime, idle too long,
 * or its operator not active (a disabled operator's sessions end at once, since this reads the operator's row).
 */
export async function resolveOperatorSession(db: Db, token: string | null | undefined, now: Date): Promise<OperatorSession | null> {
  if (!token || token.length > 256) return null;
  const [row] = await db
    .select({ session: operatorSessions, operator: operators })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(and(eq(operatorSessions.tokenHash, sha256(token)), isNull(operatorSessions.revokedAt), gt(operatorSessions.expiresAt, now)));
  if (!row || row.operator.status !== 'active') return null;
  if (now.getTime() - row.session.lastSeenAt.getTime() >= OPERATOR_LIMITS.sessionIdleMs) return null;
  if (now.getTime() - row.session.lastSeenAt.getTime() >= OPERATOR_LIMITS.touchEveryMs) {
    await db.update(operatorSessions).set({ lastSeenAt: now }).where(eq(operatorSessions.id, row.session.id));
  }
  return { sessionId: row.session.id, operatorId: row.operator.id, name: row.operator.name, role: row.operator.role };
}

/** Ends a session (sign out). */
export async function endOperatorSession(db: Db, sessionId: number, now: Date): Promise<void> {
  await db
    .update(operatorSessions)
    .set({ revokedAt: now })
    .where(and(eq(operatorSessions.id, sessionId), isNull(operatorSessions.revokedAt)));
}

/**
 * Disables an operator (issue 31: "Disabling an operator ends their sessions at once"): the status read on every call,
 * and every open session revoked too. Audited.
 */
export async function disableOperator(
  db: Db,
  input: { operatorId: number; by: { operatorId: number | null; name: string; ip: string }; now: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(operators).where(eq(operators.id, input.operatorId));
    if (!before) throw new AppError(404, 'operator: no such operator');
    await tx.update(operators).set({ status: 'disabled' }).where(eq(operators.id, input.operatorId));
    await tx
      .update(operatorSessions)
      .set({ revokedAt: input.now })
      .where(and(eq(operatorSessions.operatorId, input.operatorId), isNull(operatorSessions.revokedAt)));
    await recordAudit(tx, {
      at: input.now,
      operatorId: input.by.operatorId,
      operatorName: input.by.name,
      ip: input.by.ip,
      procedure: 'operator/disable',
      input: { operatorId: input.operatorId },
      before: { status: before.status },
      after: { status: 'disabled' },
    });
  });
}

/** How many operators exist (ops:owner refuses a second "first owner" unless told). */
export async function countOwners(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(operators)
    .where(eq(operators.role, 'owner'));
  return row?.n ?? 0;
}
