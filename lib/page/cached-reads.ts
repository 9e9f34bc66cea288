import 'server-only';
import { findChannelByKey } from '../channel/service';
import type { ChannelRow } from '../db/schema';
import type { Db } from '../db/client';
import { cachesOf, CACHE_TTL_MS, tags } from '../cache/store';
import { findSale, listBlindBoxOdds, listSales, type BlindBoxOdds, type SaleRecord } from '../sale/service';
import type { Page, Paging } from '../procedure/paging';
import type { ChannelScope } from '../procedure/scope';
import { listExchangeActivities } from '../exchange/service';
import { listGiftCampaigns } from '../gift/service';
import { listChainCampaigns } from '../chain/chain-up';

/**
 * The reads every visitor of a channel sees alike, cached across requests (docs/caching.md): each under the tags of
 * the writes that change it, fresh for CACHE_TTL_MS. Values are shared between requests: read them, never change them.
 * A miss (null, unknown) is cached too, as `{ value: null }`, so a flood of bad ids costs one query per key and second.
 */
async function cached<V>(db: Db, key: string, entryTags: readonly string[], load: () => Promise<V>): Promise<V> {
  const box = (await cachesOf(db).data.read(key, { tags: entryTags, ttlMs: CACHE_TTL_MS }, async () => ({ value: await load() }))) as {
    value: V;
  };
  return box.value;
}

/** The channel's row by key, or null. */
export function readChannel(db: Db, key: string): Promise<ChannelRow | null> {
  return cached(db, `channel:${key}`, [tags.channel(key)], () => findChannelByKey(key, db));
}

/** One sale of the channel, or null. */
export function readSale(scope: ChannelScope, saleId: string): Promise<SaleRecord | null> {
  const entryTags = [tags.sale(saleId), tags.stock(saleId), tags.sales(scope.channelId), tags.stocks(scope.channelId)];
  return cached(scope.db, `sale:${scope.channelId}:${saleId}`, entryTags, () => findSale(scope, saleId));
}

/** A page of the channel's sales. */
export function readSales(scope: ChannelScope, paging: Paging): Promise<Page<SaleRecord>> {
  const key = `sales:${scope.channelId}:${paging.pageCount}:${paging.pageSize}`;
  return cached(scope.db, key, [tags.sales(scope.channelId), tags.stocks(scope.channelId)], () => listSales(scope, paging));
}

/** A blind box's published odds (they change only with the catalogue: the seed drops every entry). */
export function readBlindBoxOdds(scope: ChannelScope, commodityId: string): Promise<BlindBoxOdds> {
  return cached(scope.db, `odds:${commodityId}`, [], () => listBlindBoxOdds(scope, commodityId));
}

export function readExchangeActivities(scope: ChannelScope) {
  return cached(scope.db, `exchange-activities:${scope.channelId}`, [tags.campaigns(scope.channelId)], () => listExchangeActivities(scope));
}

export function readGiftCampaigns(scope: ChannelScope) {
  return cached(scope.db, `gift-campaigns:${scope.channelId}`, [tags.campaigns(scope.channelId)], () => listGiftCampaigns(scope));
}

export function readChainCampaigns(scope: ChannelScope) {
  return cached(scope.db, `chain-campaigns:${scope.channelId}`, [tags.campaigns(scope.channelId)], () => listChainCampaigns(scope));
}
