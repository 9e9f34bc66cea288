import Link from 'next/link';
import type { ReactNode } from 'react';
import { CollectibleArt, type ArtOf } from './collectible-art';

const LOOKS = {
  /** The row of a record's card: the card is the surface. */
  plain: 'flex gap-3',
  /** One of several rows on a card (a campaign's offers): outlined, darker while pressed. */
  outlined: 'flex gap-3 rounded-lg border border-black/5 p-2 active:bg-black/5',
} as const;

/**
 * A collectible's tile with lines about it beside (issue 30: the row every list of the store repeats: orders, gifts
 * received, exchanges, destroyed ones, chain-ups, a campaign's offers). A link when `href` is given (the whole row is
 * the target); `trailing` goes after the lines (an offer's chevron).
 */
export function CollectibleRow({
  collectible,
  placeholderColor,
  spent = false,
  href,
  look = 'plain',
  trailing,
  'data-testid': testId,
  children,
}: {
  collectible: ArtOf;
  placeholderColor: string;
  /** Destroyed in an exchange: its art in grey. */
  spent?: boolean;
  href?: string;
  look?: keyof typeof LOOKS;
  trailing?: ReactNode;
  'data-testid'?: string;
  children: ReactNode;
}) {
  const content = (
    <>
      <CollectibleArt collectible={collectible} width="1.2rem" placeholderColor={placeholderColor} className={spent ? 'grayscale' : ''} />
      <div className="flex min-w-0 flex-1 flex-col justify-between">{children}</div>
      {trailing}
    </>
  );
  return href ? (
    <Link href={href} className={LOOKS[look]} data-testid={testId}>
      {content}
    </Link>
  ) : (
    <div className={LOOKS[look]} data-testid={testId}>
      {content}
    </div>
  );
}
