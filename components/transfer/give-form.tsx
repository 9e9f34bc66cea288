'use client';

import { useId, useRef, useState } from 'react';
import Link from 'next/link';
import { useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { confirm } from '@/components/ui/confirm';
import { useApi } from '@/components/shell/api-provider';
import { ServiceError } from '@/lib/client/api-client';
import { newTapKey } from '@/lib/client/tap-key';
import { formatDate } from '@/lib/format/date';
import type { ReceiverView, TransferView } from '@/lib/transfer/schema';

/**
 * The give page's form (issue 36, docs/gifting.md): the receiver's account number typed, their masked nickname found
 * (`transfer/lookup`) for the sender to recognise, a confirm sheet naming what goes to whom, then the gift sent
 * (`transfer/give`). One tap key per confirmed gift, kept when the call failed on the way, so a retry (or a double tap)
 * is the same gift. Refusals are toasted by the API client in the page's language.
 */
export function GiveForm({
  holdingId,
  goods,
  number,
  timeZone,
  receiverNumber = '',
}: {
  holdingId: string;
  goods: string;
  number: number;
  timeZone: string;
  /** The receiver's account number, filled in when the sender came from the receiver's gift code (issue 36). */
  receiverNumber?: string;
}) {
  const t = useTranslations('transfer');
  const common = useTranslations('common');
  const api = useApi();
  const id = useId();
  const [accountNumber, setAccountNumber] = useState(receiverNumber);
  const [receiver, setReceiver] = useState<ReceiverView | null>(null);
  const [sent, setSent] = useState<TransferView | null>(null);
  const [busy, setBusy] = useState(false);
  const key = useRef<string | null>(null);
  const asking = useRef(false);
  const digits = accountNumber.replace(/\D/g, '');

  const find = async () => {
    if (busy || digits.length !== 10) return;
    setBusy(true);
    try {
      setReceiver(await api.post('/market/api/transfer/lookup', { accountNumber: digits }));
    } catch {
      setReceiver(null); // The API client toasted why.
    } finally {
      setBusy(false);
    }
  };

  const give = async () => {
    if (!receiver || busy || asking.current) return;
    asking.current = true;
    try {
      await confirm({
        title: t('confirmTitle', { name: receiver.maskedName }),
        content: t('confirmBody', { goods, number, name: receiver.maskedName }),
        cancelText: common('cancel'),
        confirmText: t('confirm'),
      });
    } catch {
      return; // Cancelled: nothing sent.
    } finally {
      asking.current = false;
    }
    key.current ??= newTapKey();
    setBusy(true);
    try {
      const gift = await api.post('/market/api/transfer/give', {
        holdingId,
        accountNumber: receiver.accountNumber,
        idempotencyKey: key.current,
      });
      key.current = null;
      setSent(gift);
    } catch (error) {
      // A refusal is final; a call that failed on the way keeps its key, so tapping again cannot give twice.
      if (!(error instanceof ServiceError)) key.current = null;
    } finally {
      setBusy(false);
    }
  };

  if (sent) {
    return (
      <Card as="section" className="flex flex-col items-center gap-2 p-5 text-center" data-testid="give-sent" aria-live="polite">
        <p className="text-lg font-semibold text-skin-1">{t('sentTitle', { name: sent.otherName })}</p>
        <p className="text-sm text-neutral-600">
          {t('sentBody', { name: sent.otherName, time: formatDate(sent.expiresAt, 'yyyy-MM-dd HH:mm', timeZone) })}
        </p>
        <Link
          href="/mine/gifts/records"
          className="mt-2 flex h-[0.8rem] w-full items-center justify-center rounded-full bg-skin-button text-sm font-semibold text-skin-button-text shadow-card"
        >
          {t('recordsTitle')}
        </Link>
      </Card>
    );
  }

  return (
    <Card as="section" className="flex flex-col gap-3 p-4" data-testid="give-form">
      <label htmlFor={id} className="text-sm font-medium text-skin-1">
        {t('accountLabel')}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          value={accountNumber}
          onChange={(e) => {
            setAccountNumber(e.target.value);
            setReceiver(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void find();
          }}
          inputMode="numeric"
          autoComplete="off"
          maxLength={16}
          placeholder="0000000000"
          aria-describedby={`${id}-hint`}
          className="h-[0.72rem] min-w-0 flex-1 rounded-lg border border-black/10 bg-white px-3 font-mono text-base tracking-wider tabular-nums"
          data-testid="give-account"
        />
        <Button type="info" size="md" loading={busy && !receiver} disabled={digits.length !== 10} onClick={find}>
          {t('find')}
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-neutral-500">
        {t('accountHint')}
      </p>
      {receiver ? (
        <div className="flex flex-col gap-3 rounded-lg bg-skin-light p-3" data-testid="give-receiver">
          <p className="flex items-baseline justify-between text-sm">
            <span className="text-neutral-600">{t('receiver')}</span>
            <span className="text-base font-semibold text-skin-1" data-testid="give-receiver-name">
              {receiver.maskedName}
            </span>
          </p>
          <Button type="primary" loading={busy} onClick={give}>
            {t('confirm')}
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
