import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb, type Db } from '../db/client';
import { channels } from '../db/schema';
import { AppError } from '../procedure/errors';
import { cachedRead, tags } from '../cache/store';
import type { ChannelThemeInfo } from './theme';
import { isValidChannelKey } from './key';

import type { ChannelRow } from '../db/schema';
import { msg } from '../procedure/messages';

export function toThemeInfo(row: ChannelRow): ChannelThemeInfo {
  return {
    key: row.key,
    name: row.name,
    brandName: row.brandName,
    host: row.host,
    isHaveTheme: row.isHaveTheme,
    marketText: row.marketText,
    buyText: row.buyText,
    exchangeText: row.exchangeText,
    privacyText: row.privacyText,
    salesStrategyText: row.salesStrategyText,
    status: row.status,
    labelList: row.labelList,
    skinJson: row.skinJson,
    locale: row.locale,
    timeZone: row.timeZone,
    appScheme: row.appScheme,
    appDownloadUrl: row.appDownloadUrl,
    attributes: row.attributes,
    showAmount: !row.attributes.hideAmount,
  };
}

export async function findChannelByKey(key: string, db: Db = getDb()): Promise<ChannelRow | null> {
  if (!isValidChannelKey(key)) return null;
  const [row] = await db.select().from(channels).where(eq(channels.key, key)).limit(1);
  return row ?? null;
}

/**
 * The channel's row by key, or null, from the process's cache (docs/caching.md): every page and API call asks for it,
 * so it costs one query per key and CACHE_TTL_MS; the operator's change drops it at once in every process (./operator.ts).
 */
export function readChannel(db: Db, key: string): Promise<ChannelRow | null> {
  return cachedRead(db, `channel:${key}`, [tags.channel(key), tags.channelColours(key)], () => findChannelByKey(key, db));
}

/** The channel or a 404 AppError, read through the cache. */
export async function requireChannel(key: string, db: Db = getDb()): Promise<ChannelRow> {
  const row = await readChannel(db, key);
  if (!row) throw new AppError(404, msg('channelNotFound', { key }));
  return row;
}
