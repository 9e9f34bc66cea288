'use client';

import { useEffect, useRef, useState } from 'react';
import type { openApp, AppLink } from '@/lib/client/deep-link';
import { useRunEnvironment } from '@/components/shell/run-environment';
import { openWxTip } from '@/components/shell/wx-tip-open';

/**
 * "Open in app" (spec §1 deep-link helpers, §4): tries the channel's app and, if this page is still visible after
 * 2000 ms, goes to the app's download page. Offered only where the channel configures an app link (`link` null:
 * nothing rendered), and not where it cannot help: inside the app already, or in a mini-program's web view, which
 * opens neither other apps nor outside pages. Where the channel has no download page on the web, the buyer stays on
 * this page and `notOpened` says the app did not open (issue 30: the demo's fallback address did not resolve and left
 * the buyer on a browser error; docs/decisions.md, "Open in app"). `open` is the deep-link helper (a test passes one
 * with fake timers).
 *
 * A real link to the app's address (issue 34): a tap before the page's scripts have arrived already asks the phone to
 * open the app; once they have, the tap goes through `open`, which adds the fall-back to the download page or the note.
 * `open` (lib/client/deep-link.ts) is not part of the page's first load: it is fetched when a finger comes down on the
 * button and used by the tap that follows (a tap whose helper cannot be fetched still asks for the app).
 */
let helper: Promise<typeof openApp> | null = null;

/** The deep-link helper, fetched once (again after a failed fetch). */
function loadOpen(): Promise<typeof openApp> {
  helper ??= import('@/lib/client/deep-link').then(
    (m) => m.openApp,
    (error: unknown) => {
      helper = null;
      throw error;
    },
  );
  return helper;
}

export function OpenInApp({
  link,
  label,
  notOpened,
  inWechat,
  open,
}: {
  link: AppLink | null;
  label: string;
  notOpened: string;
  /** issue 36: what the WeChat tip says when this is tapped inside WeChat, which opens no other app from a page. */
  inWechat: string;
  open?: typeof openApp;
}) {
  const environment = useRunEnvironment();
  const cancel = useRef<(() => void) | null>(null);
  const [stayed, setStayed] = useState(false);
  // Leaving the page in the app's place (a client-side navigation) must not send the buyer to the download page later.
  useEffect(() => () => cancel.current?.(), []);
  // The note lies over what follows the button: the buyer's next touch anywhere takes it away.
  useEffect(() => {
    if (!stayed) return;
    const hide = () => setStayed(false);
    document.addEventListener('pointerdown', hide);
    return () => document.removeEventListener('pointerdown', hide);
  }, [stayed]);
  if (!link || environment === 'app' || environment === 'wxapp') return null;
  return (
    <span className="relative shrink-0">
      <a
        href={link.appUrl}
        data-testid="open-in-app"
        className="inline-flex h-[0.56rem] shrink-0 items-center gap-1 rounded-full border border-skin-1/30 px-3 text-xs font-medium whitespace-nowrap text-skin-1 active:scale-95 active:bg-skin-1/10 motion-reduce:active:scale-100"
        onPointerDown={() => void loadOpen()}
        onClick={(event) => {
          event.preventDefault();
          if (environment === 'wxh5') return openWxTip(inWechat);
          cancel.current?.();
          setStayed(false);
          const start = (openFn: typeof openApp) => {
            cancel.current = openFn(link.appUrl, link.downloadUrl, undefined, () => setStayed(true));
          };
          if (open) start(open);
          else loadOpen().then(start, () => window.location.assign(link.appUrl));
        }}
      >
        <svg viewBox="0 0 16 16" aria-hidden="true" className="size-[1.1em]" fill="none" stroke="currentColor" strokeWidth={1.6}>
          <rect x="4" y="1.5" width="8" height="13" rx="1.8" />
          <path d="M7 12h2" strokeLinecap="round" />
        </svg>
        {label}
      </a>
      {/* Announced when it appears; drawn under the button, over what follows, on a solid backing of its own. */}
      <span role="status" className="absolute top-full right-0 z-10 mt-1.5 w-[4.4rem] empty:hidden">
        {stayed ? (
          <span
            className="block rounded-lg bg-neutral-900 px-3 py-2 text-xs leading-snug text-white shadow-lg"
            data-testid="open-in-app-note"
          >
            {notOpened}
          </span>
        ) : null}
      </span>
    </span>
  );
}
