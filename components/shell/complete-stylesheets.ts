/**
 * The whole stylesheet put into a page whose stylesheet the page door cut (issue 34; lib/page/style-subset.ts;
 * docs/caching.md, "Painted from the page alone"). Set up by instrumentation-client.ts as soon as the page's scripts
 * run, it fetches at the page's load event (its scripts and its largest picture in), about when it hydrates: the pages
 * the app navigates to are matched by React to this same `<style>` by its address, and must find it whole. Tried again when a navigation begins, when the phone is back online, and after a while.
 */
import { NAVIGATION_START } from './navigation-start';

/** The cut stylesheets being completed, so that a second call does not fetch them again. */
const completing = new WeakSet<HTMLStyleElement>();
/** Waits before the next try after a failure: 2 s, then 4, 8, 16, 32; then only a navigation or `online` tries. */
const RETRY_MS = [2_000, 4_000, 8_000, 16_000, 32_000];

/**
 * Puts the whole stylesheet, fetched by its address under `/_next/static/`, into each `<style data-subset>` of `doc`
 * (the same element: one stylesheet, in its place in the cascade), and drops the mark. Resolves whether every cut one
 * is now whole; a failed fetch leaves it cut.
 */
export async function completeStylesheets(doc: Document): Promise<boolean> {
  const cut = [...doc.querySelectorAll<HTMLStyleElement>('style[data-subset]')];
  const results = await Promise.all(
    cut.map(async (style) => {
      if (completing.has(style)) return true; // its fetch is on its way
      const hrefs = (style.dataset.href ?? '').split(/\s+/).filter(Boolean);
      if (hrefs.length === 0 || !hrefs.every((href) => href.startsWith('/_next/static/'))) return true;
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
        return true;
      } catch {
        return false;
      } finally {
        completing.delete(style);
      }
    }),
  );
  return results.every(Boolean);
}

/**
 * Completes the page's stylesheet once the page has loaded, and again on failure (see RETRY_MS), when a navigation
 * begins and when the phone is back online.
 */
export function completeStylesheetsOf(win: Window): void {
  if (!win.document.querySelector('style[data-subset]')) return;
  let tries = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const attempt = () => {
    clearTimeout(timer);
    void completeStylesheets(win.document).then((whole) => {
      if (whole) {
        win.removeEventListener(NAVIGATION_START, attempt);
        win.removeEventListener('online', attempt);
      } else if (tries < RETRY_MS.length) timer = setTimeout(attempt, RETRY_MS[tries++]);
    });
  };
  win.addEventListener(NAVIGATION_START, attempt);
  win.addEventListener('online', attempt);
  // After the load event: the page's scripts and its largest picture have come, and the fetch takes nothing from them.
  if (win.document.readyState === 'complete') attempt();
  else win.addEventListener('load', attempt, { once: true });
}
