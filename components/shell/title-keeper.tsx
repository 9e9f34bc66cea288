'use client';

import { useEffect } from 'react';

const KEPT = 'data-kept-title';

/**
 * Test-only: a page whose window has this property set to true before it loads runs without the keeper, so that
 * e2e/navigation.spec.ts can watch what Next does alone and say when the keeper is no longer needed.
 */
export const TITLE_KEEPER_OFF = '__storefrontTitleKeeperOff';

/**
 * Keeps the tab's title through a client navigation (issue 17, item 11). A workaround for Next.js: on a client
 * navigation the App Router takes the old page's `<title>` out of the head a moment before it puts the new page's in
 * (about 20 ms after a redirect such as the cashier's to /pay/success), and a tab, a history entry or a screen reader
 * reading the title in between gets nothing. Reported upstream as
 * https://github.com/vercel/next.js/issues/96797 (`document.title` is empty between the old and the new `<title>`; the
 * route announcer then reads the old page), https://github.com/vercel/next.js/issues/65872 (the tab's title is reset
 * for a moment on navigating to a dynamic page) and https://github.com/vercel/next.js/issues/83017 (the tab shows the
 * address while the new page's metadata is awaited); none is fixed in the Next.js this store runs (package.json).
 *
 * While no title is in the document this puts the last one back, marked, and takes it away as soon as the page's own
 * title is there. e2e/navigation.spec.ts fails, saying so, on the day Next alone never leaves the title empty: then
 * this component and its test can go.
 */
export function TitleKeeper() {
  useEffect(() => {
    if ((window as unknown as Record<string, unknown>)[TITLE_KEEPER_OFF] === true) return;
    let last = document.title;
    const check = () => {
      const titles = [...document.head.querySelectorAll('title')];
      const own = titles.filter((t) => !t.hasAttribute(KEPT));
      const kept = titles.filter((t) => t.hasAttribute(KEPT));
      if (own.length > 0) {
        for (const t of kept) t.remove();
        if (document.title) last = document.title;
        return;
      }
      if (kept.length === 0 && last) {
        const title = document.createElement('title');
        title.setAttribute(KEPT, '');
        title.textContent = last;
        document.head.prepend(title);
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);
  return null;
}
