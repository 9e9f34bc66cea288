'use client';

import { useEffect, useState } from 'react';
import { usePathname } from 'next/navigation';
import { matchRoute } from '@/lib/channel/routes';
import { useRunEnvironment } from './run-environment';
import { WX_TIP_OPEN } from './wx-tip-open';

const DISMISSED_KEY = 'art-wx-tip-dismissed';

/**
 * "Open in browser" tip (spec §1) in WeChat's browser (wxh5), its words on a card of their own, pointing at the menu in
 * the top-right corner. Only where something does not work inside WeChat (issue 36, docs/wechat.md): on a page flagged
 * for it in the route table (none today: home and the goods page work in WeChat, whose Pay the pay page offers there),
 * and when a buyer taps something WeChat blocks, which asks for it with `openWxTip` (./wx-tip-open.ts; "open in app":
 * WeChat opens no other app from a page), with that thing's own words. A flagged page's tip is dismissed once per
 * session; a tip asked for shows each time it is asked. Loaded inside WeChat only (./shell.tsx).
 */
export function WxTip({ title, body: flaggedBody, dismiss }: { title: string; body: string; dismiss: string }) {
  const pathname = usePathname();
  // Its own state, not the client store's: the goods page and home show the tip and carry no store (issue 34).
  const environment = useRunEnvironment();
  const [dismissed, setDismissed] = useState(false);
  // The words of a tip asked for by a tap (null: none asked for).
  const [asked, setAsked] = useState<string | null>(null);
  useEffect(() => {
    const onAsk = (event: Event) => setAsked((event as CustomEvent<string>).detail);
    window.addEventListener(WX_TIP_OPEN, onAsk);
    return () => window.removeEventListener(WX_TIP_OPEN, onAsk);
  }, []);
  const flagged = Boolean(matchRoute(pathname)?.route.wxTip);
  // The environment is known in the browser only (null on the server), so sessionStorage is read there only.
  const showFlagged = environment === 'wxh5' && flagged && !dismissed && sessionStorage.getItem(DISMISSED_KEY) !== '1';
  const show = asked !== null || showFlagged;
  const body = asked ?? flaggedBody;

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
      {/* The words sit on a solid card of their own (issue 30: drawn straight on the dimmed page, over the brand card,
          they were hard to read): dark on white whatever is behind, as the store's dialogs are. */}
      <div className="mx-6 mt-[2.2rem] rounded-2xl bg-white px-6 py-6 text-center text-neutral-900 shadow-lg" data-testid="wx-tip-card">
        <h2 id="wx-tip-title" className="text-xl font-semibold">
          {title}
        </h2>
        <p className="mt-3 text-base leading-relaxed text-neutral-700">{body}</p>
        <button
          type="button"
          className="mt-6 rounded-full bg-skin-button px-8 py-2.5 text-base font-medium text-skin-button-text active:scale-95"
          onClick={() => {
            if (asked !== null) return setAsked(null);
            sessionStorage.setItem(DISMISSED_KEY, '1');
            setDismissed(true);
          }}
        >
          {dismiss}
        </button>
      </div>
    </div>
  );
}
