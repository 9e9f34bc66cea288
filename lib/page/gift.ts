import 'server-only';
import type { Metadata } from 'next';
import { loadPageChannel, pageChannel, pageScope, type PageParams } from './channel';
import { getGift } from '../gift/service';
import { readGiftCampaigns } from './cached-reads';
import { pageOffer, type OfferPageParams } from './found';
import { pageLoader } from './loader';
import { channelPreview } from './metadata';

export type ReceiveDetailParams = OfferPageParams;

const giftCampaigns = pageLoader((channelId: number) => readGiftCampaigns(pageScope({ id: channelId })));

/** The receive list pages' data (spec §2 receive, receive2): the page's channel and its gift campaigns. */
export async function loadGiftCampaignsForPage(params: Promise<PageParams>) {
  const channel = await loadPageChannel(params);
  return { channel, campaigns: await giftCampaigns(channel.id) };
}

export type GiftCampaignsForPage = Awaited<ReturnType<typeof loadGiftCampaignsForPage>>;

const giftForPage = pageLoader(async (channelKey: string, locale: string, id: string, offerId: string) => {
  const channel = await pageChannel(channelKey, locale);
  const path = { id, offerId };
  return { channel, gift: await pageOffer(channel, path, getGift), path };
});

/**
 * One gift of the page's channel, with what the logged-in buyer may receive; anything else (bad ids, another
 * channel's gift) goes to /404 (spec §2). The metadata and the page of one request share it (lib/page/loader.ts).
 */
export async function loadGiftForPage(params: Promise<ReceiveDetailParams>) {
  const { channel, locale, id, exchange_id: offerId } = await params;
  return giftForPage(channel, locale, id, offerId);
}

export type GiftForPage = Awaited<ReturnType<typeof loadGiftForPage>>;

/**
 * The metadata of a gift's page (/receive_detail and /receive_detail_new, spec §2): the gift's name and the page's
 * title, and its description for a link shared in a chat app. Shares the page's read of the gift.
 */
export async function giftPageMetadata({ params }: { params: Promise<ReceiveDetailParams> }): Promise<Metadata> {
  const { channel, gift } = await loadGiftForPage(params);
  const description = gift.campaign.description || gift.campaign.name;
  return {
    title: `${gift.offer.commodity.name} · ${channel.t('gift.detailTitle')}`,
    description,
    ...channelPreview(channel, { title: gift.offer.commodity.name, description }),
  };
}
