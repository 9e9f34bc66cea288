import 'server-only';
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { channels, operatorApiKeys, operatorGrants, operators, type OperatorApiKeyRow } from '../db/schema';
import { randomToken, sha256 } from '../security/crypto';
import { hit, type Limit } from '../rate-limit/rate-limit';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { seesEveryChannel, type OperatorRole } from '../procedure/roles';
import type { OperatorSession } from '../procedure/scope';
import { recordAudit } from './audit';

/**
 * Per-operator API keys (issue 31: "automation uses per-operator API keys (shown once, stored hashed, scoped to a role
 * and channels, revocable), through the same procedures"). `Authorization: Bearer <key>` on the operator host acts as
 * the key's operator with the key's role and channels; docs/operators.md ("API keys") and docs/security.md say why.
 */

/** Every key starts so (a secret scanner, or an operator reading a log, can tell what leaked). */
export const API_KEY_START = 'sfk_';
/** What a key looks like: the start and 43 base64url characters (256 random bits). */
const API_KEY_SHAPE = /^sfk_[A-Za-z0-9_-]{43}$/;
/** Shown in lists: the start and 8 random characters, enough to tell keys apart, far too few to use one. */
const PREFIX_LENGTH = API_KEY_START.length + 8;

/**
 * Wrong keys one address may present (issue 31, as the operator token's limit before it): 10 per 15 minutes, counted
 * before the lookup and given back when the key is right. A key has 256 random bits, so this is not what protects it;
 * it stops a scanner hammering the database and tells an operator (`[alert]`). Per address, never per key or operator.
 */
export const WRONG_API_KEYS = { max: 10, windowMs: 15 * 60_000 } as const;

/** lastUsedAt is written at most once a minute per key (automation makes many calls). */
const TOUCH_EVERY_MS = 60_000;

const RANK: Record<OperatorRole, number> = { support: 1, manager: 2, owner: 3 };

/** The lower of two roles: a key never acts above its operator's role, even after the operator was demoted. */
function lowerRole(a: OperatorRole, b: OperatorRole): OperatorRole {
  return RANK[a] <= RANK[b] ? a : b;
}

/** A key as the Team page lists it: never its secret. */
export type ApiKeyView = {
  id: number;
  operator: string;
  label: string;
  prefix: string;
  role: OperatorRole;
  channels: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

function view(row: OperatorApiKeyRow, operator: string): ApiKeyView {
  return {
    id: row.id,
    operator,
    label: row.label,
    prefix: row.prefix,
    role: row.role,
    channels: row.channels,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

async function grantedKeys(db: Db, operatorId: number): Promise<string[]> {
  const rows = await db
    .select({ key: channels.key })
    .from(operatorGrants)
    .innerJoin(channels, eq(channels.id, operatorGrants.channelId))
    .where(eq(operatorGrants.operatorId, operatorId));
  return rows.map((r) => r.key);
}

/**
 * A new key of an active operator (the console: one's own; `npm run ops:key`: the named operator), shown once: only
 * its SHA-256 is kept. Its role is at most the operator's; a manager's or support's key names channels among the
 * operator's (an owner-role key works on every channel). Audited with the key's row (never the secret).
 */
export async function createApiKey(
  db: Db,
  input: {
    operatorId: number;
    label: string;
    role: OperatorRole;
    channels: readonly string[];
    now: Date;
    by: { operatorId: number | null; name: string; ip: string };
  },
): Promise<{ key: string; apiKey: ApiKeyView }> {
  const key = `${API_KEY_START}${randomToken(32)}`;
  const apiKey = await db.transaction(async (tx) => {
    const [operator] = await tx.select().from(operators).where(eq(operators.id, input.operatorId));
    if (!operator || operator.status !== 'active') throw new AppError(404, msg('opsTeamNoOperator'));
    if (RANK[input.role] > RANK[operator.role]) throw new AppError(400, msg('opsApiKeyRoleTooHigh'));
    const keys = seesEveryChannel(input.role) ? [] : [...new Set(input.channels)].sort();
    if (!seesEveryChannel(input.role) && keys.length === 0) throw new AppError(400, 'channels: must name at least one channel');
    if (keys.length) {
      const reachable = seesEveryChannel(operator.role)
        ? (await tx.select({ key: channels.key }).from(channels).where(inArray(channels.key, keys))).map((c) => c.key)
        : await grantedKeys(tx, operator.id);
      if (keys.some((k) => !reachable.includes(k))) throw new AppError(400, msg('opsApiKeyChannelNotYours'));
    }
    const [row] = await tx
      .insert(operatorApiKeys)
      .values({
        operatorId: operator.id,
        label: input.label,
        prefix: key.slice(0, PREFIX_LENGTH),
        secretHash: sha256(key),
        role: input.role,
        channels: keys,
        createdAt: input.now,
      })
      .returning();
    const made = view(row!, operator.name);
    await recordAudit(tx, {
      at: input.now,
      operatorId: input.by.operatorId,
      operatorName: input.by.name,
      ip: input.by.ip,
      procedure: 'apiKey/create',
      input: { operatorId: operator.id, label: input.label, role: input.role, channels: keys },
      after: made,
    });
    return made;
  });
  return { key, apiKey };
}

/** The keys an operator manages: their own; an owner (signed in, not through a key) sees every operator's. */
export async function listApiKeys(db: Db, viewer: OperatorSession): Promise<ApiKeyView[]> {
  // Through a key, an owner's own keys only (red team): a leaked owner key must not list, nor revoke, everyone's.
  const everyone = viewer.role === 'owner' && !viewer.apiKey;
  const rows = await db
    .select({ key: operatorApiKeys, name: operators.name })
    .from(operatorApiKeys)
    .innerJoin(operators, eq(operators.id, operatorApiKeys.operatorId))
    .where(everyone ? undefined : eq(operatorApiKeys.operatorId, viewer.operatorId))
    .orderBy(desc(operatorApiKeys.createdAt), desc(operatorApiKeys.id));
  return rows.map((r) => view(r.key, r.name));
}

/**
 * Revokes a key at once (its next call is refused): one's own, or any as an owner signed in (not through a key);
 * another's is as unknown as one that does not exist. Revoking a revoked key changes nothing. Audited with before and after.
 */
export async function revokeApiKey(db: Db, input: { id: number; viewer: OperatorSession; now: Date; ip: string }): Promise<ApiKeyView> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ key: operatorApiKeys, name: operators.name })
      .from(operatorApiKeys)
      .innerJoin(operators, eq(operators.id, operatorApiKeys.operatorId))
      .where(eq(operatorApiKeys.id, input.id));
    const everyone = input.viewer.role === 'owner' && !input.viewer.apiKey;
    if (!found || (!everyone && found.key.operatorId !== input.viewer.operatorId)) {
      throw new AppError(404, msg('opsApiKeyNotFound'));
    }
    if (found.key.revokedAt) return view(found.key, found.name);
    const [row] = await tx.update(operatorApiKeys).set({ revokedAt: input.now }).where(eq(operatorApiKeys.id, input.id)).returning();
    const after = view(row!, found.name);
    await recordAudit(tx, {
      at: input.now,
      operatorId: input.viewer.operatorId,
      operatorName: input.viewer.name,
      ip: input.ip,
      procedure: 'apiKey/revoke',
      input: { id: input.id },
      before: view(found.key, found.name),
      after,
    });
    return after;
  });
}

/**
 * The operator a key acts as, or a refusal: 401 for a key unknown, revoked, or whose operator is not active (a
 * disabled operator's keys stop at once: the status is read on every call); 429 after too many wrong keys from the
 * address. The role is the key's, capped at the operator's today; the channels are the key's among the operator's today.
 */
export async function resolveApiKey(db: Db, input: { key: string; now: Date; ip: string }): Promise<OperatorSession> {
  // Not shaped like a key (a buyer's token, say): refused without a lookup, so there is nothing to count.
  if (!API_KEY_SHAPE.test(input.key)) throw new AppError(401, msg('opsApiKeyRefused'));
  const limit: Limit = { bucket: `ops:wrong-api-key:${input.ip}`, ...WRONG_API_KEYS };
  const counted = await hit(db, limit, input.now);
  if (!counted.allowed) {
    if (counted.count === limit.max + 1) {
      console.error(
        `[alert] operator API: ${limit.max} wrong API keys from ${input.ip} within ${limit.windowMs / 60_000} minutes; ` +
          `its calls are refused until ${counted.resetAt.toISOString()}. If that is not an operator's automation, block the address.`,
      );
    }
    throw new AppError(429, msg('opsApiKeyLimited', { waitMs: Math.max(1000, counted.resetAt.getTime() - input.now.getTime()) }));
  }
  const [row] = await db
    .select({ key: operatorApiKeys, operator: operators })
    .from(operatorApiKeys)
    .innerJoin(operators, eq(operators.id, operatorApiKeys.operatorId))
    .where(and(eq(operatorApiKeys.secretHash, sha256(input.key)), isNull(operatorApiKeys.revokedAt)));
  if (!row || row.operator.status !== 'active') {
    console.warn(`[operator] wrong API key from ${input.ip} (${counted.count} of ${limit.max} within ${limit.windowMs / 60_000} minutes)`);
    throw new AppError(401, msg('opsApiKeyRefused'));
  }
  await counted.undo();
  if (!row.key.lastUsedAt || input.now.getTime() - row.key.lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
    await db.update(operatorApiKeys).set({ lastUsedAt: input.now }).where(eq(operatorApiKeys.id, row.key.id));
  }
  const role = lowerRole(row.key.role, row.operator.role);
  let keyChannels: string[] | null = null;
  if (!seesEveryChannel(role)) {
    const reachable = seesEveryChannel(row.operator.role) ? null : await grantedKeys(db, row.operator.id);
    keyChannels = row.key.channels.filter((k) => reachable === null || reachable.includes(k));
  }
  return {
    sessionId: 0,
    operatorId: row.operator.id,
    name: row.operator.name,
    role,
    apiKey: { id: row.key.id, channels: keyChannels },
  };
}

/**
 * `npm run ops:key -- <operator> [--role r] [--channels A,B]` (issue 31): a key for automation minted on the server,
 * without a browser, audited as the command. The role defaults to the operator's, the channels (for a manager or
 * support role) to every channel the operator works on. The operator must be active (enrolled, not disabled).
 */
export async function mintApiKey(
  db: Db,
  input: { operator: string; role?: OperatorRole; channels?: readonly string[]; label?: string; now: Date },
): Promise<{ key: string; apiKey: ApiKeyView }> {
  const name = input.operator.trim().toLowerCase();
  const [operator] = await db.select().from(operators).where(eq(operators.name, name));
  if (!operator) throw new Error(`there is no operator called ${name}`);
  if (operator.status !== 'active') throw new Error(`${name} is ${operator.status}: a key works only for an active operator`);
  const role = input.role ?? operator.role;
  const channelKeys =
    input.channels ??
    (seesEveryChannel(role)
      ? []
      : seesEveryChannel(operator.role)
        ? (await db.select({ key: channels.key }).from(channels)).map((c) => c.key)
        : await grantedKeys(db, operator.id));
  return createApiKey(db, {
    operatorId: operator.id,
    label: input.label ?? `ops:key ${input.now.toISOString().slice(0, 10)}`,
    role,
    channels: channelKeys,
    now: input.now,
    by: { operatorId: null, name: 'ops:key', ip: 'command line' },
  });
}
