'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { useTranslations } from 'use-intl';
import type { ApiOutput } from '@/lib/client/api-client';
import { formatDate } from '@/lib/format/date';
import { clockText, countdownParts } from '@/lib/format/countdown';
import { IdentityNotice } from '@/components/identity/identity-notice';

/** The buyer's standing in a lottery sale, as `lottery/status` (and `lottery/register`) answer it (issue 35). */
export type LotteryStanding = ApiOutput<'/market/api/lottery/status'>;

/** A lottery's times as the goods page renders them (ISO 8601). */
export type LotteryTimes = { registrationOpensAt: string; registrationClosesAt: string; drawAt: string };

/**
 * What the panel knows of this browser's buyer: `pending` until the browser has looked (the server's HTML and the first
 * paint: a placeholder of the final size), `visitor` when not signed in, `loading` while their standing is asked,
 * `failed` when it could not be, else their standing.
 */
export type BuyerState =
  { kind: 'pending' } | { kind: 'visitor' } | { kind: 'loading' } | { kind: 'failed' } | { kind: 'standing'; standing: LotteryStanding };

/** A registration the server refused: its message in the page's language; `identity` for code 1010 (verify first). */
export type RegisterRefusal = { message: string; identity: boolean };

export type LotteryPanelViewProps = {
  saleId: string;
  times: LotteryTimes;
  timeZone: string;
  /** The server's time now, milliseconds (lib/client/server-clock.ts). */
  now: number;
  buyer: BuyerState;
  registering: boolean;
  refusal: RegisterRefusal | null;
  /** The verification page that brings the buyer back here (issue 33), for a registration refused with 1010. */
  verify: { href: string; label: string };
  onRegister: () => void;
  onRetry: () => void;
};

const BASE = 'flex h-[0.88rem] flex-1 items-center justify-center rounded-full px-3 text-base font-semibold whitespace-nowrap tabular-nums';
const ACTIVE = `${BASE} bg-skin-button text-skin-button-text shadow-card active:scale-95 motion-reduce:active:scale-100`;
const INACTIVE = `${BASE} bg-neutral-200 text-neutral-500`;

const at = (iso: string) => new Date(iso).getTime();

/**
 * The goods page's buy bar for a lottery sale (issue 35): one line of the buyer's standing above one button. Every
 * state keeps the same size (the line holds two lines of text, empty or not; the button its height), so nothing on the
 * page moves when the standing arrives. Pure: the clock, the standing and the registration come from
 * ./lottery-with-store.tsx.
 */
export function LotteryPanelView(props: LotteryPanelViewProps) {
  const t = useTranslations('lottery');
  const { line, action } = content(props, t);
  const short = (iso: string) => formatDate(iso, 'MM-dd HH:mm', props.timeZone);
  // Nothing of the buyer's to say (yet): the window and the draw, so the line's room is never an empty gap.
  const shown = line ?? (
    <Line testId="lottery-window-line">
      {t('windowLine', {
        opens: short(props.times.registrationOpensAt),
        closes: short(props.times.registrationClosesAt),
        draw: short(props.times.drawAt),
      })}
    </Line>
  );
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-1.5" data-testid="lottery-panel" data-state={stateName(props)}>
      <div className="min-h-[2lh] text-xs leading-snug" aria-live="polite" data-testid="lottery-standing">
        {shown}
      </div>
      <div className="flex">{action}</div>
    </div>
  );
}

type T = ReturnType<typeof useTranslations<'lottery'>>;

function countdown(t: T, ms: number): string {
  const parts = countdownParts(Math.ceil(ms / 1000));
  const clock = clockText(parts);
  return parts.days > 0 ? t('countdownDays', { days: parts.days, clock }) : clock;
}

/** A name for the state, for tests and the e2e spec to wait on. */
function stateName({ buyer, now, times }: LotteryPanelViewProps): string {
  if (buyer.kind === 'standing') {
    const s = buyer.standing;
    if (s.status === 'winner') return s.mayBuy ? 'winner' : 'windowOver';
    if (s.status !== 'notRegistered') return s.status;
    return now >= at(times.registrationClosesAt) ? 'missed' : now < at(times.registrationOpensAt) ? 'notOpen' : 'open';
  }
  return buyer.kind;
}

function Line({ children, tone = 'plain', testId }: { children: ReactNode; tone?: 'plain' | 'skin'; testId?: string }) {
  return (
    <p
      className={tone === 'skin' ? 'rounded-lg bg-skin-light px-3 py-1.5 text-skin-1' : 'px-1 py-1.5 text-neutral-600'}
      data-testid={testId}
    >
      {children}
    </p>
  );
}

function Inactive({ children, timer, label }: { children: ReactNode; timer?: boolean; label?: string }) {
  return (
    <span
      data-testid="lottery-button"
      aria-disabled="true"
      {...(timer ? { role: 'timer', 'aria-live': 'off' as const, 'aria-label': label } : {})}
      className={INACTIVE}
    >
      {children}
    </span>
  );
}

function content(props: LotteryPanelViewProps, t: T): { line: ReactNode; action: ReactNode } {
  const { buyer, now, times, timeZone, saleId } = props;
  const opens = at(times.registrationOpensAt);
  const closes = at(times.registrationClosesAt);
  const drawAt = at(times.drawAt);
  const time = (iso: string) => formatDate(iso, 'yyyy-MM-dd HH:mm', timeZone);

  if (buyer.kind === 'standing' && buyer.standing.status !== 'notRegistered') {
    const s = buyer.standing;
    if (s.status === 'registered') {
      const due = now >= drawAt;
      return {
        line: (
          <Line tone="skin" testId="lottery-registered">
            {t('registered', { account: s.accountNumber ?? '' })}
          </Line>
        ),
        action: due ? (
          <Inactive>{s.drawn ? t('waiting') : t('drawDue')}</Inactive>
        ) : (
          <Inactive timer label={t('drawIn', { countdown: time(times.drawAt) })}>
            {t('drawIn', { countdown: countdown(t, drawAt - now) })}
          </Inactive>
        ),
      };
    }
    if (s.status === 'winner') {
      const ends = s.purchaseEndsAt ? at(s.purchaseEndsAt) : 0;
      if (s.mayBuy && now < ends) {
        return {
          line: (
            <Line tone="skin" testId="lottery-winner">
              <span role="timer" aria-live="off">
                {t('winner', { countdown: countdown(t, ends - now) })}
              </span>
            </Line>
          ),
          action: (
            <Link href={`/pay/${saleId}`} data-testid="lottery-button" className={ACTIVE}>
              {t('buy')}
            </Link>
          ),
        };
      }
      return {
        line: <Line testId="lottery-window-over">{t('windowOver', { time: s.purchaseEndsAt ? time(s.purchaseEndsAt) : '' })}</Line>,
        action: <Inactive>{t('windowOverButton')}</Inactive>,
      };
    }
    // The waitlist: their place, and what may still come to them.
    return {
      line: (
        <Line tone="skin" testId="lottery-waitlist">
          {t('waitlist', { position: s.waitlistPosition ?? 0 })}
        </Line>
      ),
      action: <Inactive>{t('waitlistButton')}</Inactive>,
    };
  }

  // Not registered (or not known yet): the window decides.
  if (now < opens) {
    return {
      line: null,
      action: (
        <Inactive timer label={t('opensIn', { countdown: time(times.registrationOpensAt) })}>
          {t('opensIn', { countdown: countdown(t, opens - now) })}
        </Inactive>
      ),
    };
  }
  if (now >= closes) {
    const missed = buyer.kind === 'standing';
    return {
      line: missed ? <Line testId="lottery-missed">{t('missed', { time: time(times.registrationClosesAt) })}</Line> : null,
      action: <Inactive>{t('closed')}</Inactive>,
    };
  }
  if (buyer.kind === 'failed') {
    return {
      line: <Line>{t('failed')}</Line>,
      action: (
        <button type="button" onClick={props.onRetry} data-testid="lottery-button" className={ACTIVE}>
          {t('retry')}
        </button>
      ),
    };
  }
  if (buyer.kind === 'visitor') {
    // A visitor logs in first and comes back here to register.
    const back = `/goods/detail/${saleId}`;
    return {
      line: null,
      action: (
        <Link href={`/login?redirect=${encodeURIComponent(back)}`} data-testid="lottery-button" className={ACTIVE}>
          {t('register')}
        </Link>
      ),
    };
  }
  if (buyer.kind === 'pending' || buyer.kind === 'loading') {
    // The button's place, its size kept, until the standing says what it is.
    return {
      line: null,
      action: (
        <span data-testid="lottery-button" aria-busy="true" aria-label={t('checking')} className={`${INACTIVE} text-transparent`}>
          {t('register')}
        </span>
      ),
    };
  }
  const refusal = props.refusal;
  return {
    line: refusal ? (
      refusal.identity ? (
        <IdentityNotice message={refusal.message} verify={props.verify} />
      ) : (
        <p role="alert" className="px-1 py-1.5 text-skin-sign" data-testid="lottery-refusal">
          {refusal.message}
        </p>
      )
    ) : null,
    action: (
      <button
        type="button"
        onClick={props.onRegister}
        disabled={props.registering}
        aria-disabled={props.registering}
        data-testid="lottery-button"
        className={props.registering ? INACTIVE : ACTIVE}
      >
        {props.registering ? t('registering') : t('register')}
      </button>
    ),
  };
}
