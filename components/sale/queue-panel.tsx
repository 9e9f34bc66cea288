'use client';

import { useCallback, useState, useSyncExternalStore } from 'react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import useSWR from 'swr';
import { useApi } from '@/components/shell/api-provider';
import { useStorefront } from '@/components/shell/storefront-provider';
import type { ApiOutput } from '@/lib/client/api-client';
import { fillSlots, type Slotted } from '@/lib/i18n/slots';
import { subscribeClock, syncServerClock, tickedServerNow } from '@/lib/client/server-clock';
import { keepAdmission } from './queue-admission';
import { useQueueWatch } from './queue-watch';
import { QueueFrame, QueuePlaceholder } from './queue-panel-frame';
import { pollMs } from '@/lib/sale/queue-pace';

export const QUEUE_POSITION_PATH = '/market/api/queue/position';
export type QueueStanding = ApiOutput<typeof QUEUE_POSITION_PATH>;

/** The panel's texts, translated on the server (the countdowns' slots filled here). */
export type QueueLabels = {
  title: string;
  intro: string;
  opensAt: string;
  logIn: string;
  logInHint: string;
  join: string;
  joining: string;
  joined: string;
  shuffleIn: Slotted;
  shuffleNow: string;
  position: string;
  ahead: string;
  wait: string;
  waitSeconds: Slotted;
  waitMinutes: Slotted;
  copiesLeft: string;
  keepOpen: string;
  yourTurn: string;
  turnEndsIn: Slotted;
  buy: string;
  bought: string;
  expired: string;
  left: string;
  rejoin: string;
  soldOut: string;
  soldOutHint: string;
  ended: string;
  failed: string;
};

export { pollMs } from '@/lib/sale/queue-pace';

/** "1:05" / "0:09" / "1:02:03". */
export function clockText(totalSeconds: number): string {
  const s = Math.max(0, Math.ceil(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

const noClock = () => () => {};
const always = () => true;
const never = () => false;

/** The server's time, ticking (lib/client/server-clock.ts); 0 in the server's render. */
function useServerNow(): number {
  return useSyncExternalStore(subscribeClock, tickedServerNow, () => 0);
}

/**
 * A sale's waiting room on the goods page (issue 35, "First come, through a waiting room"), for the buyer in this
 * browser: joining (a tap; a visitor is asked to log in first, and no server render ever joins anyone), then their
 * place, those ahead, the wait and the copies left, kept without reloads: pushed by the server while the page's watch is
 * open (./queue-watch.ts: the turn and the sell-out at once), else read again (`queue/position`: every second near the
 * head, every few seconds further back); at their turn, a countdown of the admission's life and the buy, which
 * carries the admission to the pay page (./queue-admission); sold out, an admission run out, a place lost: said so.
 */
export function QueuePanel({
  saleId,
  joinOpensAt,
  over,
  labels,
}: {
  saleId: string;
  /** When joining opens (ms since the epoch, the server's clock). */
  joinOpensAt: number;
  /** Sold out or ended when the page was rendered: nothing to join. */
  over: 'soldOut' | 'ended' | null;
  labels: QueueLabels;
}) {
  const api = useApi();
  const router = useRouter();
  // The store's buyer is this browser's, not the server's render's: the standing waits for the page to be live.
  const live = useSyncExternalStore(noClock, always, never);
  const phone = useStorefront((s) => s.user.phone);
  const signedIn = live && phone !== null;
  // The pace of reads follows the standing (a number, not a function: SWR restarts its timer when the option changes,
  // and the clock below re-renders the panel four times a second).
  const [poll, setPoll] = useState(0);
  const { data, error, mutate } = useSWR<QueueStanding>(signedIn && !over ? [QUEUE_POSITION_PATH, { saleId }] : null, {
    refreshInterval: poll,
    refreshWhenHidden: true,
    revalidateOnFocus: true,
    dedupingInterval: 500,
  });
  // While the watch is open the server pushes every change (lib/sale/queue-watch.ts): no polling then.
  const active = data?.status === 'waiting' || data?.status === 'queued' || data?.status === 'admitted';
  const watch = useQueueWatch(api, saleId, signedIn && !over && active, (standing) => {
    void mutate(standing as QueueStanding, { revalidate: false });
  });
  const watching = watch.open;
  const pace = watching ? 0 : pollMs(data);
  if (pace !== poll) setPoll(pace);
  const [joining, setJoining] = useState(false);
  const now = useServerNow();
  if (live) void syncServerClock();

  // The tap joins through the watch itself: one call that answers the place and stays open (a crowd joining in the
  // last seconds costs one request each, not a join and then a watch).
  const join = useCallback(async () => {
    setJoining(true);
    try {
      await watch.join();
    } finally {
      setJoining(false);
    }
  }, [watch]);

  if (over)
    return (
      <Outcome
        title={labels.title}
        text={over === 'soldOut' ? labels.soldOut : labels.ended}
        hint={over === 'soldOut' ? labels.soldOutHint : null}
        testId={`queue-${over}`}
      />
    );
  if (!live) return <QueuePlaceholder title={labels.title} />;
  if (!signedIn) {
    const href = `/login?redirect=${encodeURIComponent(`/goods/detail/${saleId}`)}`;
    return (
      <QueueFrame title={labels.title}>
        <p className="text-sm text-neutral-600">{labels.logInHint}</p>
        <Link href={href} data-testid="queue-login" className={`${BUTTON} mt-auto bg-skin-button text-skin-button-text`}>
          {labels.logIn}
        </Link>
      </QueueFrame>
    );
  }
  if (!data) {
    if (error) {
      return (
        <QueueFrame title={labels.title}>
          <p className="text-sm text-neutral-600" role="status">
            {labels.failed}
          </p>
        </QueueFrame>
      );
    }
    return <QueuePlaceholder title={labels.title} />;
  }
  return (
    <QueueView
      standing={data}
      now={now}
      joinOpensAt={joinOpensAt}
      labels={labels}
      joining={joining}
      onJoin={join}
      onBuy={() => {
        if (data.admission && data.admissionExpiresAt) keepAdmission(saleId, data.admission, Date.parse(data.admissionExpiresAt));
        router.push(`/pay/${saleId}`);
      }}
    />
  );
}

const BUTTON =
  'flex h-[0.8rem] w-full items-center justify-center rounded-full text-base font-semibold whitespace-nowrap active:scale-95 motion-reduce:active:scale-100';

function Outcome({ title, text, hint, testId }: { title: string; text: string; hint: string | null; testId: string }) {
  return (
    <QueueFrame title={title}>
      <p className="text-lg font-semibold text-skin-1" role="status" data-testid={testId}>
        {text}
      </p>
      {hint && <p className="mt-1 text-sm text-neutral-600">{hint}</p>}
    </QueueFrame>
  );
}

/** What the panel says for one standing: a pure view of it and the server's time (`now`, ms; 0 before the clock runs). */
export function QueueView({
  standing,
  now,
  joinOpensAt,
  labels,
  joining,
  onJoin,
  onBuy,
}: {
  standing: QueueStanding;
  now: number;
  joinOpensAt: number;
  labels: QueueLabels;
  joining: boolean;
  onJoin: () => void;
  onBuy: () => void;
}) {
  const joinButton = (text: string) => (
    <button
      type="button"
      onClick={onJoin}
      disabled={joining}
      data-testid="queue-join"
      className={`${BUTTON} mt-auto bg-skin-button text-skin-button-text shadow-card disabled:opacity-60`}
    >
      {joining ? labels.joining : text}
    </button>
  );
  switch (standing.status) {
    case 'notJoined':
      if (now > 0 && now < joinOpensAt) {
        return (
          <QueueFrame title={labels.title}>
            <p className="text-sm text-neutral-600">{labels.intro}</p>
            <span data-testid="queue-opens-at" aria-disabled="true" className={`${BUTTON} mt-auto bg-neutral-200 text-sm text-neutral-600`}>
              {labels.opensAt}
            </span>
          </QueueFrame>
        );
      }
      return (
        <QueueFrame title={labels.title}>
          <p className="text-sm text-neutral-600">{labels.intro}</p>
          {joinButton(labels.join)}
        </QueueFrame>
      );
    case 'left':
    case 'expired':
      return (
        <QueueFrame title={labels.title}>
          <p className="text-sm font-semibold text-skin-1" role="status" data-testid={`queue-${standing.status}`}>
            {standing.status === 'left' ? labels.left : labels.expired}
          </p>
          {joinButton(labels.rejoin)}
        </QueueFrame>
      );
    case 'waiting': {
      const shuffleIn = now > 0 ? (Date.parse(standing.shuffleAt) - now) / 1000 : (standing.estimatedWaitSeconds ?? 0);
      return (
        <QueueFrame title={labels.title}>
          <p className="text-sm font-semibold text-skin-1" data-testid="queue-waiting">
            {labels.joined}
          </p>
          <p className="mt-1 text-sm text-neutral-600 tabular-nums" role="timer" aria-live="off">
            {shuffleIn > 0 ? fillSlots(labels.shuffleIn, { countdown: clockText(shuffleIn) }) : labels.shuffleNow}
          </p>
          <Figures standing={standing} labels={labels} />
        </QueueFrame>
      );
    }
    case 'queued':
      return (
        <QueueFrame title={labels.title}>
          <Figures standing={standing} labels={labels} />
          <p className="mt-2 text-xs text-neutral-500">{labels.keepOpen}</p>
        </QueueFrame>
      );
    case 'admitted': {
      const end = standing.admissionExpiresAt ? Date.parse(standing.admissionExpiresAt) : 0;
      const left = now > 0 ? (end - now) / 1000 : 0;
      return (
        <QueueFrame title={labels.title}>
          <p className="text-lg font-semibold text-skin-sign" role="status" data-testid="queue-admitted">
            {labels.yourTurn}
          </p>
          <p className="mt-1 text-sm text-neutral-600 tabular-nums" role="timer" aria-live="off" data-testid="queue-turn-ends">
            {fillSlots(labels.turnEndsIn, { countdown: clockText(left) })}
          </p>
          <button
            type="button"
            onClick={onBuy}
            data-testid="queue-buy"
            className={`${BUTTON} mt-auto bg-skin-button text-skin-button-text shadow-card`}
          >
            {labels.buy}
          </button>
        </QueueFrame>
      );
    }
    case 'bought':
      return <Outcome title={labels.title} text={labels.bought} hint={null} testId="queue-bought" />;
    case 'soldOut':
      return <Outcome title={labels.title} text={labels.soldOut} hint={labels.soldOutHint} testId="queue-soldOut" />;
    case 'ended':
      return <Outcome title={labels.title} text={labels.ended} hint={null} testId="queue-ended" />;
  }
}

/** Place, ahead, wait and copies left: a dash for what is not known yet (before the shuffle, no place). */
function Figures({ standing, labels }: { standing: QueueStanding; labels: QueueLabels }) {
  const wait = standing.status === 'queued' ? standing.estimatedWaitSeconds : null;
  const waitText =
    wait === null
      ? '–'
      : wait < 60
        ? fillSlots(labels.waitSeconds, { seconds: String(Math.max(1, wait)) })
        : fillSlots(labels.waitMinutes, { minutes: String(Math.ceil(wait / 60)) });
  const rows: [string, string, string][] = [
    [labels.position, standing.position === null ? '–' : `#${standing.position}`, 'queue-position'],
    [labels.ahead, standing.ahead === null ? '–' : String(standing.ahead), 'queue-ahead'],
    [labels.wait, waitText, 'queue-wait'],
    [labels.copiesLeft, String(standing.copiesLeft), 'queue-copies-left'],
  ];
  return (
    <dl className="mt-2 grid grid-cols-4 gap-2 text-center">
      {rows.map(([label, value, testId]) => (
        <div key={testId} className="flex flex-col rounded-lg bg-skin-light px-1 py-2">
          <dt className="text-xs text-neutral-500">{label}</dt>
          <dd className="mt-0.5 text-base font-semibold text-skin-1 tabular-nums" data-testid={testId}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
