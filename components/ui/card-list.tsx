import type { ReactNode } from 'react';
import { EmptyState, type EmptyAction, type EmptyArt } from './empty-state';

/**
 * A list of cards, newest or open first as its caller gives them, or what it shows when it has none (issue 30: one
 * list for the records and campaigns of the store). Records sit closer together than campaigns, whose cards are larger.
 */
export function CardList<T>({
  items,
  empty,
  'data-testid': testId,
  spacing = 'records',
  children,
}: {
  items: readonly T[];
  empty: { art: EmptyArt; text: string; action?: EmptyAction | null; 'data-testid': string };
  'data-testid': string;
  spacing?: 'records' | 'campaigns';
  /** One card per item, keyed. */
  children: (item: T) => ReactNode;
}) {
  if (items.length === 0) {
    return (
      <EmptyState art={empty.art} action={empty.action} data-testid={empty['data-testid']}>
        {empty.text}
      </EmptyState>
    );
  }
  return (
    <ul className={`flex flex-col ${spacing === 'records' ? 'gap-3' : 'gap-4'}`} data-testid={testId}>
      {items.map(children)}
    </ul>
  );
}
