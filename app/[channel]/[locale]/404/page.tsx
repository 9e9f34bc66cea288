import type { Metadata } from 'next';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { StatusView } from '@/components/layout/status-view';
import { NotFoundIcon } from '@/components/layout/status-icons';

type Props = { params: Promise<PageParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await loadPageChannel(params);
  return { title: t('route.notFound'), robots: { index: false } };
}

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
