import type { Metadata } from 'next';
import { loadGiftForPage, type ReceiveDetailParams } from '@/lib/page/gift';
import { ReceiveDetailPage } from '@/components/gift/receive-detail-page';

type Props = { params: Promise<ReceiveDetailParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { channel, gift } = await loadGiftForPage(params);
  return {
    title: `${gift.offer.commodity.name} · ${channel.t('gift.detailTitle')}`,
    description: gift.campaign.description || gift.campaign.name,
    openGraph: { title: gift.offer.commodity.name, description: gift.campaign.description || gift.campaign.name },
  };
}

/** /receive_detail/:id/:exchange_id (spec §2): one gift of a campaign (id) and its offer (exchange_id), with the receive button. */
export default async function ReceiveDetailOldPage({ params }: Props) {
  return <ReceiveDetailPage loaded={await loadGiftForPage(params)} basePath="/receive_detail" backHref="/receive" />;
}
