/**
 * Runs in the browser before the store hydrates (Next.js client instrumentation). It sets up the completion of the
 * stylesheet of a page the page door cut (components/shell/complete-stylesheets.ts), at the page's load event. And it tells the progress bar
 * between pages (components/shell/navigation-progress.tsx) that the App Router started a navigation. This hook is
 * the one Next gives that sees every navigation: a tapped link, a query-only link, router.push and router.replace,
 * back and forward (issue 30); `useLinkStatus` and `<Link onNavigate>` see only the link they are given to.
 */
import { announceNavigationStart } from './components/shell/navigation-start';
import { completeStylesheetsOf } from './components/shell/complete-stylesheets';

completeStylesheetsOf(window);

export function onRouterTransitionStart(url: string): void {
  announceNavigationStart(url);
}
