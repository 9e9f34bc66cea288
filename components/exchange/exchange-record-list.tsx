import type { ExchangeRecordView } from '@/lib/exchange/schema';
import { formatDate } from '@/lib/format/date';
import { CardList } from '@/components/ui/card-list';
import { RecordCard } from '@/components/ui/record-card';
import type { RecordListProps } from '@/components/layout/channel-view';

/**
 * My exchange records (spec §2 mineExchange): per exchange, the activity, when (in the channel's time zone), the
 * collectible it minted with its edition number, and the collectibles it spent with theirs.
 */
export function ExchangeRecordList({ records, action = null, ...view }: RecordListProps<ExchangeRecordView>) {
  const { t, timeZone, placeholderColor } = view;
  return (
    <CardList
      items={records}
      empty={{ art: 'exchange', text: t('exchange.recordsEmpty'), action, 'data-testid': 'exchange-records-empty' }}
      data-testid="exchange-records"
    >
      {(r) => (
        <RecordCard
          key={r.id}
          collectible={r.output.commodity}
          placeholderColor={placeholderColor}
          data-testid="exchange-record"
          footer={
            r.inputs.length > 0 ? (
              <div className="mt-2 flex flex-wrap items-center gap-1 border-t border-black/5 pt-2 text-xs text-neutral-500">
                <span>{t('exchange.spent')}</span>
                <ul className="contents" data-testid="exchange-record-spent">
                  {r.inputs.map((h) => (
                    <li key={h.holdingId} className="rounded-full bg-neutral-100 px-2 py-0.5 text-neutral-700">
                      {h.commodity.name} #{h.number}/{h.amountNumber}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null
          }
        >
          <p className="truncate text-xs text-neutral-500">{r.campaign.name}</p>
          <p className="flex items-baseline justify-between gap-2">
            <span className="truncate text-base font-medium text-skin-1">
              <span className="sr-only">{t('exchange.got')} </span>
              {r.output.commodity.name}
            </span>
            <span className="shrink-0 text-sm font-semibold text-skin-1" data-testid="exchange-record-output">
              #{r.output.number}/{r.output.amountNumber}
            </span>
          </p>
          <p className="text-xs text-neutral-500">{formatDate(r.createTime, 'yyyy-MM-dd HH:mm:ss', timeZone)}</p>
        </RecordCard>
      )}
    </CardList>
  );
}
