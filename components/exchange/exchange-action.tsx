'use client';

import { useRef, useState } from 'react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { CodeField } from '@/components/ui/code-field';
import { confirm } from '@/components/ui/confirm-sheet';
import { showToast } from '@/components/ui/toast';
import { ArtImage } from '@/components/ui/art-image';
import { useApi } from '@/components/shell/api-provider';
import { BusinessError, ServiceError } from '@/lib/client/api-client';
import { newTapKey } from '@/lib/client/tap-key';
import type { ExchangeRecordView } from '@/lib/exchange/schema';

export type ExchangeTexts = {
  exchange: string;
  confirmTitle: string;
  /** The confirm sheet's content: what is spent, what is got, that it cannot be undone. */
  confirm: string;
  cancel: string;
  codeLabel: string;
  codeHint: string;
  codeRequired: string;
  done: string;
  seeCollection: string;
  destroyRecords: string;
};

/**
 * The Exchange button of an offer (spec §2 exchangeDetail), with the redeem-code field when the recipe asks for one,
 * or the reason the user cannot exchange. A tap asks first in the confirm sheet (spec §2: cancel rejects, and then
 * nothing happens); a confirmed tap posts exchange/create with a key of its own. When the call failed on the way (a
 * network error or a timeout: the exchange may have happened), the key is kept, so tapping again cannot exchange
 * twice: the server answers with the first record. Refusals are toasted by the API client (spec §8).
 *
 * The result stays on the page when router.refresh() re-renders the server parts (counts, holdings, the reason the
 * user cannot exchange again), because this component keeps its place in the tree.
 */
export function ExchangeAction({
  campaignId,
  offerId,
  holdingIds,
  requiresCode,
  refusal,
  texts,
  placeholderColor,
}: {
  campaignId: string;
  offerId: string;
  /** The holdings the page says will be spent (the oldest ones): sent, so exactly those are spent. */
  holdingIds: string[];
  requiresCode: boolean;
  /** Why the user cannot exchange now; null when they can. */
  refusal: string | null;
  texts: ExchangeTexts;
  placeholderColor: string;
}) {
  const api = useApi();
  const router = useRouter();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ExchangeRecordView | null>(null);
  const key = useRef<string | null>(null);
  // One sheet at a time: a second tap while the sheet opens must not stack another.
  const asking = useRef(false);

  const exchange = async () => {
    if (busy || asking.current) return;
    if (requiresCode && !code.trim()) {
      showToast('warn', texts.codeRequired);
      return;
    }
    asking.current = true;
    try {
      await confirm({ title: texts.confirmTitle, content: texts.confirm, cancelText: texts.cancel, confirmText: texts.exchange });
    } catch {
      return; // Cancelled: nothing is sent, nothing changes.
    } finally {
      asking.current = false;
    }
    key.current ??= newTapKey();
    setBusy(true);
    try {
      const record = await api.post('/market/api/exchange/create', {
        id: campaignId,
        exchangeId: offerId,
        ...(holdingIds.length > 0 ? { holdingIds } : {}),
        ...(requiresCode ? { code } : {}),
        idempotencyKey: key.current,
      });
      key.current = null;
      setResult(record);
      setCode('');
      // The counts, the holdings left and whether another exchange is possible come from the server.
      router.refresh();
    } catch (error) {
      // A refusal is final: the next confirmed tap is a new exchange. A call that failed on the way keeps its key.
      if (!(error instanceof ServiceError)) key.current = null;
      // A refusal (sold out, the limit, collectibles spent elsewhere) means the page was out of date: show it as it is now.
      if (error instanceof BusinessError && error.code === 409) router.refresh();
    } finally {
      setBusy(false);
    }
  };

  const link = 'flex h-[0.8rem] items-center justify-center rounded-full text-sm font-semibold';
  return (
    <div className="flex flex-col gap-4">
      {/* A live region that is there before the result, so screen readers announce the result when it arrives. */}
      <div aria-live="polite" className="empty:hidden">
        {result ? (
          <section className="flex flex-col items-center gap-3 rounded-xl bg-skin-card p-4 text-center shadow-card" data-testid="exchange-result">
            <p className="text-base font-semibold text-skin-1">{texts.done}</p>
            <ArtImage src={result.output.commodity.cover} alt="" width={600} height={600} sizes="2rem" className="size-[2rem] rounded-xl object-cover shadow-card" placeholderColor={placeholderColor} />
            <div>
              <p className="text-base font-medium text-neutral-800" data-testid="exchange-result-name">{result.output.commodity.name}</p>
              <p className="mt-1 inline-block rounded-full bg-skin-light px-3 py-1 text-sm font-semibold text-skin-1" data-testid="exchange-result-edition">
                #{result.output.number}/{result.output.amountNumber}
              </p>
            </div>
            <div className="flex w-full flex-col gap-2">
              <Link href="/mine/collection" className={`${link} bg-skin-button text-skin-button-text shadow-card`}>{texts.seeCollection}</Link>
              <Link href="/mine/destory" className={`${link} border border-black/10 bg-skin-card text-skin-1`}>{texts.destroyRecords}</Link>
            </div>
          </section>
        ) : null}
      </div>
      {refusal !== null ? (
        <p className="rounded-xl bg-skin-card p-4 text-center text-sm font-medium text-neutral-600 shadow-card" data-testid="exchange-refusal">{refusal}</p>
      ) : (
        <form
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            void exchange();
          }}
        >
          {requiresCode ? (
            <CodeField card label={texts.codeLabel} hint={texts.codeHint} value={code} onChange={setCode} />
          ) : null}
          <Button type="primary" htmlType="submit" loading={busy} className="w-full">
            {texts.exchange}
          </Button>
        </form>
      )}
    </div>
  );
}
