import type { DestroyedView } from '@/lib/exchange/schema';
import { formatDate } from '@/lib/format/date';
import { CardList } from '@/components/ui/card-list';
import { RecordCard } from '@/components/ui/record-card';
import type { RecordListProps } from '@/components/layout/channel-view';

/** My destroyed collectibles (spec §2 mineDestory): each with its edition number, when it was destroyed and the activity that spent it. */
export function DestroyedList({ records, action = null, ...view }: RecordListProps<DestroyedView>) {
  const { t, timeZone, placeholderColor } = view;
  return (
    <CardList
      items={records}
      empty={{ art: 'exchange', text: t('exchange.destroyEmpty'), action, 'data-testid': 'destroyed-empty' }}
      data-testid="destroyed-list"
    >
      {(d) => (
        <RecordCard key={d.id} collectible={d.commodity} placeholderColor={placeholderColor} spent data-testid="destroyed">
          <p className="flex items-baseline justify-between gap-2">
            <span className="truncate text-base font-medium text-skin-1">{d.commodity.name}</span>
            <span className="shrink-0 text-sm font-semibold text-neutral-600" data-testid="destroyed-edition">
              #{d.number}/{d.amountNumber}
            </span>
          </p>
          {d.exchange ? (
            <p className="truncate text-xs text-neutral-600" data-testid="destroyed-in">
              {t('exchange.destroyedIn', { name: d.exchange.campaign.name })}
            </p>
          ) : null}
          <p className="text-xs text-neutral-500">
            {t('exchange.destroyedAt', { time: formatDate(d.destroyTime, 'yyyy-MM-dd HH:mm:ss', timeZone) })}
          </p>
        </RecordCard>
      )}
    </CardList>
  );
}
