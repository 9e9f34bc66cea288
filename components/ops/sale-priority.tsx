'use client';

import { useRouter } from 'next/navigation';
import { useMemo, useState, type ChangeEvent, type FormEvent } from 'react';
import { createTranslator } from 'use-intl/core';
import type { Locale } from '@/lib/i18n/locale';
import type { Messages } from '@/lib/i18n/messages/en';
import { consoleCall } from './console-call';
import { useConsoleSave } from './use-console-save';
import { ConsoleError, ConsoleField, FieldError } from './field';
import { fromLotteryInput, lotteryMoment, toLotteryInput } from './sale-lottery-time';

/** Priority purchase's words (`priorityConsole`), handed down by the server page in the operator's language. */
export type PriorityWords = Messages['priorityConsole'];

/** A sale's priority purchase as the console's call answers it (`/ops/api/sale/priority`): times as ISO moments. */
export type PriorityConsoleView = {
  minutesEarly: number;
  /** Collectible codes. */
  holderCollectibles: string[];
  minPaidOrders: number | null;
  whitelistCount: number;
  decideAt: string;
  decidedAt: string | null;
  eligibleCount: number | null;
  /** The early opening: the sale's opening less the minutes early. */
  opensAt: string;
  saleStartsAt: string;
};

/** One of the channel's collectibles, as the holders' rule offers it. */
export type PriorityCollectible = { code: string; name: string };

/** A whitelist row the store refused (`/ops/api/sale/priority/whitelist`). */
export type RefusedRow = { line: number; value: string; reason: 'notAnAccountNumber' | 'noSuchBuyer' | 'duplicate' };

const REASON_WORDS = {
  notAnAccountNumber: 'reasonNotAnAccountNumber',
  noSuchBuyer: 'reasonNoSuchBuyer',
  duplicate: 'reasonDuplicate',
} as const;

type FieldName = 'minutesEarly' | 'holderCollectibles' | 'minPaidOrders' | 'decideAt';
const FIELDS: readonly FieldName[] = ['minutesEarly', 'holderCollectibles', 'minPaidOrders', 'decideAt'];

const BUTTON = 'rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60';
const SMALL =
  'rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-800 hover:bg-gray-50 disabled:opacity-60';

type T = ReturnType<typeof createTranslator<{ w: PriorityWords }, 'w'>>;

/**
 * A sale's priority purchase (issue 35, "Priority purchase (优先购)"): off, or open M minutes early to eligible buyers
 * (holders of chosen collectibles, buyers with at least N paid orders, invited buyers of an imported list), decided at a
 * set time. Beside the allocation (components/ops/sale-lottery.tsx): a lottery or a waiting room sale cannot have it.
 * Once decided: read-only, with the eligible buyers' count. Owners and managers write; support reads.
 */
export function SalePriority({
  locale,
  channel,
  sale,
  timeZone,
  canWrite,
  firstCome,
  collectibles,
  initial,
  whitelistCount = 0,
  words,
}: {
  locale: Locale;
  channel: string;
  sale: string;
  timeZone: string;
  canWrite: boolean;
  /** Whether the sale is first come (no lottery, no waiting room): only then may it have priority purchase. */
  firstCome: boolean;
  /** The channel's collectibles, for the holders' rule. */
  collectibles: PriorityCollectible[];
  initial: PriorityConsoleView | null;
  /** The whitelist's size when the sale has no priority set yet (a list may be imported first). */
  whitelistCount?: number;
  words: PriorityWords;
}) {
  const t = useMemo(() => createTranslator({ locale, messages: { w: words }, namespace: 'w' }), [locale, words]);
  const decided = initial?.decidedAt != null;
  const locked = !canWrite || decided || (!firstCome && !initial);
  return (
    <section className="max-w-3xl space-y-4" aria-labelledby="sale-priority" data-testid="sale-priority">
      <div>
        <h2 id="sale-priority" className="text-lg font-semibold text-gray-900">
          {t('title')}
        </h2>
        <p className="text-sm text-gray-600">{t('intro')}</p>
      </div>
      {!canWrite && <p className="text-sm text-gray-700">{t('readOnly')}</p>}
      {!firstCome && !initial && <p className="text-sm text-gray-700">{t('notFirstCome')}</p>}
      {initial && <PriorityFacts view={initial} timeZone={timeZone} t={t} />}
      <PrioritySettingsForm
        locale={locale}
        channel={channel}
        sale={sale}
        timeZone={timeZone}
        locked={locked}
        collectibles={collectibles}
        initial={initial}
        t={t}
      />
      {(firstCome || initial) && (
        <PriorityWhitelist
          locale={locale}
          channel={channel}
          sale={sale}
          locked={locked}
          count={initial?.whitelistCount ?? whitelistCount}
          t={t}
        />
      )}
    </section>
  );
}

/** When eligible buyers and everyone may buy, when eligibility is (or was) decided, and how many it found. */
function PriorityFacts({ view, timeZone, t }: { view: PriorityConsoleView; timeZone: string; t: T }) {
  return (
    <div className="space-y-2 rounded-md bg-gray-50 p-3 text-sm text-gray-900" data-testid="priority-facts">
      <p>{t('opening', { opens: lotteryMoment(view.opensAt, timeZone), starts: lotteryMoment(view.saleStartsAt, timeZone) })}</p>
      {view.decidedAt ? (
        <>
          <p data-testid="priority-decided">{t('decided', { at: lotteryMoment(view.decidedAt, timeZone) })}</p>
          <p className="font-semibold" data-testid="priority-eligible">
            {t('eligible', { count: view.eligibleCount ?? 0 })}
          </p>
        </>
      ) : (
        <p>{t('pending', { at: lotteryMoment(view.decideAt, timeZone) })}</p>
      )}
    </div>
  );
}

type Draft = { on: boolean; minutesEarly: string; holders: string[]; minPaidOrders: string; decideAt: string };

function PrioritySettingsForm({
  locale,
  channel,
  sale,
  timeZone,
  locked,
  collectibles,
  initial,
  t,
}: {
  locale: Locale;
  channel: string;
  sale: string;
  timeZone: string;
  locked: boolean;
  collectibles: PriorityCollectible[];
  initial: PriorityConsoleView | null;
  t: T;
}) {
  const [draft, setDraft] = useState<Draft>(() => ({
    on: initial !== null,
    minutesEarly: String(initial?.minutesEarly ?? 10),
    holders: initial?.holderCollectibles ?? [],
    minPaidOrders: initial?.minPaidOrders != null ? String(initial.minPaidOrders) : '',
    decideAt: toLotteryInput(initial?.decideAt ?? null, timeZone),
  }));
  const { errors, setErrors, busy, notice, setNotice, save } = useConsoleSave(FIELDS, t('failed'));
  // A collectible chosen before that is no longer in the channel's list still shows, so it can be unticked.
  const choices = useMemo(() => {
    const known = new Set(collectibles.map((c) => c.code));
    return [...collectibles, ...draft.holders.filter((code) => !known.has(code)).map((code) => ({ code, name: code }))];
  }, [collectibles, draft.holders]);

  function set<K extends keyof Draft>(key: K, value: Draft[K]) {
    setDraft((d) => ({ ...d, [key]: value }));
    setNotice(null);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (locked) return;
    let priority = null;
    if (draft.on) {
      const found: Partial<Record<FieldName, string>> = {};
      const minutesEarly = /^\d+$/.test(draft.minutesEarly.trim()) ? Number(draft.minutesEarly) : null;
      if (minutesEarly === null) found.minutesEarly = t('badNumber');
      const orders = draft.minPaidOrders.trim();
      const minPaidOrders = orders === '' ? null : /^\d+$/.test(orders) ? Number(orders) : NaN;
      if (Number.isNaN(minPaidOrders)) found.minPaidOrders = t('badNumber');
      const decideAt = fromLotteryInput(draft.decideAt, timeZone);
      if (!decideAt) found.decideAt = t('badTime');
      if (Object.keys(found).length > 0 || minutesEarly === null || !decideAt) {
        setErrors(found);
        return;
      }
      priority = { minutesEarly, holderCollectibles: draft.holders, minPaidOrders, decideAt };
    }
    setErrors({});
    await save('/ops/api/sale/priority/set', { channel, sale, priority }, locale, (data) => (data.priority ? t('saved') : t('removed')));
  }

  const invalid = (name: FieldName) =>
    errors[name] ? { 'aria-invalid': true as const, 'aria-errormessage': `priority-${name}-error` } : {};

  return (
    <form className="space-y-4" noValidate onSubmit={submit} data-testid="priority-form">
      <label className="flex items-center gap-2 text-sm font-medium text-gray-900">
        <input type="checkbox" name="priority" checked={draft.on} disabled={locked || busy} onChange={(e) => set('on', e.target.checked)} />
        {t('enable')}
      </label>
      {draft.on && (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <ConsoleField
                id="priority-minutesEarly"
                name="minutesEarly"
                label={t('minutesEarly')}
                hint={locked ? undefined : t('minutesEarlyHint')}
                inputMode="numeric"
                value={draft.minutesEarly}
                disabled={locked || busy}
                onChange={(e) => set('minutesEarly', e.target.value)}
                {...invalid('minutesEarly')}
              />
              <FieldError id="priority-minutesEarly-error" message={errors.minutesEarly} />
            </div>
            <div>
              <ConsoleField
                id="priority-decideAt"
                name="decideAt"
                type="datetime-local"
                step={1}
                label={t('decideAt', { zone: timeZone })}
                hint={locked ? undefined : t('decideAtHint')}
                value={draft.decideAt}
                disabled={locked || busy}
                onChange={(e) => set('decideAt', e.target.value)}
                {...invalid('decideAt')}
              />
              <FieldError id="priority-decideAt-error" message={errors.decideAt} />
            </div>
          </div>
          <fieldset
            className="space-y-1"
            aria-describedby="priority-holders-hint"
            {...(errors.holderCollectibles ? { 'aria-invalid': true, 'aria-errormessage': 'priority-holderCollectibles-error' } : {})}
          >
            <legend className="block text-sm font-medium text-gray-800">{t('holders')}</legend>
            <p id="priority-holders-hint" className="text-sm text-gray-600">
              {t('holdersHint')}
            </p>
            {choices.length === 0 ? (
              <p className="text-sm text-gray-700">{t('noCollectibles')}</p>
            ) : (
              <ul className="max-h-56 space-y-1 overflow-y-auto rounded-md border border-gray-200 p-2" data-testid="priority-holders">
                {choices.map((c) => (
                  <li key={c.code}>
                    <label className="flex items-baseline gap-2 text-sm text-gray-900">
                      <input
                        type="checkbox"
                        name="holderCollectibles"
                        value={c.code}
                        checked={draft.holders.includes(c.code)}
                        disabled={locked || busy}
                        onChange={(e: ChangeEvent<HTMLInputElement>) =>
                          set('holders', e.target.checked ? [...draft.holders, c.code] : draft.holders.filter((code) => code !== c.code))
                        }
                      />
                      <span>
                        {c.name} <span className="font-mono text-xs text-gray-600">{c.code}</span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
            <FieldError id="priority-holderCollectibles-error" message={errors.holderCollectibles} />
          </fieldset>
          <div className="sm:max-w-xs">
            <ConsoleField
              id="priority-minPaidOrders"
              name="minPaidOrders"
              label={t('minPaidOrders')}
              hint={locked ? undefined : t('minPaidOrdersHint')}
              inputMode="numeric"
              value={draft.minPaidOrders}
              disabled={locked || busy}
              onChange={(e) => set('minPaidOrders', e.target.value)}
              {...invalid('minPaidOrders')}
            />
            <FieldError id="priority-minPaidOrders-error" message={errors.minPaidOrders} />
          </div>
          {!locked && <p className="text-sm text-gray-700">{t('whitelistRule')}</p>}
        </>
      )}
      <ConsoleError message={errors.form ?? null} />
      {notice && (
        <p role="status" className="text-sm text-green-800">
          {notice}
        </p>
      )}
      {!locked && (draft.on || initial) && (
        <button type="submit" className={BUTTON} disabled={busy}>
          {busy ? t('saving') : t('save')}
        </button>
      )}
    </form>
  );
}

/** A file's text, read in the browser (nothing is uploaded but the text the import sends). */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(file);
  });
}

/**
 * The invited buyers: a CSV pasted or read from a file in the browser, imported (replacing the list), refusals named with
 * their line, value and why. Before the settings are saved too, so a list may be the only rule.
 */
function PriorityWhitelist({
  locale,
  channel,
  sale,
  locked,
  count,
  t,
}: {
  locale: Locale;
  channel: string;
  sale: string;
  locked: boolean;
  count: number;
  t: T;
}) {
  const router = useRouter();
  const [csv, setCsv] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ imported: number; whitelistCount: number; refused: RefusedRow[] } | null>(null);

  async function readFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    try {
      setCsv(await readText(file));
      setError(null);
    } catch {
      setError(t('fileFailed'));
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (locked) return;
    if (csv.trim() === '') {
      setError(t('emptyCsv'));
      return;
    }
    setBusy(true);
    setError(null);
    const answer = await consoleCall('/ops/api/sale/priority/whitelist', { channel, sale, csv }, locale);
    setBusy(false);
    if (!answer.ok) {
      setError(answer.message || t('failed'));
      return;
    }
    setOutcome(answer.data);
    router.refresh();
  }

  const shown = outcome?.whitelistCount ?? count;
  return (
    <form className="space-y-3 border-t border-gray-200 pt-4" noValidate onSubmit={submit} data-testid="priority-whitelist">
      <h3 className="text-base font-semibold text-gray-900">{t('whitelistTitle')}</h3>
      <p className="text-sm text-gray-900" data-testid="priority-whitelist-count">
        {t('whitelistCount', { count: shown })}
      </p>
      {!locked && (
        <>
          <div className="space-y-1">
            <label htmlFor="priority-csv" className="block text-sm font-medium text-gray-800">
              {t('csv')}
            </label>
            <textarea
              id="priority-csv"
              name="csv"
              rows={6}
              value={csv}
              disabled={busy}
              aria-describedby="priority-csv-hint"
              aria-invalid={error ? true : undefined}
              aria-errormessage={error ? 'priority-csv-error' : undefined}
              onChange={(e) => {
                setCsv(e.target.value);
                setError(null);
              }}
              className="block w-full rounded-md border border-gray-300 bg-white px-3 py-2 font-mono text-sm text-gray-900 shadow-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none disabled:bg-gray-100"
            />
            <p id="priority-csv-hint" className="text-sm text-gray-600">
              {t('whitelistHint')}
            </p>
            <FieldError id="priority-csv-error" message={error ?? undefined} />
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <label className={`${SMALL} cursor-pointer`}>
              {t('chooseFile')}
              <input type="file" accept=".csv,text/csv,text/plain" className="sr-only" disabled={busy} onChange={readFile} />
            </label>
            <button type="submit" className={BUTTON} disabled={busy}>
              {busy ? t('importing') : t('import')}
            </button>
          </div>
        </>
      )}
      {outcome && (
        <div role="status" className="space-y-2 text-sm">
          <p className="text-green-800" data-testid="priority-imported">
            {t('imported', { count: outcome.imported })}
          </p>
          {outcome.refused.length > 0 && (
            <>
              <p className="font-medium text-red-800">{t('refused', { count: outcome.refused.length })}</p>
              <ul className="max-h-64 space-y-0.5 overflow-y-auto text-red-800" data-testid="priority-refused">
                {outcome.refused.map((r) => (
                  <li key={`${r.line}:${r.value}`}>
                    {t('refusedRow', { line: r.line, value: r.value, reason: t(REASON_WORDS[r.reason]) })}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </form>
  );
}
