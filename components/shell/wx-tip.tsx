'use client';

import { useEffect } from 'react';
import { usePathname } from 'next/navigation';
import { matchRoute } from '@/lib/channel/routes';
import { useStorefront } from './storefront-provider';

const DISMISSED_KEY = 'art-wx-tip-dismissed';

/**
 * "Open in browser" tip (spec §1): in the messaging-app browser (wxh5), pages flagged for it show an overlay
 * pointing at the menu in the top-right corner. Dismissed once per session.
 */
export function WxTip({ title, body, dismiss }: { title: string; body: string; dismiss: string }) {
  const pathname = usePathname();
  const environment = useStorefront((s) => s.other.environment);
  const show = useStorefront((s) => s.other.showWxTip);
  const setShow = useStorefront((s) => s.setShowWxTip);

  useEffect(() => {
    const flagged = Boolean(matchRoute(pathname)?.route.wxTip);
    setShow(environment === 'wxh5' && flagged && sessionStorage.getItem(DISMISSED_KEY) !== '1');
  }, [environment, pathname, setShow]);

  if (!show) return null;
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby="wx-tip-title"
      data-testid="wx-tip"
      className="fixed inset-0 z-50 mx-auto max-w-(--container-app) bg-black/75 text-white"
    >
      <svg
        viewBox="0 0 120 120"
        aria-hidden="true"
        className="absolute top-2 right-4 size-[1.6rem]"
        fill="none"
        stroke="currentColor"
        strokeWidth={4}
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M20 110C40 60 70 35 100 22M100 22l-26 2M100 22l-6 25" />
      </svg>
      <div className="mt-[2.2rem] px-8 text-center">
        <h2 id="wx-tip-title" className="text-xl font-semibold">
          {title}
        </h2>
        <p className="mt-3 text-base leading-relaxed text-white/85">{body}</p>
        <button
          type="button"
          className="mt-8 rounded-full border border-white/70 px-8 py-2.5 text-base active:scale-95"
          onClick={() => {
            sessionStorage.setItem(DISMISSED_KEY, '1');
            setShow(false);
          }}
        >
          {dismiss}
        </button>
      </div>
    </div>
  );
}
