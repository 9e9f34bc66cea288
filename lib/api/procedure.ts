import type { z } from 'zod';
import type { Db } from '../db/client';
import type { ChannelRow } from '../channel/service';

/** What every procedure gets: the database and the channel of the request's host. */
export type ProcedureContext = {
  db: Db;
  /** Channel key from the Host header (DESIGN §6), or DEFAULT_CHANNEL for a bare host. */
  channelKey: string;
  /** Loads the host's channel; throws AppError 404 when the host matches no channel. */
  channel: () => Promise<ChannelRow>;
  now: Date;
};

export type Procedure<Schema extends z.ZodType> = {
  /** What it does, for docs/api.md and the OpenAPI document. */
  summary: string;
  input: Schema;
  handler: (ctx: ProcedureContext, input: z.infer<Schema>) => Promise<unknown>;
};

/** Helper that keeps the input type of each procedure. */
export function procedure<Schema extends z.ZodType>(p: Procedure<Schema>): Procedure<Schema> {
  return p;
}
