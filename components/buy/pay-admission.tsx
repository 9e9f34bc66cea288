'use client';

import { useEffect, useState, useSyncExternalStore } from 'react';
import Link from 'next/link';
import { useTranslations } from 'use-intl';
import { keptAdmissionText, parseKept } from '@/components/sale/queue-admission';

/**
 * The buyer's admission at the pay page of a sale through a waiting room (issue 35): the page's HTML is shared, so this
 * is read in the browser, from the admission the goods page kept in the tab (components/sale/queue-admission.ts).
 * `checking` until the browser has read it (the server render and hydration), `none` without one, `live` with the
 * seconds it has left (ticking), `ended` once it ran out.
 */
export type PayAdmission =
  { state: 'checking' } | { state: 'none' } | { state: 'live'; token: string; secondsLeft: number } | { state: 'ended' };

const noSubscription = () => () => {};

export function usePayAdmission(saleId: string): PayAdmission {
  // undefined on the server and while hydrating; the stored text (a stable string) or null in the browser.
  const raw = useSyncExternalStore<string | null | undefined>(
    noSubscription,
    () => keptAdmissionText(saleId),
    () => undefined,
  );
  const kept = raw === undefined ? undefined : parseKept(raw);
  const [now, setNow] = useState(() => Date.now());
  const end = kept?.expiresAt ?? 0;
  const left = end - now;
  // A tick at each whole second left, until the end: the countdown, then "ended" on time.
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), left % 1000 || 1000);
    return () => clearTimeout(timer);
  }, [left]);
  if (kept === undefined) return { state: 'checking' };
  if (kept === null) return { state: 'none' };
  if (left <= 0) return { state: 'ended' };
  return { state: 'live', token: kept.token, secondsLeft: Math.ceil(left / 1000) };
}

/** "1:05": minutes and seconds. */
export function clockOf(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * What the pay page says of the buyer's admission (issue 35): their turn with its countdown, or that the sale goes
 * through a waiting room (never joined, or the admission ran out) with the way back to the goods page to join.
 */
export function PayAdmissionNote({ admission, saleId }: { admission: PayAdmission; saleId: string }) {
  const t = useTranslations('pay');
  const box = 'rounded-lg bg-skin-light px-3 py-2 text-xs leading-snug text-skin-1';
  switch (admission.state) {
    case 'checking':
      return null;
    case 'live':
      return (
        <p className={`${box} font-semibold tabular-nums`} role="timer" aria-live="off" data-testid="pay-admission-live">
          {t('queueTurn', { countdown: clockOf(admission.secondsLeft) })}
        </p>
      );
    case 'none':
    case 'ended':
      return (
        <p role="note" className={box} data-testid={admission.state === 'none' ? 'pay-admission-none' : 'pay-admission-ended'}>
          {admission.state === 'none' ? t('queueNeeded') : t('queueTurnEnded')}{' '}
          <Link
            href={`/goods/detail/${saleId}`}
            className="font-semibold whitespace-nowrap underline underline-offset-2"
            data-testid="pay-join-queue"
          >
            {admission.state === 'none' ? t('queueJoin') : t('queueJoinAgain')}
          </Link>
        </p>
      );
  }
}
