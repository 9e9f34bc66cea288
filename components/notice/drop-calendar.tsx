import Link from 'next/link';
import { CALENDAR_DAYS, groupByDay, type CalendarSale } from '@/lib/notice/schema';
import type { Translator } from '@/lib/i18n/translator';
import { formatDate, zoneName } from '@/lib/format/date';
import { ArtImage } from '@/components/ui/art-image';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';

/**
 * The drop calendar (issue 32, /calendar): the channel's upcoming sales grouped by their opening day in the channel's
 * time zone (named above the list), each with its opening time, cover and name, a link to its goods page.
 */
export function DropCalendar({
  sales,
  timeZone,
  placeholderColor,
  locale,
  t,
}: {
  sales: CalendarSale[];
  timeZone: string;
  placeholderColor: string;
  /** The buyer's language, for the days' weekday names. */
  locale: string;
  t: Translator;
}) {
  if (sales.length === 0) {
    return (
      <EmptyState art="calendar" action={{ href: '/', label: t('empty.browseSales') }} data-testid="calendar-empty">
        {t('notices.calendarEmpty', { days: CALENDAR_DAYS })}
      </EmptyState>
    );
  }
  const days = groupByDay(sales, (iso) => formatDate(iso, 'yyyy-MM-dd', timeZone));
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone });
  return (
    <>
      <p className="mb-3 px-1 text-xs text-neutral-500">
        {t('notices.calendarIntro', { days: CALENDAR_DAYS, zone: zoneName(timeZone, locale) })}
      </p>
      <ol className="flex flex-col gap-4" data-testid="calendar">
        {days.map(({ day, sales: ofDay }) => (
          <li key={day} data-testid="calendar-day" data-day={day}>
            <h2 className="mb-2 px-1 text-sm font-semibold text-skin-1">
              <time dateTime={day}>
                {day} {weekday.format(new Date(ofDay[0]!.saleStartTime))}
              </time>
            </h2>
            <ul className="flex flex-col gap-2">
              {ofDay.map((sale) => (
                <li key={sale.saleId}>
                  <Card
                    as={Link}
                    href={`/goods/detail/${sale.saleId}`}
                    className="flex items-center gap-3 p-3 active:opacity-80"
                    data-testid="calendar-sale"
                    data-sale-id={sale.saleId}
                  >
                    <ArtImage
                      src={sale.cover}
                      alt=""
                      width={128}
                      height={128}
                      sizes="1.2rem"
                      className="size-[1.2rem] shrink-0 rounded-lg object-cover"
                      placeholderColor={placeholderColor}
                    />
                    <span className="min-w-0 flex-1">
                      <span className="block truncate text-base font-medium text-skin-1">{sale.name}</span>
                      <span className="mt-0.5 block text-sm font-semibold text-skin-sign tabular-nums">
                        {t('notices.opensAt', { time: formatDate(sale.saleStartTime, 'HH:mm', timeZone) })}
                      </span>
                    </span>
                  </Card>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </>
  );
}
