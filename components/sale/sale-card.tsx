import Link from 'next/link';
import type { SaleRecord } from '@/lib/sale/schema';
import type { ChannelView } from '@/components/layout/channel-view';
import { formatFen } from '@/lib/format/money';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { Card } from '@/components/ui/card';
import { SaleStatusBadge } from './sale-status';

/** One sale in the home list: cover, name, edition, price (unless hidden) and state. */
export function SaleCard({
  sale,
  showAmount,
  renderedAt,
  priority,
  t,
  timeZone,
  placeholderColor,
}: {
  sale: SaleRecord;
  showAmount: boolean;
  /** The server's time of this render (the live badge's first render matches it). */
  renderedAt: number;
  priority?: boolean;
} & ChannelView) {
  return (
    <li>
      <Card
        as={Link}
        href={`/goods/detail/${sale.id}`}
        data-testid="sale-card"
        className="block overflow-hidden transition-transform active:scale-[0.98]"
      >
        <div className="relative">
          <CollectibleArt
            collectible={sale.commodity}
            named
            width="full"
            sizes="(max-width: 450px) 50vw, 225px"
            placeholderColor={placeholderColor}
            priority={priority}
          />
          {sale.commodity.isBlindBox && (
            <span className="absolute top-2 left-2 rounded-full bg-black/60 px-2 py-0.5 text-xs text-white">{t('home.blindBox')}</span>
          )}
        </div>
        <div className="flex flex-col gap-1.5 p-2.5">
          <h3 className="truncate text-sm font-semibold text-skin-1">{sale.commodity.name}</h3>
          <p className="text-xs text-neutral-500">{t('home.edition', { count: sale.commodity.amountSku })}</p>
          {/* The price never wraps or moves for the badge, which never wraps either (a coming-soon card's countdown is
              short: "2d 3h", then "01:59:59"). Should a long price and a badge not fit side by side, the badge goes under
              the price rather than pushing it down. */}
          <div className="flex flex-wrap items-center justify-between gap-1">
            {showAmount ? (
              <span data-testid="sale-price" className="shrink-0 text-sm font-bold whitespace-nowrap text-skin-sign">
                {formatFen(sale.price)}
              </span>
            ) : (
              <span />
            )}
            <SaleStatusBadge t={t} sale={sale} renderedAt={renderedAt} timeZone={timeZone} />
          </div>
        </div>
      </Card>
    </li>
  );
}
