import type { Metadata } from 'next';
import { loadPageChannel, type PageParams } from '@/lib/channel/page-channel';
import { ReceiveListPage } from '@/components/gift/receive-list-page';

type Props = { params: Promise<PageParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t, title } = await loadPageChannel(params);
  return { title: `${t('gift.listTitle')} · ${title}` };
}

/** /receive (spec §2 receive): the channel's gift campaigns; details at /receive_detail/:id/:exchange_id. */
export default function ReceivePage({ params }: Props) {
  return <ReceiveListPage params={params} detailPath="/receive_detail" />;
}
