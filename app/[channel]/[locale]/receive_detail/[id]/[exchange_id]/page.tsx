import { giftPageMetadata, loadGiftForPage, type ReceiveDetailParams } from '@/lib/page/gift';
import { ReceiveDetailPage } from '@/components/gift/receive-detail-page';

type Props = { params: Promise<ReceiveDetailParams> };

export const generateMetadata = giftPageMetadata;

/** /receive_detail/:id/:exchange_id (spec §2): one gift of a campaign (id) and its offer (exchange_id), with the receive button. */
export default async function ReceiveDetailOldPage({ params }: Props) {
  return <ReceiveDetailPage loaded={await loadGiftForPage(params)} basePath="/receive_detail" backHref="/receive" />;
}
