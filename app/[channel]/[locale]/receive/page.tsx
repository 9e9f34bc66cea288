import type { PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { loadGiftCampaignsForPage } from '@/lib/page/gift';
import { ReceiveListPage } from '@/components/gift/receive-list-page';

type Props = { params: Promise<PageParams> };

export const generateMetadata = titledPage(({ t }) => t('gift.listTitle'), { listed: true });

/** /receive (spec §2 receive): the channel's gift campaigns; details at /receive_detail/:id/:exchange_id. */
export default async function ReceivePage({ params }: Props) {
  return <ReceiveListPage loaded={await loadGiftCampaignsForPage(params)} detailPath="/receive_detail" />;
}
