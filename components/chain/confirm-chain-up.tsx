'use client';

import { useState } from 'react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';
import { CodeField } from '@/components/ui/code-field';
import { showToast } from '@/components/ui/toast';
import { useApi } from '@/components/shell/api-provider';
import { useStorefront } from '@/components/shell/storefront-provider';
import { BusinessError } from '@/lib/client/api-client';
import { Card } from '@/components/ui/card';
import type { CodeType } from '@/lib/chain/schema';

/**
 * The chain-up page's confirm button (spec §2 chainUp). The code comes from the goods state (spec §3 chainCode), set
 * by /chain; after a reload it is gone, so the field asks for it again. On success the code is cleared and the
 * result page opens in place of this one.
 */
export function ConfirmChainUp({ campaignId, storeCode, type }: { campaignId: string; storeCode: string; type: CodeType }) {
  const t = useTranslations('chain');
  const api = useApi();
  const router = useRouter();
  const chainCode = useStorefront((s) => s.goods.chainCode);
  const setChainCode = useStorefront((s) => s.setChainCode);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const code = chainCode ?? typed;

  const confirm = async () => {
    if (!code.trim()) return showToast('warn', t('codeRequired'));
    setBusy(true);
    try {
      // The code is the key of this tap: sending it again answers with the same record (lib/chain/chain-up.ts).
      const record = await api.post('/market/api/channelChainRecord/create', { id: campaignId, code, type, storeCode });
      setChainCode(null);
      router.replace(`/chain/result?id=${record.id}`);
    } catch (error) {
      // The client has shown why (spec §8); a wrong code is dropped so the buyer can type it again.
      if (error instanceof BusinessError && chainCode) setChainCode(null);
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      {chainCode ? (
        <Card as="p" className="px-4 py-3 text-sm">
          <span className="block text-xs text-neutral-500">{t('codeLabel')}</span>
          <span className="font-mono tracking-wide text-skin-1" data-testid="chain-code">
            {chainCode}
          </span>
        </Card>
      ) : (
        <CodeField card label={t('codeLabel')} hint={t('codeHint')} value={typed} onChange={setTyped} />
      )}
      <Button type="primary" loading={busy} className="w-full" onClick={() => void confirm()}>
        {t('confirm')}
      </Button>
      <Link href="/chain" className="text-center text-sm text-skin-1 underline underline-offset-2">
        {t('changeCode')}
      </Link>
    </div>
  );
}
