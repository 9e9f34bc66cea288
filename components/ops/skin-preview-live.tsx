'use client';

import { useEffect, type MouseEvent, type ReactNode } from 'react';

/** The messages between the skin editor and its preview frame (issue 31), both on the operator host's origin. */
export const PREVIEW_READY = 'skin-preview-ready';
export const PREVIEW_SKIN = 'skin-preview-skin';

/** A skin CSS variable's name, as skinCssVariables makes them: nothing else is ever set from a message. */
const SKIN_VARIABLE = /^--skin-[a-z0-9-]{1,40}$/;

/**
 * Inside the preview frame: takes the draft's CSS variables from the editor as the operator types and puts them on
 * the root, where the store's theme reads them (styles/globals.css). Only messages from the editor itself count (the
 * frame's parent, on this origin); only `--skin-*` properties are set, one by one, so a message can set a colour and
 * nothing else. Links and buttons do nothing here: the preview shows the store, it does not run it.
 */
export function SkinPreviewLive({ className, view, children }: { className: string; view: string; children: ReactNode }) {
  useEffect(() => {
    function onMessage(event: MessageEvent) {
      if (event.origin !== window.location.origin || event.source !== window.parent) return;
      const data = event.data as { type?: unknown; vars?: unknown };
      if (data?.type !== PREVIEW_SKIN || typeof data.vars !== 'object' || data.vars === null) return;
      const root = document.documentElement;
      for (const [name, value] of Object.entries(data.vars as Record<string, unknown>)) {
        if (SKIN_VARIABLE.test(name) && typeof value === 'string' && value.length <= 64) root.style.setProperty(name, value);
      }
      root.dataset.previewApplied = String(Number(root.dataset.previewApplied ?? '0') + 1);
    }
    window.addEventListener('message', onMessage);
    if (window.parent !== window) window.parent.postMessage({ type: PREVIEW_READY }, window.location.origin);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  function inert(event: MouseEvent) {
    if ((event.target as Element).closest('a, button')) event.preventDefault();
  }

  return (
    <div id="app" data-preview={view} className={className} onClickCapture={inert}>
      {children}
    </div>
  );
}
