import type { z } from 'zod';
import type { Db } from '../db/client';
import type { ChannelRow } from '../channel/service';
import type { SessionUser } from '../auth/sessions';

/** What every procedure gets: the database and the channel of the request's host. */
export type ProcedureContext = {
  db: Db;
  /** Channel key from the Host header (DESIGN §6), or DEFAULT_CHANNEL for a bare host. */
  channelKey: string;
  /** Loads the host's channel; throws AppError 404 when the host matches no channel. */
  channel: () => Promise<ChannelRow>;
  now: Date;
  /** The request's headers (lower-case names). */
  headers: Headers;
  /** The client's address, for rate limits. */
  ip: string;
  /** Adds a response header (auth/authCodeLoginV2 returns the token in `authorization`, spec §4). */
  setHeader: (name: string, value: string) => void;
  /** The request's API token: the Authorization header, else the one inside the web session cookie; null if none. */
  token: () => Promise<string | null>;
  /**
   * The logged-in user of this channel (spec §6); throws AppError 401 when the token is missing, unknown, expired,
   * revoked or another channel's. Services still check that every object they touch is this user's.
   */
  user: () => Promise<SessionUser>;
};

/**
 * Who may call a procedure, declared at the entry (STYLE: dub's `withWorkspace`): the dispatcher authenticates a
 * `buyer` call before it reads the input (an anonymous caller learns nothing about the payload, only 401), the OpenAPI
 * document says so, and the authorization matrix test is generated from it.
 * - `buyer`: a logged-in buyer of the host's channel; 401 otherwise.
 * - `optional`: open to visitors; a logged-in buyer sees their own state too (an invalid token reads as a visitor).
 * - `none`: no session is read at all.
 */
export type ProcedureAuth = 'buyer' | 'optional' | 'none';

export type Procedure<Schema extends z.ZodType> = {
  /** What it does, for docs/api.md and the OpenAPI document. */
  summary: string;
  auth: ProcedureAuth;
  input: Schema;
  /**
   * Load shedding (the buy call): beyond BUY_MAX_IN_FLIGHT calls at once in this process, new ones get a fast
   * HTTP 503 with code 1001 instead of queueing, and the client shows the busy toast (spec §8).
   */
  shed?: boolean;
  handler: (ctx: ProcedureContext, input: z.infer<Schema>) => Promise<unknown>;
};

/** Helper that keeps the input type of each procedure. */
export function procedure<Schema extends z.ZodType>(p: Procedure<Schema>): Procedure<Schema> {
  return p;
}

/** What a logged-in buyer's call works in: the database, the time, the host's channel, the user and their address. */
export type UserScope = { db: Db; now: Date; channelId: number; userId: number; ip: string };

/** The caller's scope; AppError 401 when nobody is logged in on this channel. */
export async function userScope(ctx: ProcedureContext): Promise<UserScope> {
  const [channel, user] = await Promise.all([ctx.channel(), ctx.user()]);
  return { db: ctx.db, now: ctx.now, channelId: channel.id, userId: user.id, ip: ctx.ip };
}

/** The logged-in user's id, or null for a visitor (for pages open to both; an invalid token reads as a visitor). */
export async function optionalUserId(ctx: ProcedureContext): Promise<number | null> {
  if (!(await ctx.token())) return null;
  return ctx.user().then(
    (u) => u.id,
    () => null,
  );
}
