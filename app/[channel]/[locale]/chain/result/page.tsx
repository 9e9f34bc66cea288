import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { requirePageScope } from '@/lib/page/session';
import { getChainRecord } from '@/lib/chain/chain-up';
import { ArtImage } from '@/components/ui/art-image';
import { ChainRecord } from '@/components/chain/chain-record';
import { ChainStatusRefresh } from '@/components/chain/chain-status-refresh';
import { routeId } from '@/lib/page/route-id';

type Props = { params: Promise<PageParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await loadPageChannel(params);
  return { title: t('chain.resultTitle'), robots: { index: false } };
}

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
  const { t, skin, theme } = channel;
  const link = 'flex h-[0.88rem] items-center justify-center rounded-full text-base font-semibold';
  return (
    <main className="flex flex-col items-center px-5 pt-8 pb-[1.6rem] text-center">
      <ArtImage
        src={skin.brandResultImg}
        alt=""
        width={240}
        height={240}
        sizes="2.4rem"
        className="size-[2.4rem]"
        placeholderColor={skin.lightColor}
        priority
      />
      <h1 className="mt-4 text-xl font-semibold text-skin-1">{t('chain.resultTitle')}</h1>
      <p className="mt-1.5 text-sm text-neutral-500" data-testid="chain-result-message">
        {record.chainStatus === 1 ? t('chain.resultDone') : t('chain.resultPending')}
      </p>
      <div className="mt-6 w-full text-left">
        <ChainRecord record={record} t={t} timeZone={theme.timeZone} placeholderColor={skin.lightColor} />
      </div>
      {record.chainStatus === 1 ? null : <ChainStatusRefresh />}
      <div className="mt-6 flex w-full flex-col gap-3">
        <Link href="/mine/collection" className={`${link} bg-skin-button text-skin-button-text shadow-card`}>
          {t('chain.seeCollection')}
        </Link>
        <Link href="/mine/chain" className={`${link} border border-black/10 bg-skin-card text-skin-1`}>
          {t('chain.recordsTitle')}
        </Link>
      </div>
      <p className="mt-4 text-xs text-neutral-500">{t('collection.ledgerNote')}</p>
    </main>
  );
}
