'use client';

import { useState, type FormEvent } from 'react';
import type { Locale } from '@/lib/i18n/locale';
import { useConsoleSave } from './use-console-save';
import { ConsoleError, ConsoleField, FieldError } from './field';
import { lotteryMoment } from './sale-lottery-time';
import type { AllocationT } from './sale-lottery';

/** A sale's waiting room as the console's call answers it (`/ops/api/sale/queue`): times as ISO moments. */
export type QueueConsoleView = {
  joinMinutes: number;
  graceSeconds: number;
  holdSeconds: number;
  admissionSeconds: number;
  admitPerSecond: number;
  joinOpensAt: string;
  shuffleAt: string;
  frozen: boolean;
  joined: number;
  shuffledAt: string | null;
};

const FIELDS = ['joinMinutes', 'graceSeconds', 'holdSeconds', 'admissionSeconds', 'admitPerSecond'] as const;
type FieldName = (typeof FIELDS)[number];

/** The settings' defaults for a new waiting room (lib/sale/queue.ts QUEUE_DEFAULTS; joining 10 minutes ahead). */
const DEFAULTS: Record<FieldName, number> = {
  joinMinutes: 10,
  graceSeconds: 3,
  holdSeconds: 180,
  admissionSeconds: 60,
  admitPerSecond: 50,
};

const BUTTON = 'rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60';

/**
 * A sale through a waiting room (issue 35, "First come, through a waiting room"), in the sale's Allocation section:
 * when joining opens (minutes before the opening), the grace within which arrivals are shuffled with the early ones,
 * how long a buyer who left keeps their place, an admission's life and admissions a second. Once saved: when joining
 * opens, who is shuffled, the buyers joined so far; once joining opened, read-only with the reason (the settings the
 * buyers joined on freeze, lib/sale/queue.ts). Refusals show at the field the call names.
 */
export function SaleQueue({
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
  initial: QueueConsoleView | null;
  t: AllocationT;
}) {
  const [form, setForm] = useState<Record<FieldName, string>>(() => {
    const from = initial ?? DEFAULTS;
    return {
      joinMinutes: String(from.joinMinutes),
      graceSeconds: String(from.graceSeconds),
      holdSeconds: String(from.holdSeconds),
      admissionSeconds: String(from.admissionSeconds),
      admitPerSecond: String(from.admitPerSecond),
    };
  });
  const { errors, busy, notice, save: send } = useConsoleSave(FIELDS, t('failed'));
  const frozen = initial?.frozen ?? false;
  const locked = !canWrite || frozen;

  async function save(event: FormEvent) {
    event.preventDefault();
    // A field left empty or not a number is the server's to name (400, naming it).
    const number = (key: FieldName) => (form[key].trim() === '' ? Number.NaN : Number(form[key]));
    await send(
      '/ops/api/sale/queue/set',
      {
        channel,
        sale,
        joinMinutes: number('joinMinutes'),
        graceSeconds: number('graceSeconds'),
        holdSeconds: number('holdSeconds'),
        admissionSeconds: number('admissionSeconds'),
        admitPerSecond: number('admitPerSecond'),
      },
      locale,
      () => t('queue.saved'),
    );
  }

  const field = (key: FieldName, hint: string) => (
    <div>
      <ConsoleField
        id={`queue-${key}`}
        name={key}
        inputMode="numeric"
        label={t(`queue.${key}`)}
        hint={frozen ? undefined : hint}
        value={form[key]}
        disabled={locked}
        aria-invalid={errors[key] ? true : undefined}
        aria-errormessage={errors[key] ? `queue-${key}-error` : undefined}
        onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
      />
      <FieldError id={`queue-${key}-error`} message={errors[key]} />
    </div>
  );

  return (
    <form onSubmit={save} className="space-y-4" noValidate data-testid="queue-form">
      {initial && (
        <div className="space-y-1 rounded-md border border-gray-200 bg-gray-50 p-4 text-sm text-gray-900" data-testid="queue-facts">
          <p>
            {t('queue.when', {
              opens: lotteryMoment(initial.joinOpensAt, timeZone),
              shuffle: lotteryMoment(initial.shuffleAt, timeZone),
            })}
          </p>
          <p>
            {t('queue.joined')}: <span data-testid="queue-joined">{initial.joined}</span>
          </p>
          {initial.shuffledAt && <p>{t('queue.shuffledAt', { at: lotteryMoment(initial.shuffledAt, timeZone) })}</p>}
        </div>
      )}
      {frozen && initial && (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900" data-testid="queue-frozen">
          {t('queue.frozen', { at: lotteryMoment(initial.joinOpensAt, timeZone) })}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        {field('joinMinutes', t('queue.joinMinutesHint'))}
        {field('graceSeconds', t('queue.graceSecondsHint'))}
        {field('holdSeconds', t('queue.holdSecondsHint'))}
        {field('admissionSeconds', t('queue.admissionSecondsHint'))}
        {field('admitPerSecond', t('queue.admitPerSecondHint'))}
      </div>
      <ConsoleError message={errors.form ?? null} />
      {notice && (
        <p role="status" className="text-sm text-green-800">
          {notice}
        </p>
      )}
      {!locked && (
        <button type="submit" className={BUTTON} disabled={busy}>
          {busy ? t('saving') : initial ? t('queue.save') : t('queue.setUp')}
        </button>
      )}
    </form>
  );
}
