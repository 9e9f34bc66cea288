/** @jest-environment jsdom */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { StorefrontProvider } from '@/components/shell/storefront-provider';
import { appLinkFor, DEEP_LINK_TIMEOUT_MS, openApp, type DeepLinkDeps } from '@/lib/client/deep-link';
import { OpenInApp } from './open-in-app';

/** A browser whose navigations are written down and whose page can go hidden, on jest's fake timers. */
function fakeBrowser() {
  const visited: string[] = [];
  let hidden = false;
  const listeners = new Set<() => void>();
  const deps: DeepLinkDeps = {
    navigate: (url) => visited.push(url),
    isHidden: () => hidden,
    onHidden: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  const open: typeof openApp = (appUrl, downloadUrl, _browser, onStayed) => openApp(appUrl, downloadUrl, deps, onStayed);
  return {
    visited,
    open,
    hide: () => {
      hidden = true;
      listeners.forEach((l) => l());
    },
  };
}

const AURORA = { appScheme: 'aurora://open', appDownloadUrl: 'https://aurora.example/app' };
const PATH = '/goods/detail/7';

function renderButton(channel: { appScheme: string | null; appDownloadUrl: string | null }, open: typeof openApp) {
  return render(
    <StorefrontProvider showAmount>
      <OpenInApp
        link={appLinkFor(channel, PATH)}
        label="Open in app"
        notOpened="The Aurora Collectibles app did not open. Is it installed on this phone?"
        inWechat="WeChat does not open other apps."
        open={open}
      />
    </StorefrontProvider>,
  );
}

describe('Open in app on goods detail (spec §1, §4)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('is a real link to the app, so a tap before the page’s scripts have arrived still opens it, pressed at once (issue 34)', () => {
    const b = fakeBrowser();
    renderButton(AURORA, b.open);
    const link = screen.getByRole('link', { name: 'Open in app' });
    expect(link).toHaveAttribute('href', appLinkFor(AURORA, PATH)!.appUrl);
    expect(link.className).toMatch(/(^|\s)active:/);
    // With scripts, the tap goes through the helper (and its fall-back), not the browser's own navigation.
    // fireEvent answers false when a handler prevented the browser's default.
    expect(fireEvent.click(link)).toBe(false);
    expect(b.visited).toEqual([appLinkFor(AURORA, PATH)!.appUrl]);
  });

  it('is not offered where the channel configures no app link', () => {
    const b = fakeBrowser();
    renderButton({ appScheme: null, appDownloadUrl: null }, b.open);
    expect(screen.queryByRole('link', { name: 'Open in app' })).not.toBeInTheDocument();
    renderButton({ appScheme: null, appDownloadUrl: 'https://aurora.example/app' }, b.open);
    expect(screen.queryByRole('link', { name: 'Open in app' })).not.toBeInTheDocument();
  });

  it('with no download page (the demo), keeps the buyer on the page and says the app did not open (issue 30)', () => {
    const b = fakeBrowser();
    renderButton({ appScheme: 'aurora://open', appDownloadUrl: null }, b.open);
    fireEvent.click(screen.getByRole('link', { name: 'Open in app' }));
    act(() => jest.advanceTimersByTime(DEEP_LINK_TIMEOUT_MS - 1));
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    act(() => jest.advanceTimersByTime(1));
    expect(b.visited).toEqual(['aurora://open/goods/detail/7']);
    expect(screen.getByRole('status')).toHaveTextContent('The Aurora Collectibles app did not open. Is it installed on this phone?');
    // A new tap takes the note down while it tries again.
    fireEvent.click(screen.getByRole('link', { name: 'Open in app' }));
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    act(() => jest.advanceTimersByTime(DEEP_LINK_TIMEOUT_MS));
    expect(screen.getByRole('status')).not.toBeEmptyDOMElement();
    // It lies over the page: the buyer's next touch anywhere takes it away.
    fireEvent.pointerDown(document.body);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('tries the app, and goes to the download page when the page is still visible after 2000 ms', () => {
    const b = fakeBrowser();
    renderButton(AURORA, b.open);
    fireEvent.click(screen.getByRole('link', { name: 'Open in app' }));
    expect(b.visited).toEqual(['aurora://open/goods/detail/7']);
    act(() => jest.advanceTimersByTime(DEEP_LINK_TIMEOUT_MS - 1));
    expect(b.visited).toEqual(['aurora://open/goods/detail/7']);
    act(() => jest.advanceTimersByTime(1));
    expect(b.visited).toEqual(['aurora://open/goods/detail/7', 'https://aurora.example/app']);
  });

  it('stays when the app took over (the page went hidden before 2000 ms)', () => {
    const b = fakeBrowser();
    renderButton(AURORA, b.open);
    fireEvent.click(screen.getByRole('link', { name: 'Open in app' }));
    act(() => jest.advanceTimersByTime(1500));
    b.hide();
    act(() => jest.advanceTimersByTime(5000));
    expect(b.visited).toEqual(['aurora://open/goods/detail/7']);
  });

  it('a second tap starts over: one fallback, 2000 ms after the last tap', () => {
    const b = fakeBrowser();
    renderButton(AURORA, b.open);
    const button = screen.getByRole('link', { name: 'Open in app' });
    fireEvent.click(button);
    act(() => jest.advanceTimersByTime(1500));
    fireEvent.click(button);
    act(() => jest.advanceTimersByTime(1999));
    expect(b.visited.filter((u) => u.startsWith('https:'))).toEqual([]);
    act(() => jest.advanceTimersByTime(1));
    expect(b.visited.filter((u) => u.startsWith('https:'))).toEqual(['https://aurora.example/app']);
  });

  it('leaving the page before 2000 ms cancels the fallback', () => {
    const b = fakeBrowser();
    const { unmount } = renderButton(AURORA, b.open);
    fireEvent.click(screen.getByRole('link', { name: 'Open in app' }));
    unmount();
    act(() => jest.advanceTimersByTime(5000));
    expect(b.visited).toEqual(['aurora://open/goods/detail/7']);
  });

  it('is not offered inside the app itself', () => {
    jest.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone) Aurora app/3.2.1');
    const b = fakeBrowser();
    renderButton(AURORA, b.open);
    expect(screen.queryByRole('link', { name: 'Open in app' })).not.toBeInTheDocument();
  });
});
