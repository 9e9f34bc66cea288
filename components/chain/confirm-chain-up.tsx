'use client';

import { useState } from 'react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { CodeField } from '@/components/ui/code-field';
import { showToast } from '@/components/ui/toast';
import { useApi } from '@/components/shell/api-provider';
import { useStorefront } from '@/components/shell/storefront-provider';
import { BusinessError } from '@/lib/client/api-client';
import type { CodeType } from '@/lib/chain/schema';

export type ConfirmChainUpTexts = { codeLabel: string; codeHint: string; codeRequired: string; confirm: string; changeCode: string };

/**
 * The chain-up page's confirm button (spec §2 chainUp). The code comes from the goods state (spec §3 chainCode), set
 * by /chain; after a reload it is gone, so the field asks for it again. On success the code is cleared and the
 * result page opens in place of this one.
 */
export function ConfirmChainUp({ campaignId, storeCode, type, texts }: { campaignId: string; storeCode: string; type: CodeType; texts: ConfirmChainUpTexts }) {
  const api = useApi();
  const router = useRouter();
  const chainCode = useStorefront((s) => s.goods.chainCode);
  const setChainCode = useStorefront((s) => s.setChainCode);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const code = chainCode ?? typed;

  const confirm = async () => {
    if (!code.trim()) return showToast('warn', texts.codeRequired);
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
        <p className="rounded-xl bg-skin-card px-4 py-3 text-sm shadow-card">
          <span className="block text-xs text-neutral-500">{texts.codeLabel}</span>
          <span className="font-mono tracking-wide text-skin-1" data-testid="chain-code">{chainCode}</span>
        </p>
      ) : (
        <CodeField card label={texts.codeLabel} hint={texts.codeHint} value={typed} onChange={setTyped} />
      )}
      <Button type="primary" loading={busy} className="w-full" onClick={() => void confirm()}>
        {texts.confirm}
      </Button>
      <Link href="/chain" className="text-center text-sm text-skin-1 underline underline-offset-2">{texts.changeCode}</Link>
    </div>
  );
}
