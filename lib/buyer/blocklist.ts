import 'server-only';
import type { Db } from '../db/client';
import { blockBuyer, liveBlockOf, unblockBuyer } from '../auth/blocks';
import { buyerOfAccountNumber } from '../auth/account-numbers';
import { AppError } from '../procedure/errors';
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
  const userId = await buyerOfAccountNumber(db, channelId, accountNumber);
  if (userId === null) throw new AppError(404, msg('opsBuyerNotFound'));
  return userId;
}

export async function blockOnChannel(
  db: Db,
  input: { channelId: number; accountNumber: string; everyChannel: boolean; reason: string; operatorId: number; now: Date },
  audit: BlockAudit,
): Promise<BlockState & { sessionsEnded: number }> {
  const userId = await buyerOn(db, input.channelId, input.accountNumber);
  return db.transaction(async (tx) => {
    const before = await stateOf(tx, input.channelId, userId);
    const made = await blockBuyer(tx, {
      userId,
      channelId: input.everyChannel ? null : input.channelId,
      reason: input.reason,
      operatorId: input.operatorId,
      now: input.now,
    });
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
