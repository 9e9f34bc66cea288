'use client';

import { useRef, useState, useTransition } from 'react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';
import { CodeField } from '@/components/ui/code-field';
import { showToast } from '@/components/ui/toast';
import { useApi } from '@/components/shell/api-provider';
import { newTapKey } from '@/lib/client/tap-key';
import { BusinessError } from '@/lib/client/api-client';
import { Card } from '@/components/ui/card';

/**
 * The receive button of a gift (spec §2 receive detail pages), with the redeem-code field when the gift asks for one,
 * or why the buyer cannot receive it (`refusal`, from the server). A retried tap reuses its key, so the server answers
 * with the same record; a refusal is shown by the API client's toast (spec §8) with the server's message.
 *
 * After a receive the page's server parts are read again (issue 17, item 8): the count left drops, and the edition
 * received stays on screen whatever the server now says; a gift of more than one per member offers the next one as
 * soon as the server says the buyer may, without a reload.
 */
export function ReceiveForm({
  campaignId,
  offerId,
  needsCode,
  refusal,
}: {
  campaignId: string;
  offerId: string;
  needsCode: boolean;
  refusal: string | null;
}) {
  const t = useTranslations('gift');
  const api = useApi();
  const router = useRouter();
  const [refreshing, startRefresh] = useTransition();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ number: number; amountNumber: number } | null>(null);
  const key = useRef<string | null>(null);

  const receive = async () => {
    if (needsCode && !code.trim()) {
      showToast('warn', t('codeRequired'));
      return;
    }
    key.current ??= newTapKey();
    setBusy(true);
    try {
      const claim = await api.post('/goods/api/giftReceive/receive', {
        id: campaignId,
        exchangeId: offerId,
        ...(needsCode ? { code } : {}),
        idempotencyKey: key.current,
      });
      setDone(claim);
      key.current = null;
      setCode('');
      showToast('success', t('received'));
      startRefresh(() => router.refresh());
    } catch (error) {
      // The client has shown why (spec §8). A refusal is final, so the next tap is a new attempt; a call that failed on
      // the way (network, timeout) may have received already, so tapping again resends the same key.
      if (error instanceof BusinessError) key.current = null;
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <Card className="flex flex-col items-center gap-3 p-4 text-center" data-testid="gift-received">
        <p className="text-base font-semibold text-skin-1">{t('received')}</p>
        <p className="text-sm text-neutral-600" data-testid="gift-edition">
          #{done.number}/{done.amountNumber}
        </p>
        <Link href="/mine/collection" className="text-sm text-skin-1 underline underline-offset-2">
          {t('seeCollection')}
        </Link>
        {refusal === null && !refreshing ? (
          <Button type="default" className="w-full" onClick={() => setDone(null)}>
            {t('receiveAnother')}
          </Button>
        ) : null}
      </Card>
    );
  }

  if (refusal) {
    return (
      <Card as="p" className="p-4 text-center text-sm font-medium text-neutral-600" data-testid="gift-refusal">
        {refusal}
      </Card>
    );
  }

  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        void receive();
      }}
    >
      {needsCode ? <CodeField card label={t('codeLabel')} hint={t('codeHint')} value={code} onChange={setCode} /> : null}
      <Button type="primary" htmlType="submit" loading={busy} className="w-full">
        {t('receive')}
      </Button>
    </form>
  );
}
