/**
 * The page's stylesheet once, not twice (issue 34; docs/caching.md, "Painted from the page alone"). With `inlineCss`
 * (next.config.ts) Next writes the stylesheet into the document's `<head>` as `<style data-precedence data-href>`, and
 * writes it a second time in the router's data at the end of the page: the `<style>` element's text, as a text row of
 * the flight stream (`<id>:T<hex byte length>,<text>`), inside a `self.__next_f.push([1,"…"])` script. A phone has
 * to fetch that second copy before the page comes alive, and gzip cannot shorten it (its window is 32 kB; the
 * stylesheet is larger).
 *
 * React does not read that text: a `<style>` with a `precedence` and an `href` is a resource React matches by its
 * `href` to the one already in the document, as it does when a navigation inside the app brings the same stylesheet
 * as a `<link>`. So the copy in the flight data is emptied (a text row of length 0) for pages kept in the
 * rendered-page cache. Only an exact match is changed: the row's length must be the stylesheet's UTF-8 length and its
 * text the stylesheet as Next escapes it into the script; anything else (a row split between two scripts, a future
 * Next writing it otherwise) leaves the page as it is.
 */

/** `<style data-precedence="…" data-href="…">css</style>` as Next's inlineCss writes it in the head. */
const INLINE_STYLE = /<style data-precedence="[^"]*" data-href="[^"]*">([^]*?)<\/style>/g;

/** A JSON string's content as Next writes flight data into an inline script (JSON, then `<`, `>`, `&`, U+2028/9 escaped). */
function asInScript(text: string): string {
  return JSON.stringify(text)
    .slice(1, -1)
    .replace(/&/g, '\\u0026')
    .replace(/>/g, '\\u003e')
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** `html` with the flight data's copy of each inline stylesheet emptied; unchanged when a copy is not found exactly. */
export function dropStyleCopies(html: string): string {
  const end = html.indexOf('</head>');
  if (end < 0) return html;
  let page = html;
  for (const match of html.slice(0, end).matchAll(INLINE_STYLE)) {
    const css = match[1]!;
    if (css.length < 1024) continue; // not worth a look
    const copy = `:T${Buffer.byteLength(css, 'utf8').toString(16)},${asInScript(css)}`;
    const at = page.indexOf(copy, end);
    if (at < 0 || !/(^|\\n|")[0-9a-f]+$/.test(page.slice(Math.max(0, at - 12), at))) continue;
    page = page.slice(0, at) + ':T0,' + page.slice(at + copy.length);
  }
  return page;
}
