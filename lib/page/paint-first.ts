/**
 * Paint first, then load the code (docs/caching.md, "Paint first, then hydrate"). Next writes its client chunks into
 * the page as `<script async>` tags: the browser fetches them alongside the page, and on a phone's link they share its
 * bandwidth with the cover image; on a fast one they arrive while the page is still being laid out and run before
 * anything is painted. For a page from the rendered-page cache that has a hero, the `<img fetchpriority="high">` of
 * ArtImage's `lcp` (the goods page, opened from shared links), `paintFirst` takes those tags out and adds one small
 * inline script that adds them back, as async scripts again, once the hero is on screen:
 *
 * - when the browser reports the hero as the largest contentful paint;
 * - in a browser that does not report largest paints (Safari), at the first contentful paint;
 * - in a browser that reports neither, after the first frame;
 * - and whatever happened, `HYDRATE_BY_MS` after navigation (a tab opened in the background paints nothing; a tap
 *   before the hero is painted ends largest-paint reports).
 *
 * Kept on the figures of a throttled phone (issue 34, docs/decisions.md): the page is painted, and its cover and Buy
 * work as links, about 0.4–0.8 s sooner; it hydrates about 0.8 s later. `BENCH_PAINT_FIRST=off` in the server's
 * environment turns it off, for measuring both ways.
 *
 * Next's own `<link rel="preload">` of its bootstrap chunk stays. The chunks are the same, run in any order as async
 * scripts are; a page without a hero, without such tags, or without `</body>`, is left as it is.
 */

/** Hydration starts by this long after navigation, however the page painted. */
export const HYDRATE_BY_MS = 1000;

/** `<script src="/_next/static/chunks/….js" … async="" …></script>`: a chunk Next loads as an async script. */
const ASYNC_CHUNK = /<script src="(\/_next\/static\/chunks\/[\w.-]+\.js)"(?=[^>]*\sasync="")[^>]*><\/script>/g;

/**
 * The loader, run where it stands (end of body): `s` is its own element, carrying the chunk list and the nonce the
 * scripts it adds need under the page's CSP.
 */
const LOADER = [
  '(function(d,s){',
  'var c=JSON.parse(s.dataset.chunks),n=s.nonce,h=d.querySelector(\'img[fetchpriority="high"]\');',
  'function go(){if(!c)return;c.forEach(function(u){var e=d.createElement("script");e.src=u;e.async=true;e.nonce=n;d.head.appendChild(e)});c=null}',
  'var t=(window.PerformanceObserver&&PerformanceObserver.supportedEntryTypes)||[],',
  'k=h&&t.indexOf("largest-contentful-paint")>=0?"largest-contentful-paint":t.indexOf("paint")>=0?"paint":"";',
  'if(k)new PerformanceObserver(function(l){l.getEntries().forEach(function(e){',
  'if(k==="paint"?e.name==="first-contentful-paint":e.element===h)go()})}).observe({type:k,buffered:true});',
  'else requestAnimationFrame(function(){setTimeout(go,0)});',
  `setTimeout(go,Math.max(0,${HYDRATE_BY_MS}-performance.now()))`,
  '})(document,document.currentScript)',
].join('');

/**
 * `html` with Next's async chunk scripts run after the hero is painted. `nonce` is the CSP nonce of the render (the
 * loader carries it like every other script of the page; the rendered-page cache swaps it per answer).
 */
export function paintFirst(html: string, nonce: string | null): string {
  // Only a page with a hero waits for it (goods detail). The others (home, /404) load their scripts as Next writes
  // them, so a tap right after they load already finds the page alive.
  if (!/<img\b[^>]*\sfetchPriority="high"/i.test(html)) return html;
  // The measurement without the loader (docs/benchmarks.md, issue 34): `BENCH_PAINT_FIRST=off npm run bench:phone`.
  if (process.env.BENCH_PAINT_FIRST === 'off') return html;
  const chunks: string[] = [];
  const rewritten = html.replace(ASYNC_CHUNK, (_tag, src: string) => {
    chunks.push(src);
    return '';
  });
  const end = rewritten.lastIndexOf('</body>');
  if (chunks.length === 0 || end < 0) return html;
  const nonceAttr = nonce ? ` nonce="${nonce}"` : '';
  const loader = `<script${nonceAttr} data-chunks='${JSON.stringify(chunks)}'>${LOADER}</script>`;
  return rewritten.slice(0, end) + loader + rewritten.slice(end);
}
