import { appLinkFor, DEEP_LINK_TIMEOUT_MS, isAppLinkBase, openApp } from './deep-link';

function fakeBrowser() {
  const visited: string[] = [];
  let hidden = false;
  const listeners = new Set<() => void>();
  return {
    visited,
    hide: () => {
      hidden = true;
      listeners.forEach((l) => l());
    },
    deps: {
      navigate: (url: string) => visited.push(url),
      isHidden: () => hidden,
      onHidden: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      setTimer: (fn: () => void, ms: number) => setTimeout(fn, ms),
      clearTimer: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
  };
}

describe('openApp deep link (spec §4)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('goes to the download page when the page stays visible for 2000 ms', () => {
    const b = fakeBrowser();
    openApp('aurora://open', '/download', b.deps);
    expect(b.visited).toEqual(['aurora://open']);
    jest.advanceTimersByTime(DEEP_LINK_TIMEOUT_MS - 1);
    expect(b.visited).toEqual(['aurora://open']);
    jest.advanceTimersByTime(1);
    expect(b.visited).toEqual(['aurora://open', '/download']);
  });

  it('stays put when the app took over (the page went hidden)', () => {
    const b = fakeBrowser();
    openApp('aurora://open', '/download', b.deps);
    jest.advanceTimersByTime(800);
    b.hide();
    jest.advanceTimersByTime(5000);
    expect(b.visited).toEqual(['aurora://open']);
  });

  it('without a download page, stays on the page and says so instead (issue 30)', () => {
    const b = fakeBrowser();
    const stayed = jest.fn();
    openApp('aurora://open', null, b.deps, stayed);
    jest.advanceTimersByTime(DEEP_LINK_TIMEOUT_MS - 1);
    expect(stayed).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(b.visited).toEqual(['aurora://open']);
    expect(stayed).toHaveBeenCalledTimes(1);
  });

  it('without a download page, says nothing when the app took over', () => {
    const b = fakeBrowser();
    const stayed = jest.fn();
    openApp('aurora://open', null, b.deps, stayed);
    b.hide();
    jest.advanceTimersByTime(5000);
    expect(stayed).not.toHaveBeenCalled();
  });

  it('can be cancelled', () => {
    const b = fakeBrowser();
    const cancel = openApp('aurora://open', '/download', b.deps);
    cancel();
    jest.advanceTimersByTime(5000);
    expect(b.visited).toEqual(['aurora://open']);
  });
});

describe('appLinkFor: where a channel configures an app link', () => {
  const path = '/goods/detail/42';

  it('opens the app at the channel’s scheme followed by the page’s path', () => {
    expect(appLinkFor({ appScheme: 'aurora://open', appDownloadUrl: 'https://aurora.example/app' }, path)).toEqual({
      appUrl: 'aurora://open/goods/detail/42',
      downloadUrl: 'https://aurora.example/app',
    });
    expect(appLinkFor({ appScheme: 'aurora://', appDownloadUrl: '/download' }, path)?.appUrl).toBe('aurora://goods/detail/42');
  });

  it('opens the app at its root link where the channel names the scheme alone, as the console accepts it (issue 31)', () => {
    expect(appLinkFor({ appScheme: 'auroraapp', appDownloadUrl: null }, path)).toEqual({
      appUrl: 'auroraapp://goods/detail/42',
      downloadUrl: null,
    });
    expect(appLinkFor({ appScheme: 'javascript', appDownloadUrl: null }, path)).toBeNull();
    expect(appLinkFor({ appScheme: 'https', appDownloadUrl: null }, path)).toBeNull();
  });

  it('turns every app link the console may store into a link, and the console stores none it would refuse', () => {
    for (const base of ['auroraapp', 'aurora://open', 'aurora://', 'my-app.v2+x://open/home']) {
      expect(isAppLinkBase(base)).toBe(true);
      expect(appLinkFor({ appScheme: base, appDownloadUrl: null }, path)?.appUrl).toMatch(/^[a-z][a-z0-9+.-]*:\/\/.*goods\/detail\/42$/);
    }
    for (const base of ['javascript', 'javascript://x', 'https://aurora.example', 'aurora:open', 'aurora://open?x=1', 'Aurora', 'a', '']) {
      expect(isAppLinkBase(base)).toBe(false);
    }
  });

  it('offers nothing where the channel has no app link, or only a download page', () => {
    expect(appLinkFor({ appScheme: null, appDownloadUrl: null }, path)).toBeNull();
    expect(appLinkFor({ appScheme: null, appDownloadUrl: 'https://aurora.example/app' }, path)).toBeNull();
    expect(appLinkFor({ appScheme: ' ', appDownloadUrl: ' ' }, path)).toBeNull();
  });

  it('opens the app with no download page where the channel has none (the buyer then stays, issue 30)', () => {
    expect(appLinkFor({ appScheme: 'aurora://open', appDownloadUrl: null }, path)).toEqual({
      appUrl: 'aurora://open/goods/detail/42',
      downloadUrl: null,
    });
    expect(appLinkFor({ appScheme: 'aurora://open', appDownloadUrl: ' ' }, path)?.downloadUrl).toBeNull();
  });

  it('refuses links that would not open an app or would leave for anywhere', () => {
    const download = 'https://aurora.example/app';
    expect(appLinkFor({ appScheme: 'javascript:alert(1)//', appDownloadUrl: download }, path)).toBeNull();
    expect(appLinkFor({ appScheme: 'https://aurora.example', appDownloadUrl: download }, path)).toBeNull();
    expect(appLinkFor({ appScheme: 'aurora://open', appDownloadUrl: 'javascript:alert(1)' }, path)).toBeNull();
    expect(appLinkFor({ appScheme: 'aurora://open', appDownloadUrl: '//evil.example/app' }, path)).toBeNull();
  });
});
