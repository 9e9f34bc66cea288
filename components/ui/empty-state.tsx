import type { ElementType } from 'react';
import { Card, type CardProps } from './card';

/**
 * What a list shows when it has nothing yet: a card with one muted, centred line (a `p`), or with `as="div"` a line
 * and a way on (a link to where to get some).
 */
export function EmptyState<T extends ElementType = 'p'>({ as, className = '', ...props }: CardProps<T>) {
  return <Card as={as ?? 'p'} className={`p-6 text-center text-sm text-neutral-500 ${className}`} {...props} />;
}
