import Link from 'next/link';
import type { SaleRecord } from '@/lib/sale/service';
import type { Translator } from '@/lib/i18n/translator';
import { formatFen } from '@/lib/format/money';
import { ArtImage } from '@/components/ui/art-image';
import { Card } from '@/components/ui/card';
import { SaleStatusBadge } from './sale-status';

/** One sale in the home list: cover, name, edition, price (unless hidden) and state. */
export function SaleCard({
  sale,
  t,
  showAmount,
  timeZone,
  placeholderColor,
  priority,
}: {
  sale: SaleRecord;
  t: Translator;
  showAmount: boolean;
  timeZone: string;
  placeholderColor: string;
  priority?: boolean;
}) {
  return (
    <li>
      <Card
        as={Link}
        href={`/goods/detail/${sale.id}`}
        data-testid="sale-card"
        className="block overflow-hidden transition-transform active:scale-[0.98]"
      >
        <div className="relative">
          <ArtImage
            src={sale.commodity.cover}
            alt={sale.commodity.name}
            width={600}
            height={600}
            sizes="(max-width: 450px) 50vw, 225px"
            className="w-full"
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
          <div className="flex items-center justify-between gap-1">
            {showAmount ? (
              <span data-testid="sale-price" className="text-sm font-bold text-skin-sign">
                {formatFen(sale.price)}
              </span>
            ) : (
              <span />
            )}
            <SaleStatusBadge t={t} status={sale.statusSell} saleStartTime={sale.saleStartTime} timeZone={timeZone} />
          </div>
        </div>
      </Card>
    </li>
  );
}
