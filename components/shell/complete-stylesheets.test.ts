/** @jest-environment jsdom */
import { completeStylesheets, completeStylesheetsOf } from './complete-stylesheets';
import { NAVIGATION_START } from './navigation-start';

// issue 34: a page kept in the cache comes with its stylesheet cut to it (lib/page/style-subset.ts); once its scripts run it puts
// the whole stylesheet into the same element, so the pages the app navigates to are styled in full.

const HREF = '/_next/static/chunks/app.css';

function page(href = HREF): HTMLStyleElement {
  document.head.innerHTML = `<style data-precedence="next" data-href="${href}" data-subset="">.flex{display:flex}</style>`;
  return document.head.querySelector('style')!;
}

/** What fetch answers (jsdom has no Response). */
const answer = (text: string, status = 200) => ({ ok: status < 300, status, text: async () => text }) as unknown as Response;

afterEach(() => {
  document.head.innerHTML = '';
});

test('the whole stylesheet is fetched by its address and put into the same element, once', async () => {
  const style = page();
  const fetched: string[] = [];
  global.fetch = jest.fn(async (url: string | URL | Request) => {
    fetched.push(String(url));
    return answer('.flex{display:flex}.grid{display:grid}');
  }) as typeof fetch;
  await Promise.all([completeStylesheets(document), completeStylesheets(document)]);
  expect(fetched).toEqual([HREF]);
  expect(document.head.querySelectorAll('style')).toHaveLength(1);
  expect(style.textContent).toBe('.flex{display:flex}.grid{display:grid}');
  expect(style.hasAttribute('data-subset')).toBe(false);
  await completeStylesheets(document);
  expect(fetched).toEqual([HREF]);
});

test('a failed fetch leaves the cut stylesheet, still marked, for the next try', async () => {
  const style = page();
  global.fetch = jest.fn(async () => answer('gone', 503)) as typeof fetch;
  await completeStylesheets(document);
  expect(style.textContent).toBe('.flex{display:flex}');
  expect(style.hasAttribute('data-subset')).toBe(true);
  global.fetch = jest.fn(async () => {
    throw new TypeError('offline');
  }) as typeof fetch;
  await completeStylesheets(document);
  expect(style.hasAttribute('data-subset')).toBe(true);
  global.fetch = jest.fn(async () => answer('.whole{}')) as typeof fetch;
  await completeStylesheets(document);
  expect(style.textContent).toBe('.whole{}');
});

test('an address outside the build’s static files is never fetched', async () => {
  const style = page('https://elsewhere.example/app.css');
  global.fetch = jest.fn() as typeof fetch;
  await completeStylesheets(document);
  expect(global.fetch).not.toHaveBeenCalled();
  expect(style.hasAttribute('data-subset')).toBe(true);
});

test('started with the page’s scripts: a failed fetch is tried again after a while, when a navigation begins, and when the phone is back online', async () => {
  jest.useFakeTimers();
  try {
    const style = page();
    let up = false;
    let calls = 0;
    global.fetch = jest.fn(async () => {
      calls++;
      if (!up) throw new TypeError('offline');
      return answer('.whole{}');
    }) as typeof fetch;
    const settle = async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
    };
    completeStylesheetsOf(window);
    await settle();
    expect(calls).toBe(1);
    // After 2 s, a second try; still down.
    await jest.advanceTimersByTimeAsync(2_000);
    expect(calls).toBe(2);
    // A navigation begins: a try at once.
    window.dispatchEvent(new CustomEvent(NAVIGATION_START, { detail: { url: '/pay/1' } }));
    await settle();
    expect(calls).toBe(3);
    // Back online: that try puts the whole stylesheet in.
    up = true;
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(calls).toBe(4);
    expect(style.textContent).toBe('.whole{}');
    expect(style.hasAttribute('data-subset')).toBe(false);
    // Whole now: nothing more is fetched, whatever happens.
    window.dispatchEvent(new CustomEvent(NAVIGATION_START, { detail: { url: '/' } }));
    await jest.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(4);
  } finally {
    jest.useRealTimers();
  }
});

test('a page with nothing cut fetches nothing and listens to nothing', () => {
  document.head.innerHTML = '<style data-precedence="next" data-href="/_next/static/chunks/app.css">.whole{}</style>';
  global.fetch = jest.fn() as typeof fetch;
  const listen = jest.spyOn(window, 'addEventListener');
  completeStylesheetsOf(window);
  expect(global.fetch).not.toHaveBeenCalled();
  expect(listen).not.toHaveBeenCalled();
  listen.mockRestore();
});

test('while the page is still loading, the fetch waits for its load event (its largest picture first)', async () => {
  const style = page();
  global.fetch = jest.fn(async () => answer('.whole{}')) as typeof fetch;
  Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true });
  try {
    completeStylesheetsOf(window);
    await Promise.resolve();
    expect(global.fetch).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('load'));
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(global.fetch).toHaveBeenCalledTimes(1);
    expect(style.textContent).toBe('.whole{}');
  } finally {
    delete (document as { readyState?: string }).readyState;
  }
});
