import 'server-only';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { channels, operatorGrants, type ChannelRow } from '../db/schema';
import { parseLabels, type Label } from '../channel/labels';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import type { OperatorSession } from './accounts';
import { seesEveryChannel } from '../procedure/roles';
import { viewsToday } from '../channel/page-views';

/** A channel as the console lists it (issue 31, "Channels"). */
export type ConsoleChannel = {
  key: string;
  name: string;
  brandName: string;
  status: number;
  labels: Label[];
  hosts: string[];
  /** Today's page views, today in the channel's time zone (lib/channel/page-views.ts); on the channel list. */
  viewsToday?: number;
};

/**
 * The hosts a channel is served on as today's routing derives them: its one host (docs/deploy.md §8; every other
 * spelling is redirected there by lib/channel/canonical-host.ts). The domains table will add its custom domains.
 */
function toConsoleChannel(row: ChannelRow): ConsoleChannel {
  return {
    key: row.key,
    name: row.name,
    brandName: row.brandName,
    status: row.status,
    labels: parseLabels(row.labelList),
    hosts: [row.host],
  };
}

async function grantedChannelIds(db: Db, operatorId: number): Promise<number[]> {
  const rows = await db
    .select({ channelId: operatorGrants.channelId })
    .from(operatorGrants)
    .where(eq(operatorGrants.operatorId, operatorId));
  return rows.map((r) => r.channelId);
}

/** Every channel an operator works on: all of them for an owner, the granted ones for a manager or support. */
export async function listConsoleChannels(db: Db, operator: OperatorSession, now = new Date()): Promise<ConsoleChannel[]> {
  let rows: ChannelRow[];
  if (seesEveryChannel(operator.role)) rows = await db.select().from(channels).orderBy(asc(channels.key));
  else {
    const ids = await grantedChannelIds(db, operator.operatorId);
    if (ids.length === 0) return [];
    rows = await db.select().from(channels).where(inArray(channels.id, ids)).orderBy(asc(channels.key));
  }
  const views = await viewsToday(db, rows, now);
  return rows.map((row) => ({ ...toConsoleChannel(row), viewsToday: views.get(row.id) ?? 0 }));
}

/**
 * The channel of `key` when the operator works on it; else 404 with the same words whether it exists or not (and
 * without echoing the key), so a manager of one store learns nothing about the others.
 */
export async function operatorChannel(db: Db, operator: OperatorSession, key: string): Promise<ChannelRow> {
  const [row] = await db.select().from(channels).where(eq(channels.key, key));
  if (row && seesEveryChannel(operator.role)) return row;
  if (row) {
    const [grant] = await db
      .select()
      .from(operatorGrants)
      .where(and(eq(operatorGrants.operatorId, operator.operatorId), eq(operatorGrants.channelId, row.id)));
    if (grant) return row;
  }
  throw new AppError(404, msg('opsChannelNotGranted'));
}

export { toConsoleChannel };
