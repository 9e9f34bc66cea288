'use client';

import { useRouter } from 'next/navigation';
import { useMemo, useState, type FormEvent } from 'react';
import { createTranslator } from 'use-intl/core';
import type { Messages } from '@/lib/i18n/messages/en';
import { formatFen } from '@/lib/format/money';
import type { Locale } from '@/lib/i18n/locale';
import { consoleCall } from './console-call';
import { ConsoleError } from './field';

/** The panel's words: the catalogue's `ops.refunds` block, rendered here with the amounts the operator picks. */
export type RefundWords = Messages['ops']['refunds'];

export type RefundPanelCopy = {
  holdingId: number;
  number: number;
  refundable: boolean;
  why: 'refunded' | 'destroyed' | 'givenAway' | 'prizeGone' | null;
  prize: { holdingId: number; number: number; name: string } | null;
};

export type RefundPanelRefund = {
  refundNo: string;
  quantity: number;
  amount: number;
  status: 'owed' | 'done';
  /** Written by the server page, in the channel's time zone with the zone named. */
  time: string;
  numbers: number[];
};

const SMALL_BUTTON =
  'rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:cursor-not-allowed disabled:opacity-60';

/** A key for one click of the refund button: a double-click sends the same key twice and makes one refund (issue 32). */
function clickKey(): string {
  return `refund-${crypto.randomUUID()}`;
}

/**
 * An order's refund panel (issue 32, "Orders and buyers"): its copies with a checkbox each (those that cannot be
 * refunded say why and cannot be ticked; an opened blind box names its prize, which is what is taken back), the
 * reason, a confirmation naming the amount, the result, and the order's refunds. After a refund the page's data is
 * read again (router.refresh), so what shows is what the server holds.
 */
export function OrderRefund({
  locale,
  channel,
  orderNo,
  state,
  price,
  paid,
  refunded,
  copies,
  refunds,
  canRefund,
  words,
}: {
  locale: Locale;
  channel: string;
  orderNo: string;
  state: 'toPay' | 'paid' | 'cancelled' | 'expired' | 'closed';
  price: number;
  paid: number;
  refunded: number;
  copies: RefundPanelCopy[];
  refunds: RefundPanelRefund[];
  canRefund: boolean;
  words: RefundWords;
}) {
  const router = useRouter();
  const t = useMemo(() => createTranslator({ locale, messages: { w: words }, namespace: 'w' }), [locale, words]);
  const [chosen, setChosen] = useState<number[]>(() => copies.filter((c) => c.refundable).map((c) => c.holdingId));
  const [reason, setReason] = useState('');
  const [key, setKey] = useState(clickKey);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field: string | null; message: string } | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const amount = formatFen(price * chosen.length);
  const refundable = copies.some((c) => c.refundable);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || chosen.length === 0) return;
    if (!window.confirm(t('confirm', { count: chosen.length, orderNo, amount }))) return;
    setBusy(true);
    setError(null);
    const answer = await consoleCall(
      '/ops/api/refund/create',
      { channel, orderNo, holdingIds: chosen, reason, idempotencyKey: key },
      locale,
    );
    setBusy(false);
    if (!answer.ok) {
      setError({ field: answer.field, message: answer.message || t('working') });
      return;
    }
    const made = answer.data.refund;
    setResult(
      `${t('done', { amount: formatFen(made.amount), refundNo: made.refundNo })}${made.status === 'owed' ? ` ${t('owedNote')}` : ''}`,
    );
    setKey(clickKey());
    setReason('');
    setChosen([]);
    router.refresh();
  }

  return (
    <section className="space-y-6" data-testid="order-refund">
      <div className="space-y-1">
        <h1 className="text-xl font-semibold text-gray-900">{t('title', { orderNo })}</h1>
        <p className="text-sm text-gray-700">
          <span data-testid="refund-state">{t('state', { state })}</span> · {t('paid', { amount: formatFen(paid) })} ·{' '}
          {t('refunded', { amount: formatFen(refunded) })}
        </p>
        <p className="text-sm text-gray-600">{t('intro')}</p>
      </div>

      {state === 'paid' ? (
        <form onSubmit={submit} className="space-y-4" noValidate>
          <fieldset className="space-y-2" aria-describedby="refund-copies-error">
            {copies.map((c) => (
              <label key={c.holdingId} className="flex items-start gap-3 rounded-md border border-gray-200 bg-white px-3 py-2">
                <input
                  type="checkbox"
                  className="mt-1 h-4 w-4"
                  disabled={!c.refundable || !canRefund}
                  checked={chosen.includes(c.holdingId)}
                  onChange={(e) => setChosen((now) => (e.target.checked ? [...now, c.holdingId] : now.filter((id) => id !== c.holdingId)))}
                />
                <span className="text-sm text-gray-900">
                  {t('edition', { number: String(c.number) })}
                  {c.prize ? (
                    <span className="text-gray-600"> — {t('prize', { name: c.prize.name, number: String(c.prize.number) })}</span>
                  ) : null}
                  {c.why ? <span className="text-red-700"> — {t('why', { why: c.why })}</span> : null}
                </span>
              </label>
            ))}
            {!refundable ? <p className="text-sm text-gray-700">{t('nothing')}</p> : null}
            <div id="refund-copies-error">{error && error.field !== 'reason' ? <ConsoleError message={error.message} /> : null}</div>
          </fieldset>
          {canRefund && refundable ? (
            <>
              <div className="space-y-1">
                <label htmlFor="refund-reason" className="block text-sm font-medium text-gray-800">
                  {t('reason')}
                </label>
                <input
                  id="refund-reason"
                  value={reason}
                  maxLength={200}
                  required
                  onChange={(e) => setReason(e.target.value)}
                  aria-describedby="refund-reason-hint refund-reason-error"
                  className="block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base text-gray-900 shadow-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none"
                />
                <p id="refund-reason-hint" className="text-sm text-gray-600">
                  {t('reasonHint')}
                </p>
                <div id="refund-reason-error">{error?.field === 'reason' ? <ConsoleError message={error.message} /> : null}</div>
              </div>
              <button type="submit" className={SMALL_BUTTON} disabled={busy || chosen.length === 0 || reason.trim() === ''}>
                {busy ? t('working') : t('submit', { count: chosen.length, amount })}
              </button>
            </>
          ) : null}
          {!canRefund ? <p className="text-sm text-gray-700">{t('readOnly')}</p> : null}
          {result ? (
            <p role="status" className="text-sm text-green-800" data-testid="refund-result">
              {result}
            </p>
          ) : null}
        </form>
      ) : null}

      <div className="space-y-2">
        <h2 className="text-base font-semibold text-gray-900">{t('history')}</h2>
        {refunds.length === 0 ? (
          <p className="text-sm text-gray-600">{t('none')}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="min-w-full text-left text-sm" data-testid="refund-history">
              <thead className="text-gray-600">
                <tr>
                  <th className="py-1 pr-4 font-medium">{t('refundNo')}</th>
                  <th className="py-1 pr-4 font-medium">{t('amount')}</th>
                  <th className="py-1 pr-4 font-medium">{t('copies')}</th>
                  <th className="py-1 pr-4 font-medium">{t('time')}</th>
                  <th className="py-1 pr-4 font-medium" aria-hidden="true" />
                </tr>
              </thead>
              <tbody>
                {refunds.map((r) => (
                  <tr key={r.refundNo} className="border-t border-gray-200">
                    <td className="py-1 pr-4 font-mono">{r.refundNo}</td>
                    <td className="py-1 pr-4">{formatFen(r.amount)}</td>
                    <td className="py-1 pr-4">{r.numbers.map((n) => `#${n}`).join(', ') || r.quantity}</td>
                    <td className="py-1 pr-4">{r.time}</td>
                    <td className="py-1 pr-4">{t('status', { status: r.status })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}
