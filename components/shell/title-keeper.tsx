'use client';

import { useEffect } from 'react';

const KEPT = 'data-kept-title';

/**
 * Keeps the tab's title through a client navigation (issue 17, item 11). The router takes the old page's `<title>` away
 * a moment before the new page's arrives (about 20 ms after a redirect such as the cashier's to /pay/success), and a
 * tab, a history entry or a screen reader reading the title then gets nothing. While no title is in the document this
 * puts the last one back, marked, and takes it away as soon as the page's own title is there.
 */
export function TitleKeeper() {
  useEffect(() => {
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
