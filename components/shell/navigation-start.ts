/**
 * How the router tells the store's progress bar (navigation-progress.tsx) that a navigation started: Next's client
 * instrumentation hook (instrumentation-client.ts, `onRouterTransitionStart`) sends this window event for every
 * navigation the App Router makes, whether a link was tapped, code called router.push or router.replace, or the
 * buyer went back or forward (issue 30). A window event, because the instrumentation runs in a bundle of its own,
 * before the page's React tree exists: the two share no module state.
 */
export const NAVIGATION_START = 'storefront:navigation-start';

export type NavigationStartDetail = { url: string };

/** Tells the page a navigation to `url` has started. */
export function announceNavigationStart(url: string): void {
  window.dispatchEvent(new CustomEvent<NavigationStartDetail>(NAVIGATION_START, { detail: { url } }));
}
