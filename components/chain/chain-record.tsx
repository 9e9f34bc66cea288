import type { ChainRecordView } from '@/lib/chain/schema';
import { storeNameIn } from '@/lib/chain/names';
import { formatDate } from '@/lib/format/date';
import { RecordCard } from '@/components/ui/record-card';
import type { ChannelView } from '@/components/layout/channel-view';

/**
 * One chain-up (spec §2 chainResult, mineChain): the twin with its edition number, the store and code type, and its
 * chain status: recording, then the token id and tx hash from the chain ledger.
 */
export function ChainRecord({
  record,
  ...view
}: {
  record: ChainRecordView;
} & ChannelView) {
  const { t, timeZone, placeholderColor } = view;
  return (
    <RecordCard
      as="article"
      collectible={record.commodity}
      placeholderColor={placeholderColor}
      data-testid="chain-record"
      footer={
        record.chainStatus === 1 ? (
          <dl
            className="mt-2 grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 rounded-lg bg-skin-light/60 px-2.5 py-2 text-xs"
            data-testid="chain-status"
          >
            <dt className="col-span-2 font-medium text-emerald-700">{t('chain.onChain')}</dt>
            <dt className="text-neutral-500">{t('chain.tokenId')}</dt>
            <dd className="break-all text-neutral-800" data-testid="chain-token">
              {record.tokenId}
            </dd>
            <dt className="text-neutral-500">{t('chain.txHash')}</dt>
            <dd className="font-mono break-all text-neutral-800" data-testid="chain-tx">
              {record.tradeHash}
            </dd>
          </dl>
        ) : (
          <p className="mt-2 rounded-lg bg-amber-50 px-2.5 py-2 text-xs text-amber-700" data-testid="chain-status">
            {t('chain.pending')}
          </p>
        )
      }
    >
      <p className="truncate text-base font-medium text-skin-1">{record.commodity.name}</p>
      <p className="truncate text-xs text-neutral-500">
        {storeNameIn(record.store, t)} · {record.type === 2 ? t('chain.typeCertificate') : t('chain.typeProduct')}
      </p>
      <p className="flex items-baseline justify-between text-xs text-neutral-500">
        <span>{formatDate(record.createTime, 'yyyy-MM-dd HH:mm:ss', timeZone)}</span>
        <span className="font-semibold text-skin-1" data-testid="chain-edition">
          #{record.number}/{record.amountNumber}
        </span>
      </p>
    </RecordCard>
  );
}
