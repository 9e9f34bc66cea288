import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { pageViewerScope } from '@/lib/page/session';
import { getExchangeOffer } from '@/lib/exchange/service';
import { AppError } from '@/lib/procedure/errors';
import { PageHeader } from '@/components/layout/page-header';
import { ExchangeDetail } from '@/components/exchange/exchange-detail';
import { ClientMessages } from '@/components/shell/client-messages';
import { routeId } from '@/lib/page/route-id';
import { channelView } from '@/components/layout/channel-view';

type Params = PageParams & { id: string; exchange_id: string };
type Props = { params: Promise<Params> };

/**
 * Loads one exchange offer of the page's channel, with what the logged-in user can spend on it; anything else (bad
 * ids, another channel's offer) goes to /404 (spec §2). Cached per request: the metadata and the page share it.
 */
const loadExchange = cache(async (channelKey: string, locale: string, id: string, offerId: string) => {
  const channel = await loadPageChannel(Promise.resolve({ channel: channelKey, locale }));
  const campaignId = routeId(id);
  const offer = routeId(offerId);
  if (campaignId === null || offer === null) redirect('/404');
  const scope = await pageViewerScope(channel);
  try {
    const detail = await getExchangeOffer(scope, campaignId, offer);
    return { channel, detail };
  } catch (error) {
    if (error instanceof AppError && error.code === 404) redirect('/404');
    throw error;
  }
});

async function load(params: Promise<Params>) {
  const { channel, locale, id, exchange_id: offerId } = await params;
  return { ...(await loadExchange(channel, locale, id, offerId)), path: `/exchange_detail/${id}/${offerId}` };
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { channel, detail } = await load(params);
  const description = detail.campaign.description || detail.campaign.name;
  return {
    title: `${detail.offer.commodity.name} · ${channel.t('exchange.detailTitle')}`,
    description,
    openGraph: { title: detail.offer.commodity.name, description },
  };
}

/**
 * /exchange_detail/:id/:exchange_id (spec §2 exchangeDetail, title 'exchange detail'; open to visitors): one offer
 * (exchange_id) of an exchange activity (id), its recipe and the Exchange button.
 */
export default async function ExchangeDetailPage({ params }: Props) {
  const { channel, detail, path } = await load(params);
  const { t } = channel;
  return (
    <>
      <PageHeader title={t('exchange.detailTitle')} backHref="/active" backLabel={t('exchange.back')} />
      <ClientMessages channel={channel} namespaces={['exchange', 'common']}>
        <main className="px-3 pt-3 pb-[1.6rem]">
          <ExchangeDetail detail={detail} loginHref={`/login?redirect=${encodeURIComponent(path)}`} {...channelView(channel)} />
        </main>
      </ClientMessages>
    </>
  );
}
