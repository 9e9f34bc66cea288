import 'server-only';
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { buyerBlocks, buyerIdentities, operators, users } from '../db/schema';
import { addValueBlock, blockBuyer, liveBlockOf, unblockBuyer, type BlockKind } from '../auth/blocks';
import { maskPhone } from '../auth/mask';
import { normalizePhone, phoneProblem } from '../auth/phone';
import { identityOf } from '../identity/records';
import { parseAddress } from '../security/address';
import { buyerOfAccountNumber } from '../auth/account-numbers';
import { AppError } from '../procedure/errors';
import { writeInvalidating } from '../cache/store';
import { sessionTags } from '../auth/sessions';
import { msg } from '../procedure/messages';

/**
 * Blocking a buyer from the console (issue 32, "Orders and buyers"): by their account number on the channel, with a
 * reason, in one transaction with its audit entry (the block state before and after). The rules of who may block
 * across channels are the procedure's; what a block does is lib/auth/blocks.ts's.
 */
export type BlockAudit = (tx: Db, change: { channelId: number | null; before: unknown; after: unknown }) => Promise<void>;

export type BlockState = { blocked: boolean; everyChannel: boolean; reason: string | null; at: string | null };

async function stateOf(db: Db, channelId: number, userId: number): Promise<BlockState> {
  const block = await liveBlockOf(db, channelId, userId);
  return block
    ? { blocked: true, everyChannel: block.channelId === null, reason: block.reason, at: block.blockedAt.toISOString() }
    : { blocked: false, everyChannel: false, reason: null, at: null };
}

async function buyerOn(db: Db, channelId: number, accountNumber: string): Promise<number> {
  const userId = await buyerOfAccountNumber(db, channelId, accountNumber, { includeClosed: true });
  if (userId === null) throw new AppError(404, msg('opsBuyerNotFound'));
  return userId;
}

export async function blockOnChannel(
  db: Db,
  input: { channelId: number; accountNumber: string; everyChannel: boolean; reason: string; operatorId: number; now: Date },
  audit: BlockAudit,
): Promise<BlockState & { sessionsEnded: number }> {
  const userId = await buyerOn(db, input.channelId, input.accountNumber);
  // The sessions the block ends are forgotten with its commit, here and on every process (issue 34).
  return writeInvalidating(db, async (tx, changed) => {
    const before = await stateOf(tx, input.channelId, userId);
    const made = await blockBuyer(tx, {
      userId,
      channelId: input.everyChannel ? null : input.channelId,
      reason: input.reason,
      operatorId: input.operatorId,
      now: input.now,
    });
    changed(sessionTags(made.endedTokenHashes));
    const after = await stateOf(tx, input.channelId, userId);
    await audit(tx, {
      channelId: input.channelId,
      before,
      after: { ...after, accountNumber: input.accountNumber, sessionsEnded: made.sessionsEnded },
    });
    return { ...after, sessionsEnded: made.sessionsEnded };
  });
}

export async function unblockOnChannel(
  db: Db,
  input: { channelId: number; accountNumber: string; everyChannel: boolean; reason: string; operatorId: number; now: Date },
  audit: BlockAudit,
): Promise<BlockState> {
  const userId = await buyerOn(db, input.channelId, input.accountNumber);
  return db.transaction(async (tx) => {
    const before = await stateOf(tx, input.channelId, userId);
    const lifted = await unblockBuyer(tx, { userId, ...input });
    if (lifted.length === 0) {
      // Still blocked, by a block on every channel that this call may not lift (owners only, with `everyChannel`).
      if (before.blocked) throw new AppError(403, msg('opsBlockEveryChannelOwnersOnly'));
      throw new AppError(409, msg('opsBuyerNotBlocked'));
    }
    const after = await stateOf(tx, input.channelId, userId);
    await audit(tx, { channelId: input.channelId, before, after: { ...after, accountNumber: input.accountNumber, lifted } });
    return after;
  });
}

/**
 * The one blocklist of a channel (issue 33, "Blocklists managed by operators"): beside a buyer's own block (above),
 * an identity (every account verified with it, matched by its keyed hash, chosen from a verified buyer's page), a
 * phone number typed by the operator (as users.phone keeps it) and an address range (CIDR). What a block does is
 * lib/auth/blocks.ts's (one query at login, code and order); who may add one across channels is the procedure's.
 */
export type ValueKind = Exclude<BlockKind, 'buyer'>;

/** Why typed text is not an address range the blocklist takes. */
export type RangeProblem = 'invalid' | 'tooWide';

/**
 * The widest ranges taken (issue 33): an IPv4 /16 is 65 536 addresses, already a town's share of a carrier's NAT; an
 * IPv6 /32 is one provider's whole allocation (RFC 6177). A wider range would lock out buyers who never misbehaved.
 */
export const WIDEST_PREFIX = { 4: 16, 6: 32 } as const;

/**
 * An address range as the blocklist keeps it: the network's canonical spelling with its prefix, host bits cleared
 * ('203.0.113.7/24' is '203.0.113.0/24', '2001:DB8:0::/48' is '2001:db8::/48'); a lone address is its own /32 or
 * /128. An IPv4 address written as IPv6 (::ffff:a.b.c.d) with a prefix is refused: write it as IPv4.
 */
export function parseRange(raw: string): { range: string } | { problem: RangeProblem } {
  const text = raw.trim();
  const [host, prefixText, ...rest] = text.split('/');
  if (!host || rest.length > 0 || /[[\]%]/.test(host) || (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText))) {
    return { problem: 'invalid' };
  }
  const address = parseAddress(host);
  if (!address || (address.family === 4 && host.includes(':') && prefixText !== undefined)) return { problem: 'invalid' };
  const bits = address.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return { problem: 'invalid' };
  if (prefix < WIDEST_PREFIX[address.family]) return { problem: 'tooWide' };
  const bytes = address.bytes.map((byte, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
  const network =
    address.family === 4
      ? bytes.join('.')
      : parseAddress(Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16)).join(':'))!.address;
  return { range: `${network}/${prefix}` };
}

/** One live block as the console lists it: what it stops in masked words (never an identity's hash), why, by whom, when. */
export type BlocklistEntry = {
  id: number;
  kind: BlockKind;
  /** Masked: 138****1234, 张* 1101**********1234, or the range itself. */
  what: string;
  everyChannel: boolean;
  reason: string;
  by: string | null;
  at: Date;
};

const maskedIdentity = (name: string | null, idNumber: string | null) => (name && idNumber ? `${name} ${idNumber}` : '—');

/** The channel's live blocks of every kind (its own and the every-channel ones), newest first. */
export async function blocklistOf(db: Db, channelId: number): Promise<BlocklistEntry[]> {
  const rows = await db
    .select({
      id: buyerBlocks.id,
      kind: buyerBlocks.kind,
      value: buyerBlocks.value,
      channelId: buyerBlocks.channelId,
      reason: buyerBlocks.reason,
      at: buyerBlocks.blockedAt,
      by: operators.name,
      phone: users.phone,
      // One identity may have rows on a closed account and on its open one (issue 36): the same masked forms, named once.
      maskedName: sql<string | null>`(select ${buyerIdentities.maskedName} from ${buyerIdentities}
        where ${buyerBlocks.kind} = 'identity' and ${buyerIdentities.idHash} = ${buyerBlocks.value} limit 1)`,
      maskedIdNumber: sql<string | null>`(select ${buyerIdentities.maskedIdNumber} from ${buyerIdentities}
        where ${buyerBlocks.kind} = 'identity' and ${buyerIdentities.idHash} = ${buyerBlocks.value} limit 1)`,
    })
    .from(buyerBlocks)
    .leftJoin(operators, eq(operators.id, buyerBlocks.blockedBy))
    .leftJoin(users, eq(users.id, buyerBlocks.userId))
    .where(and(isNull(buyerBlocks.liftedAt), or(eq(buyerBlocks.channelId, channelId), isNull(buyerBlocks.channelId))))
    .orderBy(desc(buyerBlocks.blockedAt), desc(buyerBlocks.id))
    .limit(500);
  return rows.map((r) => {
    const kind = r.kind as BlockKind;
    const what =
      kind === 'cidr'
        ? r.value!
        : kind === 'phone'
          ? maskPhone(r.value!)
          : kind === 'identity'
            ? maskedIdentity(r.maskedName, r.maskedIdNumber)
            : r.phone
              ? maskPhone(r.phone)
              : '—';
    return { id: r.id, kind, what, everyChannel: r.channelId === null, reason: r.reason, by: r.by, at: r.at };
  });
}

/** The entry as the audit keeps it: the masked words, never the identity's hash. */
const auditForm = (entry: BlocklistEntry) => ({
  id: entry.id,
  kind: entry.kind,
  what: entry.what,
  everyChannel: entry.everyChannel,
  reason: entry.reason,
});

async function entryOf(db: Db, channelId: number, id: number): Promise<BlocklistEntry | null> {
  return (await blocklistOf(db, channelId)).find((e) => e.id === id) ?? null;
}

/** The value a block of `kind` keeps, from what the operator typed or chose; 400 naming `value`/`accountNumber`. */
async function valueOf(
  db: Db,
  input: { channelId: number; kind: ValueKind; value?: string; accountNumber?: string },
): Promise<{ value: string; userId: number | null }> {
  if (input.kind === 'identity') {
    if (!input.accountNumber) throw new AppError(400, 'accountNumber: is required to block an identity');
    const userId = await buyerOn(db, input.channelId, input.accountNumber);
    const identity = await identityOf(db, userId);
    if (!identity) throw new AppError(409, msg('opsBlocklistNotVerified'));
    return { value: identity.idHash, userId };
  }
  const typed = input.value ?? '';
  if (input.kind === 'phone') {
    const phone = normalizePhone(typed.trim());
    if (phoneProblem(phone) !== null) throw new AppError(400, msg('opsBlocklistPhoneInvalid'));
    return { value: phone, userId: null };
  }
  const parsed = parseRange(typed);
  if ('problem' in parsed) {
    throw new AppError(400, msg(parsed.problem === 'tooWide' ? 'opsBlocklistRangeTooWide' : 'opsBlocklistRangeInvalid'));
  }
  return { value: parsed.range, userId: null };
}

/**
 * Adds an identity, phone or range block on the channel (or every channel), with its audit entry in the same
 * transaction. 409 when the same thing is already blocked live on the same scope.
 */
export async function addToBlocklist(
  db: Db,
  input: {
    channelId: number;
    kind: ValueKind;
    value?: string;
    accountNumber?: string;
    everyChannel: boolean;
    reason: string;
    operatorId: number;
    now: Date;
  },
  audit: BlockAudit,
): Promise<BlocklistEntry & { sessionsEnded: number }> {
  const { value, userId } = await valueOf(db, input);
  const scope = input.everyChannel ? null : input.channelId;
  // The sessions an identity's or a phone's block ends are forgotten with its commit, on every process (issue 34).
  return writeInvalidating(db, async (tx, changed) => {
    const [already] = await tx
      .select({ id: buyerBlocks.id })
      .from(buyerBlocks)
      .where(
        and(
          eq(buyerBlocks.kind, input.kind),
          eq(buyerBlocks.value, value),
          isNull(buyerBlocks.liftedAt),
          scope === null ? isNull(buyerBlocks.channelId) : eq(buyerBlocks.channelId, scope),
        ),
      )
      .limit(1);
    if (already) throw new AppError(409, msg('opsBlocklistAlreadyBlocked'));
    const made = await addValueBlock(tx, {
      kind: input.kind,
      value,
      userId,
      channelId: scope,
      reason: input.reason,
      operatorId: input.operatorId,
      now: input.now,
    });
    changed(sessionTags(made.endedTokenHashes));
    const entry = (await entryOf(tx, input.channelId, made.id))!;
    await audit(tx, { channelId: input.channelId, before: null, after: { ...auditForm(entry), sessionsEnded: made.sessionsEnded } });
    return { ...entry, sessionsEnded: made.sessionsEnded };
  });
}

/**
 * Lifts one live block of the channel's list by its id, with a reason and its audit entry. An every-channel block only
 * when `mayLiftEveryChannel` (owners: 403 otherwise); 404 when the channel has no such live block.
 */
export async function liftFromBlocklist(
  db: Db,
  input: { channelId: number; id: number; reason: string; operatorId: number; mayLiftEveryChannel: boolean; now: Date },
  audit: BlockAudit,
): Promise<BlocklistEntry> {
  return db.transaction(async (tx) => {
    const entry = await entryOf(tx, input.channelId, input.id);
    if (!entry) throw new AppError(404, msg('opsBlocklistNotFound'));
    if (entry.everyChannel && !input.mayLiftEveryChannel) throw new AppError(403, msg('opsBlockEveryChannelOwnersOnly'));
    await tx
      .update(buyerBlocks)
      .set({ liftedAt: input.now, liftedBy: input.operatorId, liftReason: input.reason })
      .where(and(eq(buyerBlocks.id, input.id), isNull(buyerBlocks.liftedAt)));
    await audit(tx, { channelId: input.channelId, before: auditForm(entry), after: { lifted: true, liftReason: input.reason } });
    return entry;
  });
}

/**
 * The buyer's verified identity as the buyer's page offers it for a block (issue 33): masked, and whether a live
 * block of it applies on the channel already; null when they have not verified. The hash stays on the server.
 */
export async function identityForBlock(
  db: Db,
  channelId: number,
  userId: number,
): Promise<{ maskedName: string; maskedIdNumber: string; blocked: boolean } | null> {
  const identity = await identityOf(db, userId);
  if (!identity) return null;
  const [live] = await db
    .select({ id: buyerBlocks.id })
    .from(buyerBlocks)
    .where(
      and(
        eq(buyerBlocks.kind, 'identity'),
        eq(buyerBlocks.value, identity.idHash),
        isNull(buyerBlocks.liftedAt),
        or(eq(buyerBlocks.channelId, channelId), isNull(buyerBlocks.channelId)),
      ),
    )
    .limit(1);
  return { maskedName: identity.maskedName, maskedIdNumber: identity.maskedIdNumber, blocked: live !== undefined };
}
