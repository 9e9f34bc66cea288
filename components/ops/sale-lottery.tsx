'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { createTranslator } from 'use-intl/core';
import type { Locale } from '@/lib/i18n/locale';
import type { Messages } from '@/lib/i18n/messages/en';
import { consoleCall } from './console-call';
import { useConsoleSave } from './use-console-save';
import { ConsoleError, ConsoleField, FieldError } from './field';
import { fromLotteryInput, lotteryMoment, toLotteryInput } from './sale-lottery-time';
import { SaleQueue, type QueueConsoleView } from './sale-queue';

/** The lottery's words (`ops.lottery`), handed down by the server page in the operator's language. */
export type LotteryWords = Messages['ops']['lottery'];

/** A sale's lottery as the console's call answers it (`/ops/api/sale/lottery`): times as ISO moments. */
export type LotteryConsoleView = {
  copies: number;
  registrationOpensAt: string;
  registrationClosesAt: string;
  drawAt: string;
  purchaseWindowMinutes: number;
  publicValueSource: string;
  commitment: string;
  frozen: boolean;
  registrants: number;
  drawnAt: string | null;
  publicValue: string | null;
  listHash: string | null;
  /** The purchase rounds opened so far: round 1 the winners, each later one the next on the waitlist (docs/drops.md). */
  rounds?: { round: number; from: number; through: number; opensAt: string; endsAt: string }[];
};

/** What the draw published, as the page shows it: the winners' account numbers and the waitlist's size. */
export type LotteryResult = { winners: string[]; waitlist: number };

const BUTTON = 'rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60';
const DANGER = 'rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60';
const SMALL =
  'rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-800 hover:bg-gray-50 disabled:opacity-60';

const FIELDS = ['registrationOpensAt', 'registrationClosesAt', 'drawAt', 'purchaseWindowMinutes', 'publicValueSource'] as const;
type FieldName = (typeof FIELDS)[number];

/** The longest a page waits in one timer before it reads the lottery again (setTimeout's limit is about 24.8 days). */
const MAX_WAIT_MS = 2 ** 31 - 1;

/**
 * A sale's allocation (issue 35, "Lottery (抽签)"): first come, or a lottery with its registration window, draw time,
 * winners' purchase window and the public value's source. Once saved: the commitment (public from then on) with a copy
 * button and the registrants so far; once registration opened, the settings read-only with the reason. From the draw's
 * time: the public value entered beside its source's words and a confirmation (the draw runs once), then the result
 * with a link to the buyers' verify page. Owners and managers write; support reads.
 *
 * The page reads the lottery again when registration opens and when the draw's time comes, so what shows is what the
 * server holds then.
 */
export function SaleLottery({
  locale,
  channel,
  sale,
  timeZone,
  copies,
  canWrite,
  initial,
  queue,
  result,
  verifyUrl,
  renderedAt,
  words,
}: {
  locale: Locale;
  channel: string;
  sale: string;
  timeZone: string;
  /** The sale's copies: the winners a lottery set up now would draw. */
  copies: number;
  canWrite: boolean;
  initial: LotteryConsoleView | null;
  /** The sale's waiting room, when it goes through one (issue 35). */
  queue: QueueConsoleView | null;
  result: LotteryResult | null;
  /** The buyers' page that checks this draw, on the channel's host. */
  verifyUrl: string;
  /** The server's clock when it rendered the page (ms), so the browser's first render matches it. */
  renderedAt: number;
  words: LotteryWords;
}) {
  const t = useMemo(() => createTranslator({ locale, messages: { w: words }, namespace: 'w' }), [locale, words]);
  const [mode, setMode] = useState<'firstCome' | 'lottery' | 'queue'>(initial ? 'lottery' : queue ? 'queue' : 'firstCome');
  // A lottery's commitment is public from its setup, so it stays a lottery; a waiting room may still become a lottery
  // until joining opens (lib/sale/lottery.ts), and has no way back to plain first come (no call: docs/drops.md).
  const settled = initial !== null || (queue?.frozen ?? false);
  useRefreshAt(initial && !initial.frozen ? initial.registrationOpensAt : null);
  useRefreshAt(initial && !initial.drawnAt ? initial.drawAt : null);

  return (
    <section className="max-w-3xl space-y-4" aria-labelledby="sale-lottery" data-testid="sale-lottery">
      <div>
        <h2 id="sale-lottery" className="text-lg font-semibold text-gray-900">
          {t('title')}
        </h2>
        <p className="text-sm text-gray-600">{t('intro')}</p>
      </div>
      {!canWrite && <p className="text-sm text-gray-700">{t('readOnly')}</p>}
      <fieldset className="space-y-2">
        <legend className="sr-only">{t('title')}</legend>
        <ModeChoice
          name="firstCome"
          label={t('firstCome')}
          hint={initial ? t('lotteryKept') : queue ? t('queue.kept') : t('firstComeHint')}
          checked={mode === 'firstCome'}
          disabled={!canWrite || settled || queue !== null}
          onChoose={() => setMode('firstCome')}
        />
        <ModeChoice
          name="lottery"
          label={t('lottery')}
          hint={t('lotteryHint', { copies: initial?.copies ?? copies })}
          checked={mode === 'lottery'}
          disabled={!canWrite || settled}
          onChoose={() => setMode('lottery')}
        />
        <ModeChoice
          name="queue"
          label={t('queue.title')}
          hint={t('queue.hint')}
          checked={mode === 'queue'}
          disabled={!canWrite || settled}
          onChoose={() => setMode('queue')}
        />
      </fieldset>
      {mode === 'queue' && (
        <SaleQueue locale={locale} channel={channel} sale={sale} timeZone={timeZone} canWrite={canWrite} initial={queue} t={t} />
      )}
      {mode === 'lottery' && (
        <>
          {initial && <LotteryFacts view={initial} timeZone={timeZone} t={t} />}
          <LotterySettingsForm
            locale={locale}
            channel={channel}
            sale={sale}
            timeZone={timeZone}
            canWrite={canWrite}
            initial={initial}
            t={t}
          />
          {initial && !initial.drawnAt && (
            <LotteryDraw
              locale={locale}
              channel={channel}
              sale={sale}
              timeZone={timeZone}
              canWrite={canWrite}
              view={initial}
              renderedAt={renderedAt}
              t={t}
            />
          )}
          {initial?.drawnAt && <LotteryOutcome view={initial} result={result} timeZone={timeZone} verifyUrl={verifyUrl} t={t} />}
        </>
      )}
    </section>
  );
}

type T = ReturnType<typeof createTranslator<{ w: LotteryWords }, 'w'>>;
/** The Allocation section's translator (`ops.lottery`), shared with the waiting room's form (./sale-queue.tsx). */
export type AllocationT = T;

/** Reads the page again at `iso` (registration's opening, the draw's time), if that is still ahead. */
function useRefreshAt(iso: string | null) {
  const router = useRouter();
  useEffect(() => {
    if (!iso) return;
    const wait = new Date(iso).getTime() - Date.now();
    if (wait < 0 || wait > MAX_WAIT_MS) return;
    // A moment after the server's clock passed it, so the server sees it passed too.
    const timer = window.setTimeout(() => router.refresh(), wait + 500);
    return () => window.clearTimeout(timer);
  }, [iso, router]);
}

function ModeChoice({
  name,
  label,
  hint,
  checked,
  disabled,
  onChoose,
}: {
  name: string;
  label: string;
  hint: string;
  checked: boolean;
  disabled: boolean;
  onChoose: () => void;
}) {
  return (
    <label className="flex items-start gap-2 rounded-md border border-gray-200 p-3 text-sm has-[:checked]:border-blue-600 has-[:checked]:bg-blue-50">
      <input
        type="radio"
        name="sale-allocation"
        value={name}
        checked={checked}
        disabled={disabled}
        onChange={onChoose}
        aria-describedby={`allocation-${name}-hint`}
        className="mt-1"
      />
      <span>
        <span className="block font-medium text-gray-900">{label}</span>
        <span id={`allocation-${name}-hint`} className="block text-gray-700">
          {hint}
        </span>
      </span>
    </label>
  );
}

/** The commitment (public from the setup) with its copy button, the winners to draw and the registrants so far. */
function LotteryFacts({ view, timeZone, t }: { view: LotteryConsoleView; timeZone: string; t: T }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-3 rounded-md border border-gray-200 bg-gray-50 p-4 text-sm text-gray-900">
      <div>
        <p className="font-medium">{t('commitment')}</p>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <code data-testid="lottery-commitment" className="min-w-0 flex-1 rounded bg-white px-2 py-1 font-mono text-xs break-all">
            {view.commitment}
          </code>
          <button
            type="button"
            className={SMALL}
            onClick={async () => {
              await navigator.clipboard?.writeText(view.commitment).catch(() => undefined);
              setCopied(true);
            }}
          >
            {copied ? t('copied') : t('copy')}
          </button>
        </div>
        <p className="mt-1 text-gray-700">{t('commitmentPublic')}</p>
      </div>
      <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-[auto_1fr]">
        <dt className="text-gray-700">{t('copies')}</dt>
        <dd data-testid="lottery-copies">{view.copies}</dd>
        <dt className="text-gray-700">{t('registrants')}</dt>
        <dd data-testid="lottery-registrants">{view.registrants}</dd>
      </dl>
      <p className="text-gray-700">
        {t('window', {
          opens: lotteryMoment(view.registrationOpensAt, timeZone),
          closes: lotteryMoment(view.registrationClosesAt, timeZone),
        })}
      </p>
    </div>
  );
}

/** The settings of a lottery, editable until registration opens. */
function LotterySettingsForm({
  locale,
  channel,
  sale,
  timeZone,
  canWrite,
  initial,
  t,
}: {
  locale: Locale;
  channel: string;
  sale: string;
  timeZone: string;
  canWrite: boolean;
  initial: LotteryConsoleView | null;
  t: T;
}) {
  const [form, setForm] = useState({
    registrationOpensAt: toLotteryInput(initial?.registrationOpensAt ?? null, timeZone),
    registrationClosesAt: toLotteryInput(initial?.registrationClosesAt ?? null, timeZone),
    drawAt: toLotteryInput(initial?.drawAt ?? null, timeZone),
    purchaseWindowMinutes: String(initial?.purchaseWindowMinutes ?? 30),
    publicValueSource: initial?.publicValueSource ?? '',
  });
  const { errors, setErrors, busy, notice, save: send } = useConsoleSave(FIELDS, t('failed'));
  const frozen = initial?.frozen ?? false;
  const locked = !canWrite || frozen;
  const set = (key: FieldName, value: string) => setForm((f) => ({ ...f, [key]: value }));

  async function save(event: FormEvent) {
    event.preventDefault();
    const times = {
      registrationOpensAt: fromLotteryInput(form.registrationOpensAt, timeZone),
      registrationClosesAt: fromLotteryInput(form.registrationClosesAt, timeZone),
      drawAt: fromLotteryInput(form.drawAt, timeZone),
    };
    const unreadable = (Object.keys(times) as (keyof typeof times)[]).filter((k) => times[k] === null);
    if (unreadable.length > 0) {
      setErrors(Object.fromEntries(unreadable.map((k) => [k, t('badTime')])));
      return;
    }
    await send(
      '/ops/api/sale/lottery/set',
      {
        channel,
        sale,
        registrationOpensAt: times.registrationOpensAt!,
        registrationClosesAt: times.registrationClosesAt!,
        drawAt: times.drawAt!,
        // A field left empty or not a number is the server's to name (400, `purchaseWindowMinutes`).
        purchaseWindowMinutes: form.purchaseWindowMinutes.trim() === '' ? Number.NaN : Number(form.purchaseWindowMinutes),
        publicValueSource: form.publicValueSource,
      },
      locale,
      () => t('saved'),
    );
  }

  const hintOf = (hint?: string) => (frozen ? undefined : hint);
  const time = (key: 'registrationOpensAt' | 'registrationClosesAt' | 'drawAt', label: string, hint?: string) => (
    <div>
      <ConsoleField
        id={`lottery-${key}`}
        name={key}
        type="datetime-local"
        step={1}
        label={label}
        hint={hintOf(hint)}
        value={form[key]}
        disabled={locked}
        aria-invalid={errors[key] ? true : undefined}
        aria-errormessage={errors[key] ? `lottery-${key}-error` : undefined}
        onChange={(e) => set(key, e.target.value)}
      />
      <FieldError id={`lottery-${key}-error`} message={errors[key]} />
    </div>
  );

  return (
    <form onSubmit={save} className="space-y-4" noValidate data-testid="lottery-form">
      {frozen && initial && (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900" data-testid="lottery-frozen">
          {t('frozen', { at: lotteryMoment(initial.registrationOpensAt, timeZone) })}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        {time('registrationOpensAt', t('opens', { zone: timeZone }))}
        {time('registrationClosesAt', t('closes', { zone: timeZone }))}
        {time('drawAt', t('drawAt', { zone: timeZone }), t('drawAtHint'))}
        <div>
          <ConsoleField
            id="lottery-purchaseWindowMinutes"
            name="purchaseWindowMinutes"
            inputMode="numeric"
            label={t('purchaseWindowMinutes')}
            hint={hintOf(t('purchaseWindowHint'))}
            value={form.purchaseWindowMinutes}
            disabled={locked}
            aria-invalid={errors.purchaseWindowMinutes ? true : undefined}
            aria-errormessage={errors.purchaseWindowMinutes ? 'lottery-purchaseWindowMinutes-error' : undefined}
            onChange={(e) => set('purchaseWindowMinutes', e.target.value)}
          />
          <FieldError id="lottery-purchaseWindowMinutes-error" message={errors.purchaseWindowMinutes} />
        </div>
      </div>
      <div className="space-y-1">
        <label htmlFor="lottery-publicValueSource" className="block text-sm font-medium text-gray-800">
          {t('publicValueSource')}
        </label>
        <textarea
          id="lottery-publicValueSource"
          name="publicValueSource"
          rows={2}
          value={form.publicValueSource}
          disabled={locked}
          aria-describedby={frozen ? undefined : 'lottery-publicValueSource-hint'}
          aria-invalid={errors.publicValueSource ? true : undefined}
          aria-errormessage={errors.publicValueSource ? 'lottery-publicValueSource-error' : undefined}
          onChange={(e) => set('publicValueSource', e.target.value)}
          className="block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base text-gray-900 shadow-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none disabled:bg-gray-100 disabled:text-gray-600"
        />
        {!frozen && (
          <p id="lottery-publicValueSource-hint" className="text-sm text-gray-600">
            {t('publicValueSourceHint')}
          </p>
        )}
        <FieldError id="lottery-publicValueSource-error" message={errors.publicValueSource} />
      </div>
      <ConsoleError message={errors.form ?? null} />
      {notice && (
        <p role="status" className="text-sm text-green-800">
          {notice}
        </p>
      )}
      {!locked && (
        <button type="submit" className={BUTTON} disabled={busy}>
          {busy ? t('saving') : initial ? t('save') : t('setUp')}
        </button>
      )}
    </form>
  );
}

/** The draw: waiting for its time, then the public value beside its source's words, and a confirmation. */
function LotteryDraw({
  locale,
  channel,
  sale,
  timeZone,
  canWrite,
  view,
  renderedAt,
  t,
}: {
  locale: Locale;
  channel: string;
  sale: string;
  timeZone: string;
  canWrite: boolean;
  view: LotteryConsoleView;
  renderedAt: number;
  t: T;
}) {
  const router = useRouter();
  const [value, setValue] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Whether the draw's time passed: as of the server's render first (so the browser's first render is the same), then
  // by this browser's clock.
  const drawAtMs = new Date(view.drawAt).getTime();
  const [due, setDue] = useState(renderedAt >= drawAtMs);
  useEffect(() => {
    if (due) return;
    const wait = drawAtMs - Date.now();
    if (wait > MAX_WAIT_MS) return;
    const timer = window.setTimeout(() => setDue(true), Math.max(0, wait) + 500);
    return () => window.clearTimeout(timer);
  }, [due, drawAtMs]);

  async function draw() {
    setBusy(true);
    const answer = await consoleCall('/ops/api/sale/lottery/draw', { channel, sale, publicValue: value }, locale);
    setBusy(false);
    setConfirming(false);
    if (!answer.ok) {
      setError(answer.message || t('failed'));
      return;
    }
    setError(null);
    router.refresh();
  }

  return (
    <div className="space-y-3 border-t border-gray-200 pt-4" data-testid="lottery-draw">
      <h3 className="text-base font-semibold text-gray-900">{t('drawTitle')}</h3>
      {!due ? (
        <p className="text-sm text-gray-700">{t('drawWaits', { at: lotteryMoment(view.drawAt, timeZone) })}</p>
      ) : !canWrite ? (
        <p className="text-sm text-gray-700">{t('readOnly')}</p>
      ) : (
        <form
          className="space-y-3"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            setConfirming(true);
          }}
        >
          <p className="text-sm text-gray-700">{t('drawIntro')}</p>
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <ConsoleField
                id="lottery-publicValue"
                name="publicValue"
                label={t('publicValue')}
                value={value}
                disabled={busy || confirming}
                aria-invalid={error ? true : undefined}
                aria-errormessage={error ? 'lottery-publicValue-error' : undefined}
                onChange={(e) => setValue(e.target.value)}
              />
              <FieldError id="lottery-publicValue-error" message={error ?? undefined} />
            </div>
            <div className="rounded-md bg-gray-50 p-3 text-sm text-gray-900">
              <p className="font-medium text-gray-700">{t('source')}</p>
              <p data-testid="lottery-draw-source" className="break-words whitespace-pre-wrap">
                {view.publicValueSource}
              </p>
            </div>
          </div>
          {!confirming && (
            <button type="submit" className={BUTTON}>
              {t('draw')}
            </button>
          )}
        </form>
      )}
      {confirming && (
        <div
          role="alertdialog"
          aria-labelledby="lottery-confirm-title"
          className="space-y-3 rounded-md border border-red-300 bg-red-50 p-4"
        >
          <p id="lottery-confirm-title" className="font-semibold text-red-900">
            {t('confirmTitle')}
          </p>
          <p className="text-sm text-red-900">{t('confirmBody', { registrants: view.registrants, value: value.trim() })}</p>
          <div className="flex flex-wrap gap-2">
            <button type="button" className={DANGER} disabled={busy} onClick={draw}>
              {busy ? t('drawing') : t('confirm')}
            </button>
            <button type="button" className={SMALL} disabled={busy} onClick={() => setConfirming(false)}>
              {t('back')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

/** The draw's result as it was published: winners, the waitlist's size, the value, the list hash, the verify page. */
function LotteryOutcome({
  view,
  result,
  timeZone,
  verifyUrl,
  t,
}: {
  view: LotteryConsoleView;
  result: LotteryResult | null;
  timeZone: string;
  verifyUrl: string;
  t: T;
}) {
  return (
    <div className="space-y-3 border-t border-gray-200 pt-4 text-sm text-gray-900" data-testid="lottery-result">
      <h3 className="text-base font-semibold">{t('result')}</h3>
      <p>{t('drawnAt', { at: lotteryMoment(view.drawnAt, timeZone) })}</p>
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
        <dt className="text-gray-700">{t('winners')}</dt>
        <dd>
          <span data-testid="lottery-winners-count">{t('winnersCount', { count: result?.winners.length ?? 0 })}</span>
          {result && result.winners.length > 0 && (
            <ul className="mt-1 flex flex-wrap gap-1 font-mono text-xs" data-testid="lottery-winners">
              {result.winners.map((w) => (
                <li key={w} className="rounded bg-green-50 px-1.5 py-0.5 text-green-900 ring-1 ring-green-200">
                  {w}
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt className="text-gray-700">{t('waitlist')}</dt>
        <dd data-testid="lottery-waitlist">{t('waitlistCount', { count: result?.waitlist ?? 0 })}</dd>
        <dt className="text-gray-700">{t('rounds')}</dt>
        <dd>
          <ol className="space-y-0.5" data-testid="lottery-rounds">
            {(view.rounds ?? []).map((r) => (
              <li key={r.round}>
                {t('round', { round: r.round, from: r.from, through: r.through, until: lotteryMoment(r.endsAt, timeZone) })}
              </li>
            ))}
          </ol>
        </dd>
        <dt className="text-gray-700">{t('valueEntered')}</dt>
        <dd data-testid="lottery-public-value" className="break-words">
          {view.publicValue}
        </dd>
        <dt className="text-gray-700">{t('source')}</dt>
        <dd className="break-words">{view.publicValueSource}</dd>
        <dt className="text-gray-700">{t('listHash')}</dt>
        <dd data-testid="lottery-list-hash" className="font-mono text-xs break-all">
          {view.listHash}
        </dd>
      </dl>
      <p>
        <a
          href={verifyUrl}
          target="_blank"
          rel="noreferrer"
          className="text-blue-800 underline underline-offset-2"
          data-testid="lottery-verify"
        >
          {t('verify')}
        </a>
      </p>
    </div>
  );
}
