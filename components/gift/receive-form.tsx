'use client';

import { useRef, useState } from 'react';
import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { CodeField } from '@/components/ui/code-field';
import { showToast } from '@/components/ui/toast';
import { useApi } from '@/components/shell/api-provider';
import { newTapKey } from '@/lib/client/tap-key';
import { BusinessError } from '@/lib/client/api-client';

export type ReceiveTexts = { receive: string; codeLabel: string; codeHint: string; codeRequired: string; received: string; seeCollection: string };

/**
 * The receive button of a gift (spec §2 receive detail pages), with the redeem-code field when the gift asks for one.
 * A retried tap reuses its key, so the server answers with the same record; a refusal is shown by the API client's
 * toast (spec §8) with the server's message.
 */
export function ReceiveForm({ campaignId, offerId, needsCode, texts }: { campaignId: string; offerId: string; needsCode: boolean; texts: ReceiveTexts }) {
  const api = useApi();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ number: number; amountNumber: number } | null>(null);
  const key = useRef<string | null>(null);

  const receive = async () => {
    if (needsCode && !code.trim()) {
      showToast('warn', texts.codeRequired);
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
      showToast('success', texts.received);
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
      <div className="flex flex-col items-center gap-3 rounded-xl bg-skin-card p-4 text-center shadow-card" data-testid="gift-received">
        <p className="text-base font-semibold text-skin-1">{texts.received}</p>
        <p className="text-sm text-neutral-600" data-testid="gift-edition">#{done.number}/{done.amountNumber}</p>
        <Link href="/mine/collection" className="text-sm text-skin-1 underline underline-offset-2">{texts.seeCollection}</Link>
      </div>
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
      {needsCode ? (
        <CodeField card label={texts.codeLabel} hint={texts.codeHint} value={code} onChange={setCode} />
      ) : null}
      <Button type="primary" htmlType="submit" loading={busy} className="w-full">
        {texts.receive}
      </Button>
    </form>
  );
}
