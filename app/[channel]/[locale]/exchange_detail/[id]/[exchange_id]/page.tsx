import { loginHref } from '@/lib/auth/redirect';
import type { Metadata } from 'next';
import { channelPreview } from '@/lib/page/metadata';
import { loadExchangeOfferForPage, type ExchangeDetailParams } from '@/lib/page/exchange';
import { PageHeader } from '@/components/layout/page-header';
import { ExchangeDetail } from '@/components/exchange/exchange-detail';
import { ClientMessages } from '@/components/shell/client-messages';
import { channelView } from '@/components/layout/channel-view';

type Props = { params: Promise<ExchangeDetailParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { channel, detail } = await loadExchangeOfferForPage(params);
  const description = detail.campaign.description || detail.campaign.name;
  return {
    title: `${detail.offer.commodity.name} · ${channel.t('exchange.detailTitle')}`,
    description,
    ...channelPreview(channel, { title: detail.offer.commodity.name, description }),
  };
}

/**
 * /exchange_detail/:id/:exchange_id (spec §2 exchangeDetail, title 'exchange detail'; open to visitors): one offer
 * (exchange_id) of an exchange activity (id), its recipe and the Exchange button.
 */
export default async function ExchangeDetailPage({ params }: Props) {
  const { channel, detail, sources, path } = await loadExchangeOfferForPage(params);
  const { t } = channel;
  return (
    <>
      <PageHeader title={t('exchange.detailTitle')} backHref="/active" backLabel={t('exchange.back')} />
      <ClientMessages channel={channel} namespaces={['exchange', 'common']}>
        <main className="px-3 pt-3 pb-[1.6rem]">
          <ExchangeDetail detail={detail} sources={sources} loginHref={loginHref(path)} {...channelView(channel)} />
        </main>
      </ClientMessages>
    </>
  );
}
