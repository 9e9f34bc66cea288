import 'server-only';
import { pageChannel, pageScope } from './channel';
import { findInputSources, getExchangeOffer, type InputSource } from '../exchange/service';
import { channelFeatures, type ChannelFeatures } from '../channel/labels';
import type { InputSourceLink } from '../exchange/schema';
import { pageOffer, type OfferPageParams } from './found';
import { pageLoader } from './loader';

export type ExchangeDetailParams = OfferPageParams;

/** The page of the channel that gives a collectible: the gift's detail on the channel's receive route, or the goods page. */
function sourceHref(source: InputSource, receive: ChannelFeatures['receive']): string {
  if (source.kind === 'sale') return `/goods/detail/${source.saleId}`;
  // Each receive list has its own detail route (spec §2 receive → receiveDetail, receive2 → receiveDetailNew).
  const detail = receive === '/receive' ? '/receive_detail' : '/receive_detail_new';
  return `${detail}/${source.campaignId}/${source.offerId}`;
}

const exchangeOfferForPage = pageLoader(async (channelKey: string, locale: string, id: string, offerId: string) => {
  const channel = await pageChannel(channelKey, locale);
  const detail = await pageOffer(channel, { id, offerId }, getExchangeOffer);
  const features = channelFeatures(channel.labels, channel.theme.attributes);
  const found = await findInputSources(
    pageScope(channel),
    detail.offer.inputs.map((line) => line.commodity.id),
    { gifts: features.receive !== null, sales: features.sale },
  );
  const sources: Record<string, InputSourceLink> = {};
  for (const [commodityId, source] of found) sources[commodityId] = { kind: source.kind, href: sourceHref(source, features.receive) };
  return { channel, detail, sources, path: `/exchange_detail/${id}/${offerId}` };
});

/**
 * One exchange offer of the page's channel, with what the logged-in buyer can spend on it and where the channel gives
 * what its recipe spends; anything else (bad ids, another channel's offer) goes to /404 (spec §2). The metadata and the
 * page of one request share it.
 */
export async function loadExchangeOfferForPage(params: Promise<ExchangeDetailParams>) {
  const { channel, locale, id, exchange_id: offerId } = await params;
  return exchangeOfferForPage(channel, locale, id, offerId);
}

export type ExchangeOfferForPage = Awaited<ReturnType<typeof loadExchangeOfferForPage>>;
