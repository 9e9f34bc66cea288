import { redirect } from 'next/navigation';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { requirePageScope } from '@/lib/page/session';
import { getChainRecord } from '@/lib/chain/chain-up';
import { ButtonLink } from '@/components/ui/button-link';
import { ResultScreen } from '@/components/ui/result-screen';
import { ChainRecord } from '@/components/chain/chain-record';
import { ChainStatusRefresh } from '@/components/chain/chain-status-refresh';
import { routeId } from '@/lib/page/route-id';
import { channelView } from '@/components/layout/channel-view';

type Props = { params: Promise<PageParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const generateMetadata = titledPage(({ t }) => t('chain.resultTitle'));

/**
 * /chain/result?id= (spec §2 chainResult; login required, docs/decisions.md): the channel's brandResultImg and the
 * chain-up's outcome; while the ledger has not confirmed it the page refreshes itself until the tx hash is there.
 * Another user's record, or a bad id, is /404.
 */
export default async function ChainResultPage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  const { id: raw } = await searchParams;
  const id = Array.isArray(raw) ? raw[0] : raw;
  const scope = await requirePageScope(channel, `/chain/result?id=${encodeURIComponent(id ?? '')}`);
  const recordId = routeId(id);
  if (recordId === null) redirect('/404');
  const record = await getChainRecord(scope, recordId);
  if (!record) redirect('/404');
  const { t, skin } = channel;
  return (
    <ResultScreen
      image={skin.brandResultImg}
      placeholderColor={skin.lightColor}
      title={t('chain.resultTitle')}
      message={record.chainStatus === 1 ? t('chain.resultDone') : t('chain.resultPending')}
      messageTestId="chain-result-message"
      actions={
        <>
          <ButtonLink href="/mine/collection">{t('chain.seeCollection')}</ButtonLink>
          <ButtonLink href="/mine/chain" look="secondary">
            {t('chain.recordsTitle')}
          </ButtonLink>
        </>
      }
      note={t('collection.ledgerNote')}
    >
      <ChainRecord record={record} {...channelView(channel)} />
      {record.chainStatus === 1 ? null : <ChainStatusRefresh />}
    </ResultScreen>
  );
}
