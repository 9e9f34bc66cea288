'use client';

import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { useApi } from '@/components/shell/api-provider';
import type { HoldingView } from '@/lib/collection/schema';
import { Card } from '@/components/ui/card';

/** My unopened blind boxes; "open" draws on the server, then the prize is revealed with a flip-and-glow animation. */
export function BoxList({ boxes, placeholderColor }: { boxes: HoldingView[]; placeholderColor: string }) {
  const t = useTranslations('box');
  const api = useApi();
  const router = useRouter();
  const [opening, setOpening] = useState<string | null>(null);
  const [prize, setPrize] = useState<HoldingView | null>(null);
  const open = async (id: string) => {
    setOpening(id);
    try {
      const result = await api.post('/market/api/box/open', { id });
      setPrize(result.prize);
    } catch {
      router.refresh();
    } finally {
      setOpening(null);
    }
  };
  return (
    <>
      <ul className="grid grid-cols-2 gap-3" data-testid="boxes">
        {boxes.map((b) => (
          <Card as="li" key={b.id} className="overflow-hidden" data-testid="box">
            <CollectibleArt
              collectible={b.commodity}
              named
              width="full"
              sizes="3.4rem"
              className={opening === b.id ? 'motion-safe:animate-pulse' : ''}
              placeholderColor={placeholderColor}
            />
            <div className="flex flex-col gap-2 p-2.5">
              <p className="truncate text-sm font-semibold text-skin-1">
                {b.commodity.name} <span className="text-xs font-medium text-skin-sign">#{b.commoditySku.number}</span>
              </p>
              <Button
                type="primary"
                size="md"
                loading={opening === b.id}
                disabled={opening !== null}
                onClick={() => void open(b.id)}
                className="w-full"
              >
                {opening === b.id ? t('opening') : t('open')}
              </Button>
            </div>
          </Card>
        ))}
      </ul>
      {prize ? (
        <div
          role="dialog"
          aria-modal="true"
          aria-labelledby="box-reveal-title"
          className="fixed inset-0 z-50 flex items-center justify-center bg-black/70 px-6"
          data-testid="box-reveal"
        >
          <div className="box-reveal w-full max-w-[6rem] rounded-2xl bg-skin-card p-5 text-center shadow-xl">
            <p id="box-reveal-title" className="text-sm text-neutral-500">
              {t('youGot')}
            </p>
            <div className="box-reveal-glow mx-auto mt-3 w-[3.6rem] overflow-hidden rounded-xl">
              <CollectibleArt collectible={prize.commodity} named width="full" sizes="3.6rem" placeholderColor={placeholderColor} />
            </div>
            <p className="mt-3 text-lg font-semibold text-skin-1" data-testid="box-prize-name">
              {prize.commodity.name}
            </p>
            <p className="text-sm font-semibold text-skin-sign" data-testid="box-prize-edition">
              #{prize.commoditySku.number}/{prize.commoditySku.amountNumber}
            </p>
            <Button
              type="primary"
              className="mt-4 w-full"
              onClick={() => {
                setPrize(null);
                router.refresh();
              }}
            >
              {t('close')}
            </Button>
          </div>
        </div>
      ) : null}
    </>
  );
}
