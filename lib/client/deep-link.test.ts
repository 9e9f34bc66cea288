import { DEEP_LINK_TIMEOUT_MS, openApp } from './deep-link';

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

  it('can be cancelled', () => {
    const b = fakeBrowser();
    const cancel = openApp('aurora://open', '/download', b.deps);
    cancel();
    jest.advanceTimersByTime(5000);
    expect(b.visited).toEqual(['aurora://open']);
  });
});
