'use client';

import type { ComponentProps } from 'react';
import { StorefrontProvider } from '@/components/shell/storefront-provider';
import { GoodsIdentityNotice } from '@/components/identity/goods-identity-notice';

/**
 * The goods page's real-name line with the client store it reads the buyer's phone from: the channel's layout carries
 * no store (issue 34), so the notice brings its own. Loaded only where a channel asks for real names
 * (./goods-identity-island).
 */
export default function GoodsIdentityWithStore({
  showAmount,
  ...notice
}: ComponentProps<typeof GoodsIdentityNotice> & { showAmount: boolean }) {
  return (
    <StorefrontProvider showAmount={showAmount}>
      <GoodsIdentityNotice {...notice} />
    </StorefrontProvider>
  );
}
