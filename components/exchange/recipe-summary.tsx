import type { ExchangeOfferView } from '@/lib/exchange/schema';
import type { Translator } from '@/lib/i18n/translator';

/**
 * An offer's recipe in one line (spec §2 active, exchangeDetail): "Spend 2 × Starter Card", plus "and a code" when the
 * recipe also asks for a redeem code; "Spend a redeem code" when that is all it asks.
 */
export function RecipeSummary({
  offer,
  t,
  className,
  testId,
}: {
  offer: Pick<ExchangeOfferView, 'inputs' | 'requiresCode'>;
  t: Translator;
  className?: string;
  testId?: string;
}) {
  const lines = offer.inputs.map((line) => t('exchange.item', { quantity: line.quantity, name: line.commodity.name }));
  const items = lines.length === 0 ? t('exchange.aCode') : `${lines.join(' + ')}${offer.requiresCode ? ` ${t('exchange.andCode')}` : ''}`;
  return (
    <span className={className} data-testid={testId}>
      {t('exchange.spendItems', { items })}
    </span>
  );
}
