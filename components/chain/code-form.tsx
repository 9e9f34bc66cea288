'use client';

import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';
import { CodeField } from '@/components/ui/code-field';
import { showToast } from '@/components/ui/toast';
import { useApi } from '@/components/shell/api-provider';
import { useStorefront } from '@/components/shell/storefront-provider';
import { BusinessError } from '@/lib/client/api-client';
import { REASON, type RefusalData } from '@/lib/procedure/reasons';
import type { StoreView } from '@/lib/chain/schema';

/**
 * The self chain-up form (spec §2 chain): the code found on the product and the store it was bought from (one of the
 * channel's allowed stores, spec §9). The code is looked up first; then the code travels to the confirm page in the
 * goods state (spec §3 chainCode), never in the address, so it stays out of history and tracked page URLs.
 */
export function ChainCodeForm({ stores }: { stores: StoreView[] }) {
  const t = useTranslations('chain');
  const api = useApi();
  const router = useRouter();
  const savedCode = useStorefront((s) => s.goods.chainCode);
  const setChainCode = useStorefront((s) => s.setChainCode);
  const [code, setCode] = useState(savedCode ?? '');
  const [storeCode, setStoreCode] = useState('');
  const [busy, setBusy] = useState(false);

  const next = async () => {
    if (!code.trim()) return showToast('warn', t('codeRequired'));
    if (!storeCode) return showToast('warn', t('storeRequired'));
    setBusy(true);
    try {
      const found = await api.post('/market/api/channel/queryCodeRecord', { code, storeCode });
      setChainCode(code.trim());
      const { campaign, type, store } = found;
      router.push(`/chain/${campaign.id}/${encodeURIComponent(store.code)}/${type}/${encodeURIComponent(campaign.authorStageName)}`);
    } catch (error) {
      // The client has shown why (spec §8). A code this user already chained up opens its result.
      const data = error instanceof BusinessError ? (error.data as RefusalData | null) : null;
      if (data?.reason === REASON.alreadyChainedUp && typeof data.recordId === 'string') router.push(`/chain/result?id=${data.recordId}`);
      setBusy(false);
    }
  };

  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        void next();
      }}
    >
      <CodeField label={t('codeLabel')} hint={t('codeHint')} value={code} onChange={setCode} />
      <label className="flex flex-col gap-1">
        <span className="text-sm font-medium text-skin-1">{t('store')}</span>
        <select
          value={storeCode}
          onChange={(e) => setStoreCode(e.target.value)}
          name="storeCode"
          className="rounded-lg border border-black/10 bg-white px-3 py-2 text-sm outline-none focus:border-(--skin-color1)"
        >
          <option value="" disabled>
            {t('chooseStore')}
          </option>
          {stores.map((s) => (
            <option key={s.code} value={s.code}>
              {s.name} ({s.code})
            </option>
          ))}
        </select>
      </label>
      <Button type="primary" htmlType="submit" loading={busy} className="w-full">
        {t('next')}
      </Button>
    </form>
  );
}
