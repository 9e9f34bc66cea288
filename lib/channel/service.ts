import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb, type Db } from '../db/client';
import { channels } from '../db/schema';
import { AppError } from '../procedure/errors';
import type { ChannelThemeInfo } from './theme';
import { isValidChannelKey } from './key';

import type { ChannelRow } from '../db/schema';

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

/** The channel or a 404 AppError. */
export async function requireChannel(key: string, db: Db = getDb()): Promise<ChannelRow> {
  const row = await findChannelByKey(key, db);
  if (!row) throw new AppError(404, `channel ${key || '(empty)'} not found`);
  return row;
}
