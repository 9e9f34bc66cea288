'use client';

import { useState, useSyncExternalStore } from 'react';
import { copyText } from './copy-text';

export type ShareActionsLabels = {
  copyLink: string;
  copied: string;
  copyFailed: string;
  system: string;
  poster: string;
  posterAlt: string;
  saveHint: string;
  link: string;
};

type Props = {
  /** The link to share, absolute (a logged-in buyer's carries their share code). */
  url: string;
  /** What the system share sheet titles it with, and the words it sends with the link (where the sheet takes them). */
  title: string;
  text?: string;
  /** The share poster (a PNG), shown on tap; none: no poster action. */
  posterUrl?: string;
  labels: ShareActionsLabels;
};

/** Whether the browser can share does not change while the page is open. */
const noChange = () => () => {};

const BUTTON =
  'flex h-[0.88rem] w-full items-center justify-center rounded-full text-base font-semibold whitespace-nowrap active:scale-95 motion-reduce:active:scale-100';

/**
 * A share sheet's actions (issue 36, docs/sharing.md): copy the link, the system share sheet where the browser has one
 * (`navigator.share`), and the share poster as an <img> (press and hold to save: WeChat's browser and iOS Safari save
 * an image that way). For any page that shares a link: the goods page's share page, and later a collectible's
 * certificate (its public page's link). Loaded only on the pages that show it, never with the goods page it shares.
 */
export function ShareActions({ url, title, text, posterUrl, labels }: Props) {
  // The system share sheet: known in the browser only (the server's HTML has no such button).
  const canShare = useSyncExternalStore(
    noChange,
    () => typeof navigator.share === 'function',
    () => false,
  );
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const [posterShown, setPosterShown] = useState(false);

  const copyLink = async () => {
    // The Clipboard API where the page may use it, else the older selection copy (a page on plain http).
    setCopy((await copyText(url)) ? 'copied' : 'failed');
  };

  const systemShare = async () => {
    try {
      await navigator.share(text ? { title, text, url } : { title, url });
    } catch {
      // Dismissed by the buyer, or refused by the browser: nothing to say.
    }
  };

  return (
    <div className="flex flex-col gap-3" data-testid="share-actions">
      <label className="flex flex-col gap-1 text-sm text-neutral-500">
        {labels.link}
        <input
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
          className="w-full rounded-md border border-black/10 bg-white px-3 py-2 font-mono text-[0.24rem] text-skin-1"
          data-testid="share-link"
        />
      </label>
      <button
        type="button"
        onClick={() => void copyLink()}
        className={`${BUTTON} bg-skin-button text-skin-button-text shadow-card`}
        data-testid="share-copy"
      >
        {labels.copyLink}
      </button>
      <p
        role="status"
        aria-live="polite"
        className="-my-1.5 min-h-4 text-center text-sm text-neutral-600 empty:min-h-0"
        data-testid="share-copy-status"
      >
        {copy === 'copied' ? labels.copied : copy === 'failed' ? labels.copyFailed : ''}
      </p>
      {canShare && (
        <button
          type="button"
          onClick={() => void systemShare()}
          className={`${BUTTON} bg-skin-light text-skin-1`}
          data-testid="share-system"
        >
          {labels.system}
        </button>
      )}
      {posterUrl && !posterShown && (
        <button
          type="button"
          onClick={() => setPosterShown(true)}
          className={`${BUTTON} border border-black/10 bg-white text-neutral-800`}
          data-testid="share-poster-button"
        >
          {labels.poster}
        </button>
      )}
      {posterUrl && posterShown && (
        <figure className="flex flex-col items-center gap-2" data-testid="share-poster">
          {/* A plain <img>: long-press saves it in WeChat and iOS Safari; next/image would serve another file. */}
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img
            src={posterUrl}
            alt={labels.posterAlt}
            width={750}
            height={1240}
            className="h-auto w-full max-w-[6rem] rounded-lg shadow-card"
          />
          <figcaption className="text-center text-sm text-neutral-600" data-testid="share-save-hint">
            {labels.saveHint}
          </figcaption>
        </figure>
      )}
    </div>
  );
}
