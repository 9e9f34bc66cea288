import 'server-only';
import { cachedRead, tags } from '../cache/store';
import { findSale, listBlindBoxOdds, listSaleIds, listSales } from '../sale/service';
import type { BlindBoxOdds, SaleRecord } from '../sale/schema';
import type { Page, Paging } from '../procedure/paging';
import type { ChannelScope } from '../procedure/scope';
import { listExchangeActivities } from '../exchange/service';
import { listGiftCampaigns } from '../gift/service';
import { listChainCampaigns } from '../chain/chain-up';
import { findNotice, listNotices } from '../notice/service';
import { listUpcomingSales } from '../notice/calendar';
import type { CalendarSale, NoticeView } from '../notice/schema';

/**
 * The reads every visitor of a channel sees alike, cached across requests (docs/caching.md): each under the tags of
 * the writes that change it (lib/cache/store.ts `cachedRead`). The channel's row is read in lib/channel/service.ts.
 */
/** One sale of the channel, or null. */
export function readSale(scope: ChannelScope, saleId: string): Promise<SaleRecord | null> {
  const entryTags = [tags.sale(saleId), tags.stock(saleId), tags.sales(scope.channelId), tags.stocks(scope.channelId)];
  return cachedRead(scope.db, `sale:${scope.channelId}:${saleId}`, entryTags, () => findSale(scope, saleId));
}

/** The ids of the channel's sales: one entry per channel, so a flood of made-up goods links costs no entry each. */
export function readSaleIds(scope: ChannelScope): Promise<ReadonlySet<string>> {
  return cachedRead(scope.db, `sale-ids:${scope.channelId}`, [tags.sales(scope.channelId)], () => listSaleIds(scope));
}

/** A page of the channel's sales. */
export function readSales(scope: ChannelScope, paging: Paging): Promise<Page<SaleRecord>> {
  const key = `sales:${scope.channelId}:${paging.pageCount}:${paging.pageSize}`;
  return cachedRead(scope.db, key, [tags.sales(scope.channelId), tags.stocks(scope.channelId)], () => listSales(scope, paging));
}

/** A blind box's published odds (they change only with the catalogue: an operator's edit drops the channel's sales tag, issue 32). */
export function readBlindBoxOdds(scope: ChannelScope, commodityId: string): Promise<BlindBoxOdds> {
  return cachedRead(scope.db, `odds:${commodityId}`, [tags.sales(scope.channelId)], () => listBlindBoxOdds(scope, commodityId));
}

export function readExchangeActivities(scope: ChannelScope) {
  return cachedRead(scope.db, `exchange-activities:${scope.channelId}`, [tags.campaigns(scope.channelId)], () =>
    listExchangeActivities(scope),
  );
}

export function readGiftCampaigns(scope: ChannelScope) {
  return cachedRead(scope.db, `gift-campaigns:${scope.channelId}`, [tags.campaigns(scope.channelId)], () => listGiftCampaigns(scope));
}

export function readChainCampaigns(scope: ChannelScope) {
  return cachedRead(scope.db, `chain-campaigns:${scope.channelId}`, [tags.campaigns(scope.channelId)], () => listChainCampaigns(scope));
}

/**
 * A page of the channel's published notices (issue 32): under the notices tag, dropped by every console write, so a
 * notice published or withdrawn shows at once; one scheduled for later appears when the entry expires after its time.
 */
export function readNotices(scope: ChannelScope, paging: Paging): Promise<Page<NoticeView>> {
  const key = `notices:${scope.channelId}:${paging.pageCount}:${paging.pageSize}`;
  return cachedRead(scope.db, key, [tags.notices(scope.channelId)], () => listNotices(scope, paging));
}

/** One published notice of the channel, or null. */
export function readNotice(scope: ChannelScope, id: number): Promise<NoticeView | null> {
  return cachedRead(scope.db, `notice:${scope.channelId}:${id}`, [tags.notices(scope.channelId)], () => findNotice(scope, id));
}

/** The drop calendar's upcoming sales (issue 32): under the sales' look tags, as the home list. */
export function readUpcomingSales(scope: ChannelScope): Promise<CalendarSale[]> {
  return cachedRead(scope.db, `calendar:${scope.channelId}`, [tags.sales(scope.channelId)], () => listUpcomingSales(scope));
}
