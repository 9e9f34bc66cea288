import type { Db } from '../db/client';
import type { ChannelRow } from '../db/schema';

/**
 * The scope vocabulary of every service and procedure (one name per idea, STYLE): what a call works in.
 * Services take a scope as their first argument and re-check the channel (and the user) on every object they touch.
 */

/** A read or write of one channel's data: the database, the time of the call, and the host's channel. */
export type ChannelScope = { db: Db; now: Date; channelId: number };

/** A logged-in buyer on their channel. `ip` is the client's address on API calls (wrong redeem codes are counted by it); pages, which never read headers (DESIGN §3), have none. */
export type UserScope = ChannelScope & {
  userId: number;
  ip?: string;
  /**
   * The channel's row when the caller has it already (API calls: the dispatcher's cached read), so the real-name and
   * age rules (issue 33, lib/identity/gate.ts) cost no query; absent, the gate reads it.
   */
  channel?: ChannelRow;
};

/** The logged-in buyer behind a call or a page (spec §6). */
export type SessionUser = { id: number; uuid: string; phone: string; nickname: string | null; avatar: string | null; createdAt: Date };

/** A page or call open to visitors: the buyer's id when someone is logged in, null for a visitor. */
export type ViewerScope = ChannelScope & { userId: number | null };

/** A signed-in operator of the console (issue 31), as every operator procedure sees them. */
export type OperatorSession = {
  /** The console session's id; 0 for a call made with an API key (there is no session to end). */
  sessionId: number;
  operatorId: number;
  name: string;
  /** The role the call acts with: the operator's, or an API key's (never higher than its operator's). */
  role: 'owner' | 'manager' | 'support';
  /**
   * A call made with an API key (issue 31): its id, and the channel keys it is limited to (null: every channel the
   * role reaches). Absent for a console session.
   */
  apiKey?: { id: number; channels: readonly string[] | null };
};
