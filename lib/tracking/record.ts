import type { RunEnvironment } from '../user-agent/environment';
import { describeDevice } from '../user-agent/device';
import { matchRoute } from '../channel/routes';
import { PROJECT_ID } from './constants';
import type { TrackingRecord } from './schema';

export type PageVisit = { pageId: string; url: string; uuid: string; enteredAt: number };

export type TrackingContext = {
  userAgent: string;
  deviceId: string;
  sessionId: string;
  projectVersion: string;
  channelKey: string;
  environment: RunEnvironment;
  networkType: string;
};

/** The spec's route name of a path (page_id), e.g. '/goods/detail/3' → 'goodsDetail'. */
export function pageIdOf(pathname: string): string {
  return matchRoute(pathname)?.route.name ?? 'unknown';
}

/** The sale a page is about (commodity_id), when it is about one. */
function commodityOf(pathname: string): string {
  const match = matchRoute(pathname);
  return match?.params.saleId ?? '';
}

/**
 * A page-view record (spec §3 fields), built only from what the browser honestly knows. No phone number, token
 * or user profile goes in: user_uuid is the anonymous device id.
 */
export function pageViewRecord(
  ctx: TrackingContext,
  page: PageVisit,
  previous: PageVisit | null,
  eventType: 'page_view' | 'page_leave',
  now: number,
  externalReferrer = '',
): TrackingRecord {
  const device = describeDevice(ctx.userAgent);
  const leaving = eventType === 'page_leave' ? page : previous;
  const path = new URL(page.url, 'http://x').pathname;
  return {
    os: device.os,
    os_vers: device.osVersion,
    dev_id: ctx.deviceId,
    model: device.model,
    manufacturer: device.manufacturer,
    proj_id: PROJECT_ID,
    proj_ver: ctx.projectVersion,
    session_id: ctx.sessionId,
    up_time: now,
    event_type: eventType,
    user_uuid: ctx.deviceId,
    province: '',
    netwk_type: ctx.networkType,
    scene_id: ctx.channelKey,
    page_id: page.pageId,
    page_url: page.url,
    refer_id: previous?.pageId ?? '',
    refer_url: previous?.url ?? externalReferrer,
    refer_uuid: previous?.uuid ?? '',
    // spec §4: dwell time in seconds of the page being left.
    duration: leaving ? Math.max(0, Math.round((now - leaving.enteredAt) / 1000)) : null,
    commodity_id: commodityOf(path),
    page_num: null,
    page_size: null,
    biz_info: '',
    source: ctx.environment,
  };
}
