import 'server-only';
import { redirect } from 'next/navigation';
import { loadPageChannel, pageScope, type PageParams } from './channel';
import { pageViewerScope } from './session';
import { AppError } from '../procedure/errors';
import { getGift } from '../gift/service';
import { readGiftCampaigns } from './cached-reads';
import { routeId } from './route-id';

export type ReceiveDetailParams = PageParams & { id: string; exchange_id: string };

/** The receive list pages' data (spec §2 receive, receive2): the page's channel and its gift campaigns. */
export async function loadGiftCampaignsForPage(params: Promise<PageParams>) {
  const channel = await loadPageChannel(params);
  const campaigns = await readGiftCampaigns(pageScope(channel));
  return { channel, campaigns };
}

export type GiftCampaignsForPage = Awaited<ReturnType<typeof loadGiftCampaignsForPage>>;

/** Loads one gift of the page's channel; anything else (bad ids, another channel's gift) goes to /404 (spec §2). */
export async function loadGiftForPage(params: Promise<ReceiveDetailParams>) {
  const { id, exchange_id: offerId } = await params;
  const channel = await loadPageChannel(params);
  const campaignId = routeId(id);
  const offer = routeId(offerId);
  if (campaignId === null || offer === null) redirect('/404');
  const scope = await pageViewerScope(channel);
  try {
    const gift = await getGift(scope, campaignId, offer);
    return { channel, gift, path: { id, offerId } };
  } catch (error) {
    if (error instanceof AppError && error.code === 404) redirect('/404');
    throw error;
  }
}

export type GiftForPage = Awaited<ReturnType<typeof loadGiftForPage>>;
