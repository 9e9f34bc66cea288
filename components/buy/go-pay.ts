'use client';

import type { StartedPayment } from '@/lib/payment/schema';

type Router = { push: (href: string) => void };

/** WeChat's in-page bridge (only inside WeChat's browser). */
type WeixinJSBridge = {
  invoke: (name: 'getBrandWCPayRequest', params: unknown, callback: (result: { err_msg?: string }) => void) => void;
};

function bridge(): Promise<WeixinJSBridge | null> {
  const w = window as unknown as { WeixinJSBridge?: WeixinJSBridge };
  if (w.WeixinJSBridge) return Promise.resolve(w.WeixinJSBridge);
  return new Promise((resolve) => {
    const ready = () => resolve(w.WeixinJSBridge ?? null);
    document.addEventListener('WeixinJSBridgeReady', ready, { once: true });
    // The bridge is injected as the page loads; a page without it (not WeChat after all) does not wait forever.
    setTimeout(() => resolve(w.WeixinJSBridge ?? null), 3000);
  });
}

/** Leaving the store for another page (a provider's); one place, so tests can watch it (jsdom cannot navigate). */
export const navigation = {
  leave(url: string): void {
    window.location.assign(url);
  },
};

/**
 * Takes the buyer to pay an opened payment: WeChat's JSAPI sheet first when the payment has one (whatever the sheet
 * answers, the result page then asks WeChat Pay how it went: the sheet's "ok" is not proof of payment), then `payUrl`:
 * a page of ours by the router, a provider's page (WeChat Pay H5) by a full navigation. False when the sheet could not
 * be opened (the caller says so and lets the buyer try again).
 */
export async function goPay(payment: Pick<StartedPayment, 'payUrl' | 'jsapi'>, router: Router): Promise<boolean> {
  if (payment.jsapi) {
    const jsBridge = await bridge();
    if (!jsBridge) return false;
    await new Promise<void>((resolve) => jsBridge.invoke('getBrandWCPayRequest', payment.jsapi, () => resolve()));
  }
  if (/^https?:\/\//.test(payment.payUrl)) navigation.leave(payment.payUrl);
  else router.push(payment.payUrl);
  return true;
}
