'use client';

import { useHydrated } from '@/lib/client/use-hydrated';
import Link from 'next/link';
import { useCallback, useSyncExternalStore, type ReactNode } from 'react';
import useSWR from 'swr';
import { StorefrontProvider, useStorefront } from '@/components/shell/storefront-provider';
import { subscribeClock, tickedServerNow } from '@/lib/client/server-clock';
import type { RenderedSale } from '@/lib/sale/status';
import { BuyAction, type BuyActionLabels } from './buy-action';

export const PRIORITY_STATUS_URL = '/api/market/api/priority/status';

/** The buyer's standing for a sale's priority purchase (`priority/status`). */
export type PriorityStanding = {
  opensAt: string;
  saleStartsAt: string;
  decideAt: string;
  decided: boolean;
  eligible: boolean;
  reasons: ('holder' | 'orders' | 'whitelist')[];
};

/** The island's texts, translated on the server with the times in the channel's zone (the page is the same for all). */
export type PriorityTexts = {
  /** Before the decision: "Eligibility is decided at 19:40." */
  decidesAt: string;
  /** An eligible buyer: "You can buy from 19:50 (priority purchase)." */
  eligible: string;
  /** Not eligible: "… the sale opens to everyone at 20:00." */
  notEligible: string;
  /** A visitor (not logged in in this browser): a link to log in and come back. */
  logIn: string;
  /** The eligible buyer's countdown's accessible name: their own opening. */
  earlyOpensAt: string;
};

type Envelope = { code?: unknown; data?: unknown };

/** The standing, or null when the session is not the server's (a visitor after all) or the sale has no priority. */
async function fetchStanding([, saleId]: readonly [string, string]): Promise<PriorityStanding | null> {
  const locale = document.documentElement.lang;
  const response = await fetch(PRIORITY_STATUS_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(locale ? { 'accept-language': locale } : {}) },
    body: JSON.stringify({ saleId }),
    credentials: 'same-origin',
  });
  const answer = (await response.json().catch(() => ({}))) as Envelope;
  if (response.status === 401 || answer.code === 401) return null;
  if (answer.code !== 200 || typeof answer.data !== 'object' || answer.data === null) throw new Error('priority/status failed');
  return (answer.data as { priority: PriorityStanding | null }).priority;
}

export type PriorityBarProps = {
  saleId: string;
  sale: RenderedSale;
  /** When eligibility is decided (ISO): from then on the standing is asked again until it says decided. */
  decideAt: string;
  renderedAt: number;
  /** The everyday bar's texts (components/sale/buy-action.tsx). */
  labels: BuyActionLabels;
  texts: PriorityTexts;
  showAmount: boolean;
  /** What goes before the button in the bar (the price). */
  children?: ReactNode;
};

/**
 * The buy bar of a sale with priority purchase (issue 35), before its opening, loaded when rendered
 * (./priority-island.tsx): above the button, the buyer's standing (`priority/status`: decided when, eligible from when,
 * or not eligible and when the sale opens to everyone); the button counts down to the buyer's own opening and turns into
 * "Buy now" then, so an eligible buyer buys in the early window. Everyone else gets the everyday bar.
 */
export default function PriorityWithStore({ showAmount, ...props }: PriorityBarProps) {
  return (
    <StorefrontProvider showAmount={showAmount}>
      <PriorityBar {...props} />
    </StorefrontProvider>
  );
}

function PriorityBar({ saleId, sale, decideAt, renderedAt, labels, texts, children }: Omit<PriorityBarProps, 'showAmount'>) {
  const phone = useStorefront((s) => s.user.phone);
  // False on the server and in hydration (the server's HTML), true after: a stored phone is read then.
  const mounted = useHydrated();
  const now = useSyncExternalStore(subscribeClock, tickedServerNow, () => renderedAt);
  // Once the decision is due and until the store says it was made, the standing is asked again every few seconds. Kept
  // the same function between renders (the clock renders four times a second); it changes once, when the decision falls
  // due.
  const decisionDue = now >= new Date(decideAt).getTime();
  const refreshInterval = useCallback(
    (latest: PriorityStanding | null | undefined) => (decisionDue && latest && !latest.decided ? 3000 : 0),
    [decisionDue],
  );
  const { data } = useSWR(mounted && phone ? (['priority/status', saleId] as const) : null, fetchStanding, {
    revalidateOnFocus: true,
    shouldRetryOnError: false,
    refreshInterval,
  });

  let line: ReactNode = '';
  if (mounted && !phone)
    line = (
      <Link
        href={`/login?redirect=${encodeURIComponent(`/goods/detail/${saleId}`)}`}
        className="underline underline-offset-2"
        data-testid="priority-log-in"
      >
        {texts.logIn}
      </Link>
    );
  else if (data) line = !data.decided ? texts.decidesAt : data.eligible ? texts.eligible : texts.notEligible;
  const early = data?.decided === true && data.eligible;

  return (
    <>
      <p className="min-h-[1lh] text-xs text-neutral-600" data-testid="priority-standing" role="status">
        {line}
      </p>
      <div className="flex items-center gap-3">
        {children}
        {early ? (
          <BuyAction
            sale={{ ...sale, saleStartTime: data.opensAt }}
            saleId={saleId}
            renderedAt={renderedAt}
            labels={{ ...labels, opensAt: texts.earlyOpensAt }}
          />
        ) : (
          <BuyAction sale={sale} saleId={saleId} renderedAt={renderedAt} labels={labels} />
        )}
      </div>
    </>
  );
}
