import type { DestroyedView } from '@/lib/exchange/schema';
import type { Translator } from '@/lib/i18n/translator';
import { formatDate } from '@/lib/format/date';
import { ArtImage } from '@/components/ui/art-image';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';

/** My destroyed collectibles (spec §2 mineDestory): each with its edition number, when it was destroyed and the activity that spent it. */
export function DestroyedList({
  records,
  t,
  timeZone,
  placeholderColor,
  action = null,
}: {
  records: DestroyedView[];
  t: Translator;
  timeZone: string;
  placeholderColor: string;
  /** Where the empty list sends the buyer (the activities, where they can exchange). */
  action?: { href: string; label: string } | null;
}) {
  if (records.length === 0) {
    return (
      <EmptyState art="exchange" action={action} data-testid="destroyed-empty">
        {t('exchange.destroyEmpty')}
      </EmptyState>
    );
  }
  return (
    <ul className="flex flex-col gap-3" data-testid="destroyed-list">
      {records.map((d) => (
        <Card as="li" key={d.id} className="flex gap-3 p-3" data-testid="destroyed">
          <ArtImage
            src={d.commodity.cover}
            alt=""
            width={600}
            height={600}
            sizes="1.2rem"
            className="size-[1.2rem] shrink-0 rounded-lg object-cover grayscale"
            placeholderColor={placeholderColor}
          />
          <div className="flex min-w-0 flex-1 flex-col justify-between">
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
          </div>
        </Card>
      ))}
    </ul>
  );
}
