import 'server-only';
import { hash, verify } from '@node-rs/argon2';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  channels,
  operatorApiKeys,
  operatorGrants,
  operatorInvites,
  operatorPasskeys,
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
import { recordAudit, type AuditEntry } from './audit';
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
   * A sensitive write (`reauth: true`, issue 31) needs the password and a fresh TOTP code proved on the session within
   * this long: sign-in counts, and /ops/api/session/confirm renews it. Short enough that a console left open and
   * unlocked does not grant a role or mint a key for whoever sits down at it.
   */
  reauthWithinMs: 5 * 60_000,
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

/** A TOTP code's shape: a recovery code never has it. */
const TOTP_CODE = /^\d{6}$/;

/** Whether the second factor is right: a TOTP code not used before, or an unused recovery code (then spent). */
async function secondFactorPasses(db: Db, operator: OperatorRow, code: string, now: Date): Promise<boolean> {
  const trimmed = code.trim();
  if (TOTP_CODE.test(trimmed)) {
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

/** The limits of one try of a password (OPERATOR_LIMITS): per name and per address, shared by every way in. */
export function signInLimits(name: string, ip: string): Limit[] {
  return [
    ...OPERATOR_LIMITS.perAccount.map((l) => ({ bucket: `ops:sign-in:name:${l.windowMs}:${name}`, ...l })),
    ...OPERATOR_LIMITS.perAddress.map((l) => ({ bucket: `ops:sign-in:ip:${l.windowMs}:${ip}`, ...l })),
  ];
}

/**
 * Counts one try of a password and code against the per-name and per-address limits (OPERATOR_LIMITS), before the
 * check; 429 with the wait when over. The caller gives the hits back when the check passes. A refused try is still a
 * sign-in attempt, so it is audited (`throttled` holds the entry; after: outcome "throttled") before the 429: docs say
 * every sign-in, refused or not, is in the trail, and a guesser kept at the limit is what an owner looks for there.
 */
export async function countPasswordAttempt(
  db: Db,
  input: { name: string; ip: string; now: Date; throttled: Omit<AuditEntry, 'at' | 'ip' | 'after'> & { after: Record<string, unknown> } },
) {
  const { name, ip, now } = input;
  const attempt = await hitAll(db, signInLimits(name, ip), now);
  if (attempt.refused) {
    await recordAudit(db, { ...input.throttled, at: now, ip, after: { ...input.throttled.after, outcome: 'throttled' } });
    if (attempt.refused.count === attempt.refused.max + 1) {
      console.error(
        `[alert] operator console: ${attempt.refused.max} failed sign-ins (${attempt.refused.bucket.split(':')[2]}) ` +
          `within ${attempt.refused.windowMs / 60_000} minutes; refused until ${attempt.refused.resetAt.toISOString()}. ` +
          'If no operator is at it, someone is guessing: block the address.',
      );
    }
    throw new AppError(429, msg('opsSignInLimited', { waitMs: waitOf(attempt.refused, now) }));
  }
  return attempt;
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
  const audited = {
    operatorId: null,
    operatorName: name.slice(0, 64),
    procedure: 'session/signIn',
    input: { name: name.slice(0, 64), password: input.password, code: input.code },
  };
  const attempt = await countPasswordAttempt(db, {
    name,
    ip: input.ip,
    now: input.now,
    throttled: { ...audited, after: { signedIn: false } },
  });
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
    ...audited,
    at: input.now,
    operatorId: passes ? operator!.id : null,
    ip: input.ip,
    after: { signedIn: passes },
  });
  if (!passes) throw new AppError(401, msg('opsSignInRefused'));
  for (const h of attempt.hits) await h.undo();
  await db.update(operators).set({ lastSignInAt: input.now }).where(eq(operators.id, operator!.id));
  // Sign-in with the password and a fresh TOTP code is the proof a sensitive write needs for 5 minutes. A recovery code
  // (the lost-phone path) gets the operator in, but not that proof: their first sensitive write asks for a TOTP code.
  const provedAt = TOTP_CODE.test(input.code.trim()) ? input.now : undefined;
  const session = await createOperatorSession(db, { operatorId: operator!.id, now: input.now, ip: input.ip, provedAt });
  return { ...session, operator: { name: operator!.name, role: operator!.role } };
}

/** A new session of an operator who has just proved who they are: its token for the cookie (kept as SHA-256). */
export async function createOperatorSession(
  db: Db,
  input: { operatorId: number; now: Date; ip: string | null; provedAt?: Date },
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
    provedAt: input.provedAt ?? null,
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

/** How many operators exist (ops:owner refuses a second "first owner" unless told). */
export async function countOwners(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(operators)
    .where(eq(operators.role, 'owner'));
  return row?.n ?? 0;
}

/**
 * Whether the session proved the password and a fresh TOTP code within OPERATOR_LIMITS.reauthWithinMs (issue 31:
 * "re-authentication for sensitive writes"). Sign-in counts; /ops/api/session/confirm renews it.
 */
export async function sessionRecentlyProved(db: Db, sessionId: number, now: Date): Promise<boolean> {
  const [row] = await db.select({ provedAt: operatorSessions.provedAt }).from(operatorSessions).where(eq(operatorSessions.id, sessionId));
  const proved = row?.provedAt?.getTime();
  return proved !== undefined && now.getTime() - proved < OPERATOR_LIMITS.reauthWithinMs && proved <= now.getTime();
}

/**
 * Renews a session's proof for sensitive writes (issue 31): the signed-in operator's password and a fresh TOTP code
 * (not a recovery code: the rule is "a fresh TOTP code", and an operator who lost their phone has an owner reset it).
 * The same limits as sign-in (per name and per address, counted before the check) and the same refusal for whatever was
 * wrong; a code already used (a replay) is refused. Audited, refused or not.
 */
export async function confirmSession(
  db: Db,
  input: { session: OperatorSession; password: string; code: string; now: Date; ip: string },
): Promise<{ provedUntil: Date }> {
  const attempt = await countPasswordAttempt(db, {
    name: input.session.name,
    ip: input.ip,
    now: input.now,
    throttled: {
      operatorId: input.session.operatorId,
      operatorName: input.session.name,
      procedure: 'session/confirm',
      input: { password: input.password, code: input.code },
      after: { confirmed: false },
    },
  });
  const [operator] = await db.select().from(operators).where(eq(operators.id, input.session.operatorId));
  dummyHash ??= hash(randomToken());
  const passwordRight = await verify(operator?.passwordHash ?? (await dummyHash), input.password).catch(() => false);
  const passes =
    operator !== undefined &&
    operator.status === 'active' &&
    passwordRight &&
    TOTP_CODE.test(input.code.trim()) &&
    (await secondFactorPasses(db, operator, input.code, input.now));
  await recordAudit(db, {
    at: input.now,
    operatorId: input.session.operatorId,
    operatorName: input.session.name,
    ip: input.ip,
    procedure: 'session/confirm',
    input: { password: input.password, code: input.code },
    after: { confirmed: passes },
  });
  if (!passes) throw new AppError(401, msg('opsSignInRefused'));
  for (const h of attempt.hits) await h.undo();
  await db.update(operatorSessions).set({ provedAt: input.now }).where(eq(operatorSessions.id, input.session.sessionId));
  return { provedUntil: new Date(input.now.getTime() + OPERATOR_LIMITS.reauthWithinMs) };
}

/** Who acts on the team (the audit trail's who and from where). */
export type TeamActor = { operatorId: number | null; name: string; ip: string };

/** An operator as the Team page lists them (issue 31). */
export type TeamMember = {
  id: number;
  name: string;
  role: OperatorRole;
  status: 'invited' | 'active' | 'disabled';
  channels: string[];
  secondFactor: boolean;
  lastSignInAt: string | null;
  createdAt: string;
};

async function grantedKeys(db: Db, operatorId: number): Promise<string[]> {
  const rows = await db
    .select({ key: channels.key })
    .from(operatorGrants)
    .innerJoin(channels, eq(channels.id, operatorGrants.channelId))
    .where(eq(operatorGrants.operatorId, operatorId));
  return rows.map((r) => r.key).sort();
}

/** The channel keys each operator is granted, in one read. */
export async function grantsByOperator(db: Db): Promise<Map<number, string[]>> {
  const rows = await db
    .select({ operatorId: operatorGrants.operatorId, key: channels.key })
    .from(operatorGrants)
    .innerJoin(channels, eq(channels.id, operatorGrants.channelId));
  const map = new Map<number, string[]>();
  for (const r of rows) map.set(r.operatorId, [...(map.get(r.operatorId) ?? []), r.key].sort());
  return map;
}

/** Every operator with role, status, channels granted, whether a second factor is set, and the last sign-in. */
export async function listTeam(db: Db): Promise<TeamMember[]> {
  const [rows, grants] = await Promise.all([db.select().from(operators).orderBy(operators.name), grantsByOperator(db)]);
  return rows.map((o) => ({
    id: o.id,
    name: o.name,
    role: o.role,
    status: o.status,
    channels: o.role === 'owner' ? [] : (grants.get(o.id) ?? []),
    secondFactor: o.totpSecret !== null,
    lastSignInAt: o.lastSignInAt?.toISOString() ?? null,
    createdAt: o.createdAt.toISOString(),
  }));
}

/**
 * Reads the operator an owner acts on, locking the active owners' rows (so two owners demoting or disabling each other
 * at once cannot leave none), and refuses what would leave the deployment without an active owner (issue 31: "the last
 * active owner can never be disabled or demoted") or an owner acting on themself.
 */
async function targetFor(
  tx: Db,
  input: { operatorId: number; by: TeamActor },
  change: { demotes: boolean; self: 'refuse' | 'allow' },
): Promise<OperatorRow> {
  const [target] = await tx.select().from(operators).where(eq(operators.id, input.operatorId));
  if (!target) throw new AppError(404, msg('opsTeamNoOperator'));
  if (change.self === 'refuse' && input.by.operatorId === target.id) throw new AppError(409, msg('opsTeamSelf'));
  if (change.demotes && target.role === 'owner' && target.status === 'active') {
    const owners = await tx
      .select({ id: operators.id })
      .from(operators)
      .where(and(eq(operators.role, 'owner'), eq(operators.status, 'active')))
      .for('update');
    if (owners.every((o) => o.id === target.id)) throw new AppError(409, msg('opsTeamLastOwner'));
  }
  return target;
}

async function endSessions(tx: Db, operatorId: number, now: Date): Promise<void> {
  await tx
    .update(operatorSessions)
    .set({ revokedAt: now })
    .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.revokedAt)));
}

/**
 * An owner changes an operator's role and channels (issue 31; a sensitive write, `reauth`). Not their own, and never
 * the last active owner's demotion. An owner's grants are cleared (owners work on every channel). Audited with before
 * and after.
 */
export async function changeOperatorAccess(
  db: Db,
  input: { operatorId: number; role: OperatorRole; channels: readonly string[]; by: TeamActor; now: Date },
): Promise<TeamMember> {
  return db.transaction(async (tx) => {
    const target = await targetFor(tx, input, { demotes: input.role !== 'owner', self: 'refuse' });
    const keys = input.role === 'owner' ? [] : [...new Set(input.channels)].sort();
    const granted = keys.length
      ? await tx.select({ id: channels.id, key: channels.key }).from(channels).where(inArray(channels.key, keys))
      : [];
    const missing = keys.filter((k) => !granted.some((g) => g.key === k));
    if (missing.length) throw new AppError(400, `channels: there is no channel ${missing.join(', ')}`);
    const beforeKeys = await grantedKeys(tx, target.id);
    await tx.update(operators).set({ role: input.role }).where(eq(operators.id, target.id));
    await tx.delete(operatorGrants).where(eq(operatorGrants.operatorId, target.id));
    if (granted.length) await tx.insert(operatorGrants).values(granted.map((g) => ({ operatorId: target.id, channelId: g.id })));
    await recordAudit(tx, {
      at: input.now,
      operatorId: input.by.operatorId,
      operatorName: input.by.name,
      ip: input.by.ip,
      procedure: 'team/update',
      input: { operatorId: target.id, role: input.role, channels: keys },
      before: { id: target.id, name: target.name, role: target.role, channels: target.role === 'owner' ? [] : beforeKeys },
      after: { id: target.id, name: target.name, role: input.role, channels: keys },
    });
    return (await listTeam(tx)).find((m) => m.id === target.id)!;
  });
}

/**
 * Disables an operator (issue 31: "Disabling an operator ends their sessions at once"): the status is read on every
 * call, and every open session is revoked too; their API keys stop with them (lib/operator/api-keys.ts reads the
 * status). An owner cannot disable themself, and the last active owner is never disabled. Audited.
 */
export async function disableOperator(db: Db, input: { operatorId: number; by: TeamActor; now: Date }): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await targetFor(tx, input, { demotes: true, self: 'refuse' });
    await tx.update(operators).set({ status: 'disabled' }).where(eq(operators.id, before.id));
    await endSessions(tx, before.id, input.now);
    await recordAudit(tx, {
      at: input.now,
      operatorId: input.by.operatorId,
      operatorName: input.by.name,
      ip: input.by.ip,
      procedure: 'team/disable',
      input: { operatorId: input.operatorId },
      before: { id: before.id, name: before.name, status: before.status },
      after: { id: before.id, name: before.name, status: 'disabled' },
    });
  });
}

/**
 * Enables a disabled operator again: active when they had enrolled, invited when they had not (their link, if still
 * open, works again). They sign in afresh: the sessions that ended stay ended. Audited.
 */
export async function enableOperator(db: Db, input: { operatorId: number; by: TeamActor; now: Date }): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await targetFor(tx, input, { demotes: false, self: 'allow' });
    if (before.status !== 'disabled') return;
    const status = before.totpSecret && before.passwordHash ? 'active' : 'invited';
    await tx.update(operators).set({ status }).where(eq(operators.id, before.id));
    await recordAudit(tx, {
      at: input.now,
      operatorId: input.by.operatorId,
      operatorName: input.by.name,
      ip: input.by.ip,
      procedure: 'team/enable',
      input: { operatorId: input.operatorId },
      before: { id: before.id, name: before.name, status: before.status },
      after: { id: before.id, name: before.name, status },
    });
  });
}

/**
 * An owner resets another operator's second factor (issue 31, audited): password, TOTP secret and recovery codes are
 * dropped, every session ends, earlier links stop working, and the operator is invited again with a new one-time link
 * (answered once) to set a new password and TOTP. Not one's own (sign in with a recovery code instead), and never the
 * last active owner's (nobody could then sign in as an owner until the link is used).
 */
export async function resetSecondFactor(
  db: Db,
  input: { operatorId: number; by: TeamActor; now: Date },
): Promise<{ token: string; expiresAt: Date; name: string }> {
  const token = randomToken();
  const expiresAt = new Date(input.now.getTime() + OPERATOR_LIMITS.inviteTtlMs);
  const name = await db.transaction(async (tx) => {
    const before = await targetFor(tx, input, { demotes: true, self: 'refuse' });
    // A disabled operator stays disabled: the new link works once an owner enables them again.
    const status = before.status === 'disabled' ? 'disabled' : 'invited';
    await tx.update(operators).set({ status, passwordHash: null, totpSecret: null }).where(eq(operators.id, before.id));
    await endSessions(tx, before.id, input.now);
    // Passkeys are second factors too: a reset is for a lost or stolen device, which may hold one (lib/operator/passkeys.ts).
    // The trail counts them as `deviceKeys` (a field named pass... would be redacted as a password).
    const passkeys = (
      await tx.delete(operatorPasskeys).where(eq(operatorPasskeys.operatorId, before.id)).returning({ id: operatorPasskeys.id })
    ).length;
    // So are their API keys revoked (red team): a reset is for a device or an account that may be in other hands, and a
    // key kept working again once the operator enrolled anew. They make new ones after.
    const apiKeys = (
      await tx
        .update(operatorApiKeys)
        .set({ revokedAt: input.now })
        .where(and(eq(operatorApiKeys.operatorId, before.id), isNull(operatorApiKeys.revokedAt)))
        .returning({ id: operatorApiKeys.id })
    ).length;
    await tx
      .update(operatorRecoveryCodes)
      .set({ usedAt: input.now })
      .where(and(eq(operatorRecoveryCodes.operatorId, before.id), isNull(operatorRecoveryCodes.usedAt)));
    await tx
      .update(operatorInvites)
      .set({ usedAt: input.now })
      .where(and(eq(operatorInvites.operatorId, before.id), isNull(operatorInvites.usedAt)));
    await tx.insert(operatorInvites).values({
      operatorId: before.id,
      tokenHash: sha256(token),
      pendingTotpSecret: newTotpSecret(),
      createdAt: input.now,
      expiresAt,
    });
    await recordAudit(tx, {
      at: input.now,
      operatorId: input.by.operatorId,
      operatorName: input.by.name,
      ip: input.by.ip,
      procedure: 'team/resetSecondFactor',
      input: { operatorId: input.operatorId },
      before: {
        id: before.id,
        name: before.name,
        status: before.status,
        secondFactor: before.totpSecret !== null,
        deviceKeys: passkeys,
        apiKeysLive: apiKeys,
      },
      after: { id: before.id, name: before.name, status, secondFactor: false, deviceKeys: 0, apiKeysLive: 0, link: 'new' },
    });
    return before.name;
  });
  return { token, expiresAt, name };
}
