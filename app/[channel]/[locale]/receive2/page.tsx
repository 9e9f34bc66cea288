import type { Metadata } from 'next';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { loadGiftCampaignsForPage } from '@/lib/page/gift';
import { ReceiveListPage } from '@/components/gift/receive-list-page';

type Props = { params: Promise<PageParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await loadPageChannel(params);
  // The layout's template adds the channel title (docs/decisions.md page titles).
  return { title: t('gift.listTitle') };
}

/** /receive2 (spec §2 receive2): the channel's gift campaigns; details at /receive_detail_new/:id/:exchange_id. */
export default async function Receive2Page({ params }: Props) {
  return <ReceiveListPage loaded={await loadGiftCampaignsForPage(params)} detailPath="/receive_detail_new" />;
}
