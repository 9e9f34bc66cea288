import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { StatusView } from '@/components/layout/status-view';
import { SoldOutIcon } from '@/components/layout/status-icons';

type Props = { params: Promise<PageParams> };

export const generateMetadata = titledPage(({ t }) => t('route.sellout'));

/** /sellout (spec §2): where late buyers of a sold-out sale land. */
export default async function SelloutPage({ params }: Props) {
  const { t } = await loadPageChannel(params);
  return (
    <StatusView icon={<SoldOutIcon />} title={t('sellout.title')} body={t('sellout.body')} actionHref="/" actionLabel={t('sellout.home')} />
  );
}
