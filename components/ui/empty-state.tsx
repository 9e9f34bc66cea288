import Link from 'next/link';
import type { ReactNode } from 'react';
import { Card } from './card';

/** The pictures an empty list can show, one per kind of list. */
export type EmptyArt = 'collection' | 'box' | 'orders' | 'gift' | 'exchange' | 'chain' | 'sales' | 'notices' | 'calendar';

/** Where an empty list sends the buyer on: a link in the channel's button colours. */
export type EmptyAction = { href: string; label: string };

/**
 * What a list shows when it has nothing yet (issue 17, item 9): a picture of what would be there, drawn in the
 * channel's colours, one line saying so, and, where there is one, the way to get some (browse sales, receive gifts).
 * The picture is decoration: the line says it all to a screen reader.
 */
export function EmptyState({
  art,
  action,
  children,
  className = '',
  'data-testid': testId,
}: {
  art: EmptyArt;
  action?: EmptyAction | null;
  children: ReactNode;
  className?: string;
  'data-testid'?: string;
}) {
  return (
    <Card as="div" className={`flex flex-col items-center gap-3 px-6 py-8 text-center ${className}`} data-testid={testId}>
      <EmptyPicture art={art} />
      <p className="text-sm text-neutral-500">{children}</p>
      {action ? (
        <Link
          href={action.href}
          className="mt-1 inline-flex min-h-11 items-center rounded-full bg-skin-button px-5 text-sm font-medium text-skin-button-text"
          data-testid="empty-action"
        >
          {action.label}
        </Link>
      ) : null}
    </Card>
  );
}

/** 96 × 96 line drawings: the channel's light colour behind, its main colour for the lines, its accent for one detail. */
function EmptyPicture({ art }: { art: EmptyArt }) {
  return (
    <svg viewBox="0 0 96 96" width="96" height="96" aria-hidden="true" focusable="false" data-art={art}>
      <circle cx="48" cy="48" r="44" className="fill-skin-light" />
      <g fill="none" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" className="stroke-skin-1">
        {DRAWINGS[art]}
      </g>
    </svg>
  );
}

const DRAWINGS: Record<EmptyArt, ReactNode> = {
  // A megaphone (issue 32: no notices yet).
  notices: (
    <>
      <path d="M26 42v12h8l22 12V30L34 42z" />
      <path d="M34 54l4 14h6l-3-12" />
      <path d="M64 40c4 2 4 14 0 16" className="stroke-skin-2" />
    </>
  ),
  // A calendar page with one day marked (issue 32: no drops scheduled).
  calendar: (
    <>
      <rect x="24" y="28" width="48" height="42" rx="4" />
      <path d="M24 40h48M36 22v10M60 22v10" />
      <circle cx="56" cy="56" r="4" className="stroke-skin-2" />
    </>
  ),
  // Two framed pictures, the front one with a mountain and a sun.
  collection: (
    <>
      <rect x="30" y="22" width="40" height="46" rx="5" opacity=".45" />
      <rect x="24" y="30" width="40" height="46" rx="5" className="fill-skin-card" />
      <path d="M30 66l10-12 7 8 5-5 7 9" />
      <circle cx="52" cy="42" r="4" className="fill-skin-2 stroke-none" />
    </>
  ),
  // A closed box, its bow on the lid and a question mark on its side.
  box: (
    <>
      <path d="M22 40h52v32a4 4 0 0 1-4 4H26a4 4 0 0 1-4-4z" className="fill-skin-card" />
      <path d="M18 32h60v9H18z" className="fill-skin-card" />
      <path d="M48 32v9" className="stroke-skin-2" />
      <path d="M48 32c-6-10-16-10-14-3 1 3 8 3 14 3zM48 32c6-10 16-10 14-3-1 3-8 3-14 3z" />
      <path d="M42 53a6 6 0 1 1 8 5.6V62" opacity=".8" />
    </>
  ),
  // A receipt with lines and a price.
  orders: (
    <>
      <path d="M28 18h40v60l-6-4-7 4-7-4-7 4-7-4-6 4z" className="fill-skin-card" />
      <path d="M36 32h24M36 42h24M36 52h14" />
      <path d="M56 62h4" className="stroke-skin-2" />
    </>
  ),
  // A gift with a bow.
  gift: (
    <>
      <rect x="22" y="42" width="52" height="34" rx="4" className="fill-skin-card" />
      <rect x="18" y="32" width="60" height="12" rx="3" className="fill-skin-card" />
      <path d="M48 32v44" className="stroke-skin-2" />
      <path d="M48 32c-4-12-18-12-16-4 1 4 10 4 16 4zM48 32c4-12 18-12 16-4-1 4-10 4-16 4z" />
    </>
  ),
  // Two arrows going round: one thing becomes another.
  exchange: (
    <>
      <path d="M28 44a20 20 0 0 1 36-10" />
      <path d="M66 24v10H56" />
      <path d="M68 52a20 20 0 0 1-36 10" className="stroke-skin-2" />
      <path d="M30 72V62h10" className="stroke-skin-2" />
    </>
  ),
  // Three links of a chain.
  chain: (
    <>
      <rect x="14" y="40" width="28" height="16" rx="8" className="fill-skin-card" />
      <rect x="54" y="40" width="28" height="16" rx="8" className="fill-skin-card" />
      <rect x="34" y="40" width="28" height="16" rx="8" className="stroke-skin-2" />
    </>
  ),
  // A shop front with an awning.
  sales: (
    <>
      <path d="M24 44h48v30H24z" className="fill-skin-card" />
      <path d="M20 30h56l-4 14H24z" className="fill-skin-card" />
      <path d="M34 30l-2 14M48 30v14M62 30l2 14" />
      <path d="M42 74V60h12v14" className="stroke-skin-2" />
    </>
  ),
};
