import 'server-only';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { channels, operatorGrants, type ChannelRow } from '../db/schema';
import { parseLabels, type Label } from '../channel/labels';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import type { OperatorSession } from './accounts';
import { seesEveryChannel } from '../procedure/roles';
import { domainSettings, hostsOfChannels, type ChannelHost } from '../channel/domains';
import { viewsToday } from '../channel/page-views';

/** A channel as the console lists it (issue 31, "Channels"). */
export type ConsoleChannel = {
  key: string;
  name: string;
  brandName: string;
  status: number;
  labels: Label[];
  /** Every host, primary first: the names alone (the API's `hosts`). */
  hosts: string[];
  /** The same hosts with the status of each (`key` for the key host) and which is primary. */
  domains: ChannelHost[];
  /** Today's page views, today in the channel's time zone (lib/channel/page-views.ts); on the channel list. */
  viewsToday?: number;
};

/**
 * A channel with its hosts from its domains (issue 31, "Domains"; lib/channel/domains.ts hostsOfChannels): its primary
 * first, then its key host (spec §1, `channels.host`, which always works), then its other custom domains that are not
 * removed, each with its status. Without `hosts` (no read of the domains), the key host alone.
 */
function toConsoleChannel(row: ChannelRow, hosts?: ChannelHost[]): ConsoleChannel {
  const domains = hosts ?? [{ host: row.host, status: 'key' as const, primary: true, served: true }];
  return {
    key: row.key,
    name: row.name,
    brandName: row.brandName,
    status: row.status,
    labels: parseLabels(row.labelList),
    hosts: domains.map((d) => d.host),
    domains,
  };
}

async function withHosts(db: Db, rows: ChannelRow[]): Promise<ConsoleChannel[]> {
  const hosts = await hostsOfChannels(db, rows, domainSettings());
  return rows.map((row) => toConsoleChannel(row, hosts.get(row.id)));
}

/** One channel with its hosts from its domains. */
export async function consoleChannelOf(db: Db, row: ChannelRow): Promise<ConsoleChannel> {
  return (await withHosts(db, [row]))[0]!;
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
  // An API key's channels (issue 31), already narrowed to its operator's by lib/operator/api-keys.ts.
  const keyChannels = operator.apiKey?.channels;
  if (keyChannels) {
    if (keyChannels.length === 0) return [];
    rows = await db
      .select()
      .from(channels)
      .where(inArray(channels.key, [...keyChannels]))
      .orderBy(asc(channels.key));
  } else if (seesEveryChannel(operator.role)) rows = await db.select().from(channels).orderBy(asc(channels.key));
  else {
    const ids = await grantedChannelIds(db, operator.operatorId);
    if (ids.length === 0) return [];
    rows = await db.select().from(channels).where(inArray(channels.id, ids)).orderBy(asc(channels.key));
  }
  const [listed, views] = await Promise.all([withHosts(db, rows), viewsToday(db, rows, now)]);
  return listed.map((channel, i) => ({ ...channel, viewsToday: views.get(rows[i]!.id) ?? 0 }));
}

/**
 * The channel of `key` when the operator works on it; else 404 with the same words whether it exists or not (and
 * without echoing the key), so a manager of one store learns nothing about the others.
 */
export async function operatorChannel(db: Db, operator: OperatorSession, key: string): Promise<ChannelRow> {
  const [row] = await db.select().from(channels).where(eq(channels.key, key));
  const keyChannels = operator.apiKey?.channels;
  if (keyChannels) {
    if (row && keyChannels.includes(row.key)) return row;
    throw new AppError(404, msg('opsChannelNotGranted'));
  }
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
