// The rule and the link live with the channel (the console's check reads them there); pages import them from here too.
export { appLinkFor, isAppLinkBase, type AppLink } from '../channel/app-link';

/** spec §4, §9: if the page does not go hidden within 2000 ms of opening the app, go to the download page. */
export const DEEP_LINK_TIMEOUT_MS = 2000;

export type DeepLinkDeps = {
  navigate: (url: string) => void;
  isHidden: () => boolean;
  onHidden: (listener: () => void) => () => void;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (handle: unknown) => void;
};

/**
 * Opens the native app through its URL scheme (a channel setting) and falls back to the app download page when the
 * app did not take over; without a download page, `onStayed` is called instead (the buyer is still on the page).
 * Returns a cancel function.
 */
export function openApp(
  appUrl: string,
  downloadUrl: string | null,
  deps: DeepLinkDeps = browserDeps(),
  onStayed: () => void = () => {},
): () => void {
  let done = false;
  const finish = () => {
    done = true;
    deps.clearTimer(timer);
    stopListening();
  };
  const stopListening = deps.onHidden(() => finish());
  const timer = deps.setTimer(() => {
    if (done) return;
    finish();
    if (deps.isHidden()) return;
    if (downloadUrl) deps.navigate(downloadUrl);
    else onStayed();
  }, DEEP_LINK_TIMEOUT_MS);
  deps.navigate(appUrl);
  return finish;
}

function browserDeps(): DeepLinkDeps {
  return {
    navigate: (url) => window.location.assign(url),
    isHidden: () => document.hidden,
    onHidden: (listener) => {
      const handler = () => {
        if (document.hidden) listener();
      };
      document.addEventListener('visibilitychange', handler);
      window.addEventListener('pagehide', listener);
      return () => {
        document.removeEventListener('visibilitychange', handler);
        window.removeEventListener('pagehide', listener);
      };
    },
    setTimer: (fn, ms) => window.setTimeout(fn, ms),
    clearTimer: (handle) => window.clearTimeout(handle as number),
  };
}
