import Link from 'next/link';
import type { ReactNode } from 'react';
import { CollectibleArt, type ArtOf } from './collectible-art';

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
  className = 'flex gap-3',
  trailing,
  'data-testid': testId,
  children,
}: {
  collectible: ArtOf;
  placeholderColor: string;
  /** Destroyed in an exchange: its art in grey. */
  spent?: boolean;
  href?: string;
  className?: string;
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
    <Link href={href} className={className} data-testid={testId}>
      {content}
    </Link>
  ) : (
    <div className={className} data-testid={testId}>
      {content}
    </div>
  );
}
