'use client';

import { useState, useSyncExternalStore } from 'react';
import { copyText } from './copy-text';

/** Whether the browser has a share sheet never changes while the page is open. */
const noChange = () => () => {};

/**
 * Share a certificate's public page (issue 36): copy its link, and the system share sheet where the browser has one
 * (`navigator.share`; known only in the browser, so the button comes after the page's scripts).
 */
export function ShareActions({
  url,
  title,
  text,
  words,
}: {
  url: string;
  title: string;
  text: string;
  words: { share: string; copyLink: string; linkCopied: string };
}) {
  // The server does not know the browser: no share sheet in its HTML, the browser's answer once hydrated.
  const canShare = useSyncExternalStore(
    noChange,
    () => typeof navigator.share === 'function',
    () => false,
  );
  const [copied, setCopied] = useState(false);
  const button =
    'flex h-[0.8rem] flex-1 items-center justify-center rounded-full text-sm font-semibold active:opacity-80 border border-black/10 bg-skin-card text-skin-1';
  return (
    <div className="flex gap-3" data-testid="certificate-share">
      <button
        type="button"
        className={button}
        data-testid="certificate-copy-link"
        onClick={async () => {
          if (await copyText(url)) {
            setCopied(true);
            window.setTimeout(() => setCopied(false), 2000);
          }
        }}
      >
        <span aria-live="polite">{copied ? words.linkCopied : words.copyLink}</span>
      </button>
      {canShare ? (
        <button
          type="button"
          className={button}
          data-testid="certificate-share-sheet"
          onClick={() => {
            // Closing the sheet without sharing rejects: nothing to tell.
            navigator.share({ url, title, text }).catch(() => undefined);
          }}
        >
          {words.share}
        </button>
      ) : null}
    </div>
  );
}
