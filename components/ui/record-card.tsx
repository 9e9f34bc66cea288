import type { ComponentProps, ReactNode } from 'react';
import { Card } from './card';
import { CollectibleRow } from './collectible-row';

/**
 * One record of a buyer's lists (issue 30: one card for orders, gifts received, exchanges, destroyed collectibles and
 * chain-ups): what the record is about beside its collectible's tile, with a `header` above (an order's number and
 * state) and a `footer` below (what an exchange spent, a chain-up's ledger entry, an unpaid order's buttons).
 * data-* attributes go to the card.
 */
export function RecordCard({
  as = 'li',
  collectible,
  placeholderColor,
  spent,
  href,
  header,
  footer,
  children,
  ...rest
}: Pick<ComponentProps<typeof CollectibleRow>, 'collectible' | 'placeholderColor' | 'spent' | 'href'> & {
  as?: 'li' | 'article';
  header?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
} & { [data: `data-${string}`]: string | undefined }) {
  return (
    <Card as={as} className="p-3" {...rest}>
      {header}
      <CollectibleRow collectible={collectible} placeholderColor={placeholderColor} spent={spent} href={href}>
        {children}
      </CollectibleRow>
      {footer}
    </Card>
  );
}
