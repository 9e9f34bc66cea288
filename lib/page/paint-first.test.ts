import { JSDOM } from 'jsdom';
import { HYDRATE_BY_MS, paintFirst } from './paint-first';

const NONCE = 'bG+4/o3xooEEoEFBA8xVlQ==';

/** The shape of a page Next renders: chunks as async scripts in the head and at the end of the body (attributes in
 * both orders), the legacy polyfill, its bootstrap preload, inline flight data. */
function nextPage({ hero }: { hero: boolean }): string {
  const chunk = (name: string) => `<script src="/_next/static/chunks/${name}.js" async="" nonce="${NONCE}"></script>`;
  return [
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>',
    `<link rel="preload" as="script" fetchPriority="low" nonce="${NONCE}" href="/_next/static/chunks/1-boot.js"/>`,
    chunk('2bz9lf2yokkk9'),
    chunk('turbopack-077hmtqrhcoji'),
    '<title>Aurora Dawn</title>',
    `<script src="/_next/static/chunks/0cz1d0mv5g_q7.js" noModule="" nonce="${NONCE}"></script>`,
    '</head><body><main>',
    hero ? '<img alt="Aurora Dawn" fetchPriority="high" src="/goods/aurora-dawn.svg"/>' : '<h1>Not found</h1>',
    '</main>',
    `<script nonce="${NONCE}">(self.__next_f=self.__next_f||[]).push([0])</script>`,
    `<script src="/_next/static/chunks/1-boot.js" nonce="${NONCE}" async=""></script>`,
    '</body></html>',
  ].join('');
}

const CHUNKS = [
  '/_next/static/chunks/2bz9lf2yokkk9.js',
  '/_next/static/chunks/turbopack-077hmtqrhcoji.js',
  '/_next/static/chunks/1-boot.js',
];

describe('paintFirst: the markup', () => {
  const html = paintFirst(nextPage({ hero: true }), NONCE);

  it('takes every async chunk script out of the page and hands the list to one loader before </body>', () => {
    expect(html).not.toMatch(/<script src="\/_next\/static\/chunks\/[^"]+"[^>]*async/);
    const loader = html.match(/<script nonce="([^"]+)" data-chunks='([^']+)'>/);
    expect(loader?.[1]).toBe(NONCE);
    expect(JSON.parse(loader?.[2] ?? 'null')).toEqual(CHUNKS);
    expect(html.indexOf("data-chunks='")).toBeLessThan(html.indexOf('</body>'));
  });

  it('keeps everything else: the bootstrap preload, the legacy polyfill, the inline flight data, the content', () => {
    expect(html).toContain('rel="preload" as="script" fetchPriority="low"');
    expect(html).toContain('noModule=""');
    expect(html).toContain('self.__next_f');
    expect(html).toContain('<img alt="Aurora Dawn" fetchPriority="high"');
  });

  it('leaves a page without a hero (home, /404) as Next wrote it: its scripts load at once', () => {
    const page = nextPage({ hero: false });
    expect(paintFirst(page, NONCE)).toBe(page);
  });

  it('leaves the page as Next wrote it when the server runs with BENCH_PAINT_FIRST=off (the measurement without it)', () => {
    const page = nextPage({ hero: true });
    process.env.BENCH_PAINT_FIRST = 'off';
    try {
      expect(paintFirst(page, NONCE)).toBe(page);
    } finally {
      delete process.env.BENCH_PAINT_FIRST;
    }
  });

  it('leaves a page without chunk scripts, or without a body end, as it is', () => {
    const plain = '<!DOCTYPE html><html><body><p>Hello</p></body></html>';
    expect(paintFirst(plain, NONCE)).toBe(plain);
    const cut = nextPage({ hero: true }).replace('</body></html>', '');
    expect(paintFirst(cut, NONCE)).toBe(cut);
  });
});

type Observed = { type: string; callback: (list: { getEntries(): object[] }) => void };

/**
 * The page in a DOM that runs its inline scripts, with a PerformanceObserver that reports the entry types given
 * (Chromium: largest-contentful-paint and paint; Safari: paint only) and hands back what the page observes.
 */
function load(html: string, supported: string[]) {
  const observed: Observed[] = [];
  const dom = new JSDOM(html, {
    runScripts: 'dangerously',
    pretendToBeVisual: true,
    beforeParse(window) {
      class FakeObserver {
        static supportedEntryTypes = supported;
        constructor(private readonly callback: Observed['callback']) {}
        observe({ type }: { type: string }) {
          observed.push({ type, callback: this.callback });
        }
      }
      Object.assign(window, { PerformanceObserver: FakeObserver });
    },
  });
  const { document } = dom.window;
  const added = () =>
    Array.from(document.head.querySelectorAll('script[src]'))
      .filter((s) => !s.hasAttribute('nomodule'))
      .map((s) => ({ src: s.getAttribute('src'), async: (s as HTMLScriptElement).async, nonce: (s as HTMLScriptElement).nonce }));
  const report = (entries: object[]) => observed.forEach((o) => o.callback({ getEntries: () => entries }));
  return { dom, document, observed, added, report };
}

describe('paintFirst: the loader in a browser', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('adds the chunks, async and with the nonce, once the hero is reported as the largest paint, and not before', () => {
    const page = load(paintFirst(nextPage({ hero: true }), NONCE), ['largest-contentful-paint', 'paint']);
    expect(page.observed.map((o) => o.type)).toEqual(['largest-contentful-paint']);
    expect(page.added()).toEqual([]);

    // A larger paint of something else (a heading painted before the cover arrived) is not the hero on screen.
    page.report([{ element: page.document.querySelector('main') }]);
    expect(page.added()).toEqual([]);

    page.report([{ element: page.document.querySelector('img') }]);
    expect(page.added()).toEqual(CHUNKS.map((src) => ({ src, async: true, nonce: NONCE })));

    // Reported again (a later, larger paint) or timed out: each chunk is added once.
    page.report([{ element: page.document.querySelector('img') }]);
    jest.advanceTimersByTime(HYDRATE_BY_MS);
    expect(page.added()).toHaveLength(CHUNKS.length);
    page.dom.window.close();
  });

  it('waits for the first contentful paint in a browser without largest-paint reports (Safari)', () => {
    const page = load(paintFirst(nextPage({ hero: true }), NONCE), ['paint']);
    expect(page.observed.map((o) => o.type)).toEqual(['paint']);
    page.report([{ name: 'first-paint' }]);
    expect(page.added()).toEqual([]);
    page.report([{ name: 'first-contentful-paint' }]);
    expect(page.added().map((s) => s.src)).toEqual(CHUNKS);
    page.dom.window.close();
  });

  it('starts by HYDRATE_BY_MS after navigation when nothing is painted (a tab opened in the background)', () => {
    const page = load(paintFirst(nextPage({ hero: true }), NONCE), ['largest-contentful-paint', 'paint']);
    jest.advanceTimersByTime(HYDRATE_BY_MS - page.dom.window.performance.now() - 50);
    expect(page.added()).toEqual([]);
    jest.advanceTimersByTime(100);
    expect(page.added().map((s) => s.src)).toEqual(CHUNKS);
    page.dom.window.close();
  });

  it('adds the chunks after the first frame in a browser that reports no paints', () => {
    const page = load(paintFirst(nextPage({ hero: true }), NONCE), []);
    expect(page.observed).toEqual([]);
    expect(page.added()).toEqual([]);
    jest.advanceTimersByTime(50); // a frame (pretendToBeVisual: 60 Hz), then the task after it
    expect(page.added().map((s) => s.src)).toEqual(CHUNKS);
    page.dom.window.close();
  });
});
