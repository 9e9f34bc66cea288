import type { z } from 'zod';
import type { Db } from '../db/client';
import type { ChannelRow } from '../db/schema';
import type { ChannelScope, OperatorSession, SessionUser, UserScope, ViewerScope } from './scope';
import type { OperatorRule } from './roles';

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
  /**
   * The signed-in operator (issue 31; `operator` procedures): the `__Host-ops` session cookie on the operator host;
   * AppError 401 otherwise. The dispatcher has already checked the procedure's role before the handler runs.
   */
  operator: () => Promise<OperatorSession>;
  /** The channel an `operator` procedure with `channel: 'input'` names, checked to be one the operator works on. */
  operatorChannel: () => Promise<ChannelRow>;
};

/**
 * Who may call a procedure, declared at the entry (STYLE: dub's `withWorkspace`): the dispatcher authenticates a
 * `buyer` call before it reads the input (an anonymous caller learns nothing about the payload, only 401), the OpenAPI
 * document says so, and the authorization matrix test is generated from it.
 * - `buyer`: a logged-in buyer of the host's channel; 401 otherwise.
 * - `optional`: open to visitors; a logged-in buyer sees their own state too (an invalid token reads as a visitor).
 * - `none`: no session is read at all.
 * - `operator`: a signed-in operator of the console (issue 31), on the operator host only (404 on every other host),
 *   of one of `operator.roles` (403 otherwise) and, with `operator.channel: 'input'`, working on the input's channel
 *   (404 otherwise); 401 without a live session, before the input is read.
 * - `operatorGuest`: the console's enrolment and sign-in, on the operator host only; no session is read.
 */
export type ProcedureAuth = 'buyer' | 'optional' | 'none' | 'operator' | 'operatorGuest';

/**
 * One call of the market API. `input` validates the body; `output` describes the answer's `data` as it travels (JSON:
 * ids and times are strings, money is integer fen). Both feed the OpenAPI document, docs/api.md and the browser's typed
 * client (lib/client/api-client.ts), so a renamed field fails the type check instead of a buyer's tap.
 */
export type Procedure<Input extends z.ZodType, Output extends z.ZodType> = {
  /** What it does, for docs/api.md and the OpenAPI document. */
  summary: string;
  auth: ProcedureAuth;
  /** Who among operators may call it (required with `auth: 'operator'`; the authorization matrix reads it). */
  operator?: OperatorRule;
  input: Input;
  /** The answer's `data`; checked by the dispatcher outside production (a mismatch is a server fault). */
  output: Output;
  /**
   * Load shedding (the buy call): beyond BUY_MAX_IN_FLIGHT calls at once in this process, new ones get a fast
   * HTTP 503 with code 1001 instead of queueing, and the client shows the busy toast (spec §8).
   */
  shed?: boolean;
  handler: (ctx: ProcedureContext, input: z.output<Input>) => Promise<z.input<Output>>;
};

/** Any procedure, as the dispatcher and the OpenAPI document see them. */
export type AnyProcedure = Procedure<z.ZodType, z.ZodType>;

/** Declares a procedure; keeps its input and output types for the registry and the typed client. */
export function procedure<Input extends z.ZodType, Output extends z.ZodType>(p: Procedure<Input, Output>): Procedure<Input, Output> {
  return p;
}

/** The host's channel as a scope, for calls open to visitors. */
export async function channelScope(ctx: ProcedureContext): Promise<ChannelScope> {
  return { db: ctx.db, now: ctx.now, channelId: (await ctx.channel()).id };
}

/** The caller's scope; AppError 401 when nobody is logged in on this channel. */
export async function userScope(ctx: ProcedureContext): Promise<UserScope> {
  const [channel, user] = await Promise.all([ctx.channel(), ctx.user()]);
  return { db: ctx.db, now: ctx.now, channelId: channel.id, userId: user.id, ip: ctx.ip, channel };
}

/** The host's channel and the logged-in buyer's id, or null for a visitor (an invalid token reads as a visitor). */
export async function viewerScope(ctx: ProcedureContext): Promise<ViewerScope> {
  const [scope, userId] = await Promise.all([
    channelScope(ctx),
    ctx.token().then((token) =>
      token
        ? ctx.user().then(
            (u) => u.id,
            () => null,
          )
        : null,
    ),
  ]);
  return { ...scope, userId };
}
