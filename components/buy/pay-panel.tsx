'use client';

import useSWR from 'swr';
import { PayForm, type PayBuyer } from './pay-form';
import type { ComponentProps } from 'react';

/** The one call the pay page reads its buyer's part from (issue 34; lib/channel/routes.ts `shared.buyerPart`). */
export const PAY_STATE_PATH = '/market/api/saleRecord/payState';

/**
 * The pay page's client part (issue 34): the page's HTML is the same for every buyer (served from the rendered-page
 * cache), so the buyer's quota, unpaid order, identity standing and WeChat identity are read here, once the page is
 * shown, through SWR (ApiProvider's fetcher: a session the server no longer accepts goes to /login from there).
 */
export function PayPanel(props: Omit<ComponentProps<typeof PayForm>, 'buyer' | 'buyerFailed' | 'onRetry'>) {
  const { data, error, mutate } = useSWR<PayBuyer>([PAY_STATE_PATH, { id: props.saleId }], {
    // A buyer coming back from paying or verifying sees their part as it is now.
    revalidateOnFocus: true,
  });
  return <PayForm {...props} buyer={data ?? null} buyerFailed={Boolean(error)} onRetry={() => void mutate()} />;
}
