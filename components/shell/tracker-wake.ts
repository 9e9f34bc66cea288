/**
 * When the page-view tracker (./page-tracker.tsx) is loaded, and what it is handed (issue 34, first-load JavaScript).
 *
 * The tracker is not part of what a page needs to come alive: it is loaded once the page has loaded and a further
 * `TRACKER_QUIET_MS` have passed with nothing of the page's own left to fetch, or at once when the page is hidden
 * (switching apps on a phone: it then records the dwell time as it always did). Until it is there, the shell notes the
 * pages seen (`EarlyVisits`, a few bytes per page) and the tracker records them when it comes, with the times they were
 * entered. A buyer who leaves the document before it came (a plain link, the back button, a reload) does not lose their
 * page view: the pages seen go to the tab's session storage with the moment they were left (`PENDING_VISITS_KEY`), and
 * the next tracker of this store in the tab records them, a view and a leave each (docs/decisions.md, "The tracker after
 * the page is quiet"). Only a visitor who leaves the store altogether within the first seconds and never comes back in
 * that tab is not counted.
 */

/** After the load event, how long the page waits before it loads the tracker. */
export const TRACKER_QUIET_MS = 1000;

/** The session-storage key prefix of the pages seen in documents left before their tracker came (one key per document). */
export const PENDING_VISITS_KEY = 'art-pending-visits';

/** A page seen before the tracker came: its URL (path and query) and when it was entered (ms). */
export type EarlyVisit = { url: string; enteredAt: number };

/** The pages seen in this document before the tracker came; `taken` once the tracker (or the session storage) has them. */
export type EarlyVisits = { visits: EarlyVisit[]; taken: boolean };

/**
 * This document's: one shell and one tracker per document. Written only in the browser, by effects (the shell's
 * `useEarlyVisits`, the tracker's mount), never while rendering, so the server's copy stays empty.
 */
export const earlyVisits: EarlyVisits = { visits: [], taken: false };

/** Notes the page now shown, until the tracker has taken the pages seen. */
export function noteEarlyVisit(url: string, now: number, early: EarlyVisits = earlyVisits): void {
  if (early.taken) return;
  if (early.visits.at(-1)?.url !== url) early.visits.push({ url, enteredAt: now });
}

/** Pages seen in a document that was left before its tracker came: the pages in order, its referrer, when it was left. */
export type PendingVisits = { visits: EarlyVisit[]; referrer: string; leftAt: number };

/**
 * Calls `wake` once: `quietMs` after the load event (at once if the page is hidden first). `onLeave` is called when the
 * document is left before that (pagehide), and `wake` too, in case the document comes back from the back-forward cache.
 * Returns what stops listening.
 */
export function wakeWhenQuiet(wake: () => void, onLeave: () => void, quietMs = TRACKER_QUIET_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearTimeout(timer);
    window.removeEventListener('load', afterLoad);
    window.removeEventListener('pagehide', left);
    document.removeEventListener('visibilitychange', hidden);
  };
  const go = () => {
    stop();
    wake();
  };
  const afterLoad = () => {
    timer = setTimeout(go, quietMs);
  };
  const hidden = () => {
    if (document.visibilityState === 'hidden') go();
  };
  const left = () => {
    onLeave();
    go();
  };
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
  window.addEventListener('pagehide', left);
  document.addEventListener('visibilitychange', hidden);
  return stop;
}

/**
 * Moves the pages seen so far to the tab's session storage, to be recorded by the next tracker (see above): one key per
 * document left (`PENDING_VISITS_KEY` and the moment it was left), so nothing is read here; ./pending-visits.ts reads them.
 */
export function savePendingVisits(leftAt: number, early: EarlyVisits = earlyVisits): void {
  if (early.taken || early.visits.length === 0) return;
  early.taken = true;
  const pending: PendingVisits = { visits: early.visits, referrer: document.referrer, leftAt };
  try {
    sessionStorage.setItem(`${PENDING_VISITS_KEY}:${leftAt}`, JSON.stringify(pending));
  } catch {
    // Storage blocked or full: these page views are lost, as they were before the tracker came later.
  }
}

/** This document's pages seen before the tracker came, taken once (null when taken already, e.g. saved as pending). */
export function takeEarlyVisits(early: EarlyVisits = earlyVisits): EarlyVisit[] | null {
  if (early.taken) return null;
  early.taken = true;
  return early.visits;
}
