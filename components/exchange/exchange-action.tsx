'use client';

import { useRef, useState } from 'react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';
import { CodeField } from '@/components/ui/code-field';
import { confirm } from '@/components/ui/confirm';
import { showToast } from '@/components/ui/toast';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { useApi } from '@/components/shell/api-provider';
import { BusinessError, ServiceError } from '@/lib/client/api-client';
import { newTapKey } from '@/lib/client/tap-key';
import { Card } from '@/components/ui/card';
import type { ExchangeRecordView } from '@/lib/exchange/schema';

/** One recipe line as the confirm sheet names it: how many of what, and the editions that will be spent. */
export type SpendLine = { quantity: number; name: string; editions: string[] };

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
  spend,
  outputName,
  placeholderColor,
}: {
  campaignId: string;
  offerId: string;
  /** The holdings the page says will be spent (the oldest ones): sent, so exactly those are spent. */
  holdingIds: string[];
  requiresCode: boolean;
  /** Why the user cannot exchange now; null when they can. */
  refusal: string | null;
  /** The recipe's lines, named in the confirm sheet (empty when the recipe is a code only). */
  spend: SpendLine[];
  /** The name of the collectible the exchange gives. */
  outputName: string;
  placeholderColor: string;
}) {
  const t = useTranslations('exchange');
  const common = useTranslations('common');
  const api = useApi();
  const router = useRouter();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ExchangeRecordView | null>(null);
  const key = useRef<string | null>(null);
  // One sheet at a time: a second tap while the sheet opens must not stack another.
  const asking = useRef(false);

  /** What the exchange spends, in words: each line with its editions, and the code when the recipe asks for one. */
  const spendText = () => {
    const lines = spend.map(
      (line) =>
        `${t('item', { quantity: line.quantity, name: line.name })}${line.editions.length > 0 ? ` (${line.editions.join(', ')})` : ''}`,
    );
    return lines.length === 0 ? t('aCode') : `${lines.join(' + ')}${requiresCode ? ` ${t('andCode')}` : ''}`;
  };

  const exchange = async () => {
    if (busy || asking.current) return;
    if (requiresCode && !code.trim()) {
      showToast('warn', t('codeRequired'));
      return;
    }
    asking.current = true;
    try {
      await confirm({
        title: t('confirmTitle'),
        content: t('confirm', { items: spendText(), name: outputName }),
        cancelText: common('cancel'),
        confirmText: t('exchange'),
      });
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
          <Card as="section" className="flex flex-col items-center gap-3 p-4 text-center" data-testid="exchange-result">
            <p className="text-base font-semibold text-skin-1">{t('done', { name: outputName })}</p>
            <CollectibleArt collectible={result.output.commodity} width="2rem" placeholderColor={placeholderColor} />
            <div>
              <p className="text-base font-medium text-neutral-800" data-testid="exchange-result-name">
                {result.output.commodity.name}
              </p>
              <p
                className="mt-1 inline-block rounded-full bg-skin-light px-3 py-1 text-sm font-semibold text-skin-1"
                data-testid="exchange-result-edition"
              >
                #{result.output.number}/{result.output.amountNumber}
              </p>
            </div>
            <div className="flex w-full flex-col gap-2">
              <Link href="/mine/collection" className={`${link} bg-skin-button text-skin-button-text shadow-card`}>
                {t('seeCollection')}
              </Link>
              {/* The exchange's own record (what it gave and what it spent), on every channel: on SWAP the burnt
                  items' list is titled 'receive records' (spec §2 mineDestory), which would name the wrong place. */}
              <Link href="/mine/exchange" className={`${link} border border-black/10 bg-skin-card text-skin-1`}>
                {t('recordsTitle')}
              </Link>
            </div>
          </Card>
        ) : null}
      </div>
      {refusal !== null ? (
        <Card as="p" className="p-4 text-center text-sm font-medium text-neutral-600" data-testid="exchange-refusal">
          {refusal}
        </Card>
      ) : (
        <form
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            void exchange();
          }}
        >
          {requiresCode ? <CodeField card label={t('codeLabel')} hint={t('codeHint')} value={code} onChange={setCode} /> : null}
          <Button type="primary" htmlType="submit" loading={busy} className="w-full">
            {t('exchange')}
          </Button>
        </form>
      )}
    </div>
  );
}
