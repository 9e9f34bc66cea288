import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { StatusView } from '@/components/layout/status-view';
import { NotFoundIcon } from '@/components/layout/status-icons';

type Props = { params: Promise<PageParams> };

export const generateMetadata = titledPage(({ t }) => t('route.notFound'));

/** /404 (spec §2): where unknown paths and /set_key/:key are sent. */
export default async function NotFoundPage({ params }: Props) {
  const { t } = await loadPageChannel(params);
  return (
    <StatusView
      icon={<NotFoundIcon />}
      title={t('notFound.title')}
      body={t('notFound.body')}
      actionHref="/"
      actionLabel={t('notFound.home')}
    />
  );
}
