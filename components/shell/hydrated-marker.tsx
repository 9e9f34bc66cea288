'use client';

import { useEffect } from 'react';
import { NAVIGATION_START } from './navigation-start';

/** What the marker is set to once the page's scripts have hydrated it. */
export const HYDRATED = '1';
/** The performance mark of the same moment (its startTime: ms after navigation start). */
export const HYDRATED_MARK = 'storefront:hydrated';

/**
 * Marks the document once React has hydrated the page: `<html data-hydrated="1">` (issue 34). The throttled
 * real-browser bench (scripts/bench-throttled.ts) reads the moment from the `storefront:hydrated` performance mark; the e2e specs can wait on it instead of
 * guessing when a page is alive.
 *
 * Then it completes the page's stylesheet if the page door cut it (lib/page/style-subset.ts), so that the pages the
 * app navigates to, whose stylesheet React matches to this one by its address, are styled in full.
 */
export function HydratedMarker() {
  useEffect(() => {
    performance.mark(HYDRATED_MARK);
    document.documentElement.dataset.hydrated = HYDRATED;
    void completeStylesheets(document);
    // Tried again when a navigation begins, if the fetch failed (a phone that lost the link for a moment).
    const again = () => void completeStylesheets(document);
    window.addEventListener(NAVIGATION_START, again);
    return () => window.removeEventListener(NAVIGATION_START, again);
  }, []);
  return null;
}

/** The cut stylesheets being completed, so that a second call does not fetch them again. */
const completing = new WeakSet<HTMLStyleElement>();

/**
 * Puts the whole stylesheet, fetched by its address under `/_next/static/`, into each `<style data-subset>` of `doc`
 * (the same element: one stylesheet, in its place in the cascade), and drops the mark. A failed fetch leaves the cut
 * one as it was.
 */
export async function completeStylesheets(doc: Document): Promise<void> {
  const cut = [...doc.querySelectorAll<HTMLStyleElement>('style[data-subset]')].filter((style) => !completing.has(style));
  await Promise.all(
    cut.map(async (style) => {
      const hrefs = (style.dataset.href ?? '').split(/\s+/).filter(Boolean);
      if (hrefs.length === 0 || !hrefs.every((href) => href.startsWith('/_next/static/'))) return;
      completing.add(style);
      try {
        const texts = await Promise.all(
          hrefs.map(async (href) => {
            const response = await fetch(href);
            if (!response.ok) throw new Error(`${href}: HTTP ${response.status}`);
            return response.text();
          }),
        );
        style.textContent = texts.join('\n');
        delete style.dataset.subset;
      } catch {
        // Left cut; NAVIGATION_START tries again.
      } finally {
        completing.delete(style);
      }
    }),
  );
}
