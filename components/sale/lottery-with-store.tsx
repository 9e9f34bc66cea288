'use client';

import { useHydrated } from '@/lib/client/use-hydrated';
import { useCallback, useRef, useState, useSyncExternalStore } from 'react';
import { useRouter } from 'next/navigation';
import useSWR from 'swr';
import { useTranslations, type AbstractIntlMessages } from 'use-intl';
import { StorefrontProvider, useStorefront } from '@/components/shell/storefront-provider';
import { MessagesProvider } from '@/components/shell/messages-provider';
import { showToast } from '@/components/ui/toast';
import { subscribeClock, tickedServerNow } from '@/lib/client/server-clock';
import type { Locale } from '@/lib/i18n/locale';
import { LotteryPanelView, type BuyerState, type LotteryStanding, type LotteryTimes, type RegisterRefusal } from './lottery-panel';

export const LOTTERY_STATUS_URL = '/api/market/api/lottery/status';
export const LOTTERY_REGISTER_URL = '/api/market/api/lottery/register';

/** The identity gate's code (lib/identity/gate.ts): the channel asks a verified real name (or an age) first. */
const IDENTITY_CODE = 1010;

type Envelope = { code?: unknown; message?: unknown; data?: unknown };

/** A call of the lottery's with the session cookie; a plain fetch (a session that ran out leaves a visitor, not a redirect). */
async function call(url: string, saleId: string): Promise<Envelope & { status: number }> {
  const locale = document.documentElement.lang;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(locale ? { 'accept-language': locale } : {}) },
    body: JSON.stringify({ saleId }),
    credentials: 'same-origin',
  });
  const body = (await response.json().catch(() => ({}))) as Envelope;
  return { ...body, status: response.status };
}

/** The standing, or null for a session the server does not know (a visitor after all). */
async function fetchStanding([, saleId]: readonly [string, string]): Promise<LotteryStanding | null> {
  const answer = await call(LOTTERY_STATUS_URL, saleId);
  if (answer.status === 401 || answer.code === 401) return null;
  if (answer.code !== 200 || typeof answer.data !== 'object' || answer.data === null) throw new Error('lottery/status failed');
  return answer.data as LotteryStanding;
}

export type LotteryPanelProps = {
  saleId: string;
  times: LotteryTimes;
  timeZone: string;
  locale: Locale;
  /** The `lottery` namespace of the page's language (lib/i18n/pick-messages.ts), picked on the server. */
  messages: AbstractIntlMessages;
  showAmount: boolean;
  /** The server's time of the render: the first paint in the browser matches the server's HTML. */
  renderedAt: number;
  verify: { href: string; label: string };
  /**
   * The page shows the channel's real-name line above the bar already (components/sale/goods-identity-island.tsx), with
   * the way to verify for a buyer who has not: a registration refused for it (1010) is said in a toast, not in a second
   * line with the same link.
   */
  identityShown: boolean;
};

/**
 * The lottery's buy bar with what it reads (issue 35), loaded when a lottery sale's goods page is rendered
 * (./lottery-island.tsx): the client store (whether this browser has logged in), the buyer's standing through SWR
 * (`lottery/status`, asked again every few seconds once the draw is due and until it ran), registration, and the
 * server's clock for the countdowns.
 */
export default function LotteryWithStore({ locale, timeZone, messages, showAmount, ...props }: LotteryPanelProps) {
  return (
    <StorefrontProvider showAmount={showAmount}>
      <MessagesProvider locale={locale} timeZone={timeZone} messages={messages}>
        <LotteryPanel {...props} timeZone={timeZone} />
      </MessagesProvider>
    </StorefrontProvider>
  );
}

function LotteryPanel({
  saleId,
  times,
  timeZone,
  renderedAt,
  verify,
  identityShown,
}: Omit<LotteryPanelProps, 'locale' | 'messages' | 'showAmount'>) {
  const t = useTranslations('lottery');
  const router = useRouter();
  const phone = useStorefront((s) => s.user.phone);
  // False on the server and in hydration (the server's HTML: a placeholder), true after: a stored phone is read then.
  const mounted = useHydrated();
  const now = useSyncExternalStore(subscribeClock, tickedServerNow, () => renderedAt);

  const drawDue = now >= new Date(times.drawAt).getTime();
  // Once the draw is due and until it ran, the result is asked every few seconds: a winner learns it without a reload.
  // Kept the same function between renders (the clock renders four times a second, and SWR restarts its timer when
  // this changes); it changes once, when the draw falls due.
  const refreshInterval = useCallback(
    (latest: LotteryStanding | null | undefined) => (drawDue && latest && latest.status !== 'notRegistered' && !latest.drawn ? 3000 : 0),
    [drawDue],
  );
  const { data, error, mutate } = useSWR(mounted && phone ? (['lottery/status', saleId] as const) : null, fetchStanding, {
    revalidateOnFocus: true,
    shouldRetryOnError: false,
    refreshInterval,
  });

  const [registering, setRegistering] = useState(false);
  const [refusal, setRefusal] = useState<RegisterRefusal | null>(null);
  const inFlight = useRef(false);

  const register = useCallback(async () => {
    // A double tap registers once: the second tap finds the first one in flight (and the server answers a repeat alike).
    if (inFlight.current) return;
    inFlight.current = true;
    setRegistering(true);
    setRefusal(null);
    try {
      const answer = await call(LOTTERY_REGISTER_URL, saleId);
      if (answer.status === 401 || answer.code === 401) {
        router.push(`/login?redirect=${encodeURIComponent(`/goods/detail/${saleId}`)}`);
        return;
      }
      if (answer.code === 200) {
        await mutate(answer.data as LotteryStanding, { revalidate: false });
        return;
      }
      const message = typeof answer.message === 'string' ? answer.message : '';
      if (answer.code === IDENTITY_CODE && identityShown) showToast('warn', message);
      else setRefusal({ message, identity: answer.code === IDENTITY_CODE });
    } catch {
      setRefusal({ message: t('failed'), identity: false });
      void mutate();
    } finally {
      inFlight.current = false;
      setRegistering(false);
    }
  }, [saleId, mutate, t, router, identityShown]);

  let buyer: BuyerState;
  if (!mounted) buyer = { kind: 'pending' };
  else if (!phone || data === null) buyer = { kind: 'visitor' };
  else if (data) buyer = { kind: 'standing', standing: data };
  else if (error) buyer = { kind: 'failed' };
  else buyer = { kind: 'loading' };

  return (
    <LotteryPanelView
      saleId={saleId}
      times={times}
      timeZone={timeZone}
      now={now}
      buyer={buyer}
      registering={registering}
      refusal={refusal}
      verify={verify}
      onRegister={() => void register()}
      onRetry={() => void mutate()}
    />
  );
}
