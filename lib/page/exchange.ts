import 'server-only';
import { pageChannel } from './channel';
import { getExchangeOffer } from '../exchange/service';
import { pageOffer, type OfferPageParams } from './found';
import { pageLoader } from './loader';

export type ExchangeDetailParams = OfferPageParams;

const exchangeOfferForPage = pageLoader(async (channelKey: string, locale: string, id: string, offerId: string) => {
  const channel = await pageChannel(channelKey, locale);
  const detail = await pageOffer(channel, { id, offerId }, getExchangeOffer);
  return { channel, detail, path: `/exchange_detail/${id}/${offerId}` };
});

/**
 * One exchange offer of the page's channel, with what the logged-in buyer can spend on it; anything else (bad ids,
 * another channel's offer) goes to /404 (spec §2). The metadata and the page of one request share it.
 */
export async function loadExchangeOfferForPage(params: Promise<ExchangeDetailParams>) {
  const { channel, locale, id, exchange_id: offerId } = await params;
  return exchangeOfferForPage(channel, locale, id, offerId);
}

export type ExchangeOfferForPage = Awaited<ReturnType<typeof loadExchangeOfferForPage>>;
