'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useState } from 'react';
import { createTranslator } from 'use-intl/core';
import type { Locale } from '@/lib/i18n/locale';
import { consoleCall } from './console-call';
import { ConsoleError } from './field';
import type { RefundWords } from './order-refund';

export type CancelProgressView = {
  cancelled: boolean;
  /** Written by the server page, in the channel's time zone with the zone named. */
  cancelledAt: string | null;
  paidOrders: number;
  refunded: number;
  owed: number;
  unpaidLeft: number;
  failures: { orderNo: string; why: string }[];
  finished: boolean;
};

/** How often the progress is read again while the background refunds run (no page reload). */
const PROGRESS_EVERY_MS = 2_000;

/**
 * Cancelling a sale on drop day (issue 32, "Drop-day controls"): a button with a confirmation naming the sale, then the
 * background refunds' progress (refunded n of m, refunds the provider has not confirmed, unpaid orders left, the orders
 * that could not be refunded and why), read again every two seconds until it is finished.
 */
export function SaleCancel({
  locale,
  channel,
  saleId,
  code,
  initial,
  canCancel,
  words,
}: {
  locale: Locale;
  channel: string;
  saleId: number;
  code: string;
  initial: CancelProgressView;
  canCancel: boolean;
  words: RefundWords;
}) {
  const router = useRouter();
  const t = useMemo(() => createTranslator({ locale, messages: { w: words }, namespace: 'w' }), [locale, words]);
  const [progress, setProgress] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // The server page's progress after a refresh (the cancel itself) replaces what the polling last read.
  const [seen, setSeen] = useState(initial);
  if (seen !== initial) {
    setSeen(initial);
    setProgress(initial);
  }
  useEffect(() => {
    if (!progress.cancelled || progress.finished) return;
    const timer = window.setInterval(async () => {
      const answer = await consoleCall('/ops/api/refund/cancelProgress', { channel, saleId }, locale);
      if (answer.ok) setProgress((now) => ({ ...answer.data, cancelledAt: now.cancelledAt }));
    }, PROGRESS_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [channel, saleId, locale, progress.cancelled, progress.finished]);

  async function cancel() {
    if (busy || !window.confirm(t('cancelConfirm', { code }))) return;
    setBusy(true);
    setError(null);
    const answer = await consoleCall('/ops/api/refund/cancelSale', { channel, saleId }, locale);
    setBusy(false);
    if (!answer.ok) {
      setError(answer.message);
      return;
    }
    router.refresh();
  }

  return (
    <section className="space-y-4" data-testid="sale-cancel">
      <h1 className="text-xl font-semibold text-gray-900">{t('cancelTitle', { code })}</h1>
      <p className="text-sm text-gray-600">{t('cancelIntro')}</p>
      {!progress.cancelled ? (
        canCancel ? (
          <button
            type="button"
            onClick={cancel}
            disabled={busy}
            className="rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60"
          >
            {busy ? t('cancelling') : t('cancel')}
          </button>
        ) : (
          <p className="text-sm text-gray-700">{t('cancelReadOnly')}</p>
        )
      ) : (
        <div className="space-y-2 text-sm text-gray-900" role="status" data-testid="cancel-progress">
          {progress.cancelledAt ? <p>{t('cancelledAt', { time: progress.cancelledAt })}</p> : null}
          <p className="font-medium">{t('progress', { refunded: progress.refunded, paid: progress.paidOrders })}</p>
          {progress.owed > 0 ? <p>{t('owed', { count: progress.owed })}</p> : null}
          {progress.unpaidLeft > 0 ? <p>{t('unpaidLeft', { count: progress.unpaidLeft })}</p> : null}
          {progress.failures.length > 0 ? (
            <div>
              <p className="font-medium text-red-800">{t('failures')}</p>
              <ul className="list-disc pl-5 text-red-800">
                {progress.failures.map((f) => (
                  <li key={f.orderNo}>
                    <span className="font-mono">{f.orderNo}</span>: {f.why}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {progress.finished ? <p className="text-green-800">{t('finished')}</p> : null}
        </div>
      )}
      <ConsoleError message={error} />
    </section>
  );
}
