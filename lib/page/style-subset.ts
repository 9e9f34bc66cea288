/**
 * A shared page's inline stylesheet cut to what the page can show (issue 34; docs/caching.md, "Painted from the page
 * alone"). The stylesheet Next inlines into every document is the whole app's (about 40 kB, 8.5 kB in gzip): on the
 * throttled phone of issue 34 that is 0.17 s of the link before the page's scripts. A page kept in the rendered-page
 * cache keeps only the rules whose classes the page names (its HTML, its router data, the scripts it loads and those
 * they load when needed); every rule without a class (the reset, the skin's base) stays, and so do the custom
 * properties those rules read. The cut `<style>` is marked `data-subset`; as soon as the page's scripts run,
 * components/shell/complete-stylesheets.ts fetches the whole stylesheet by its address and puts it in that same
 * element, so what the app's navigations bring (matched by React to this element by its `data-href`) is styled as
 * before.
 *
 * Only minified stylesheets as Tailwind and Lightning CSS write them are read; the parser keeps every byte it does not
 * understand (serialize(parse(css)) === css), and anything it cannot parse leaves the page as it is.
 */

/** A rule (`selectors{body}`), a block of rules (`@media …{…}`, `@layer …{…}`, `@supports …{…}`), or any other text. */
type Node =
  | { kind: 'rule'; selectors: string[]; body: string }
  | { kind: 'group'; prelude: string; children: Node[] }
  | { kind: 'text'; text: string; property?: string };

/** At-rules whose block holds rules (the others, such as @keyframes and @font-face, are kept whole). */
const GROUPS = new Set(['media', 'supports', 'layer', 'container', 'scope', 'starting-style', 'document']);

/** The stylesheet is not as this parser reads one (unbalanced, an unclosed string or comment). */
class Unparsed extends Error {}

/** Index just past the `close` matching the `open` at `from` (strings, escapes and comments skipped). */
function matching(css: string, from: number, open: string, close: string): number {
  let depth = 0;
  for (let i = from; i < css.length; i++) {
    const c = css[i]!;
    if (c === '\\') i++;
    else if (c === '"' || c === "'") i = stringEnd(css, i);
    else if (c === '/' && css[i + 1] === '*') i = commentEnd(css, i) - 1;
    else if (c === open) depth++;
    else if (c === close && --depth === 0) return i + 1;
  }
  throw new Unparsed();
}

/** Index just past the comment opened at `from`. */
function commentEnd(css: string, from: number): number {
  const end = css.indexOf('*/', from + 2);
  if (end < 0) throw new Unparsed();
  return end + 2;
}

/** Index of the quote closing the string opened at `from`. */
function stringEnd(css: string, from: number): number {
  const quote = css[from];
  for (let i = from + 1; i < css.length; i++) {
    if (css[i] === '\\') i++;
    else if (css[i] === quote) return i;
  }
  throw new Unparsed();
}

/** Index of the first of `stops` at depth 0 from `from` (strings, escapes, brackets and parentheses skipped); -1: none. */
function findTop(css: string, from: number, stops: string, end = css.length): number {
  for (let i = from; i < end; i++) {
    const c = css[i]!;
    if (c === '\\') i++;
    else if (c === '"' || c === "'") i = stringEnd(css, i);
    else if (c === '/' && css[i + 1] === '*') i = commentEnd(css, i) - 1;
    else if (c === '(') i = matching(css, i, '(', ')') - 1;
    else if (c === '[') i = matching(css, i, '[', ']') - 1;
    else if (stops.includes(c)) return i;
  }
  return -1;
}

/** `text` split at its commas (or semicolons) of depth 0. */
function splitTop(text: string, separator: ',' | ';'): string[] {
  const parts: string[] = [];
  let from = 0;
  for (;;) {
    const at = findTop(text, from, separator);
    if (at < 0) break;
    parts.push(text.slice(from, at));
    from = at + 1;
  }
  parts.push(text.slice(from));
  return parts;
}

/** The stylesheet as nodes; throws Unparsed on anything unbalanced. */
export function parseStylesheet(css: string): Node[] {
  const nodes: Node[] = [];
  let i = 0;
  while (i < css.length) {
    const lead = /^(?:\s+|\/\*[^]*?\*\/)+/.exec(css.slice(i, i + 4096));
    if (lead) {
      nodes.push({ kind: 'text', text: lead[0] });
      i += lead[0].length;
      continue;
    }
    const stop = findTop(css, i, '{;}');
    if (stop < 0) {
      nodes.push({ kind: 'text', text: css.slice(i) });
      break;
    }
    if (css[stop] === '}') throw new Unparsed();
    const prelude = css.slice(i, stop);
    if (css[stop] === ';') {
      nodes.push({ kind: 'text', text: css.slice(i, stop + 1) });
      i = stop + 1;
      continue;
    }
    const end = matching(css, stop, '{', '}');
    const body = css.slice(stop + 1, end - 1);
    const at = /^\s*@([\w-]+)/.exec(prelude);
    if (at && GROUPS.has(at[1]!.toLowerCase())) nodes.push({ kind: 'group', prelude, children: parseStylesheet(body) });
    else if (at) {
      const property = at[1]!.toLowerCase() === 'property' ? /^\s*@property\s+(--[\w-]+)/i.exec(prelude)?.[1] : undefined;
      nodes.push({ kind: 'text', text: css.slice(i, end), ...(property ? { property } : {}) });
    } else nodes.push({ kind: 'rule', selectors: splitTop(prelude, ','), body });
    i = end;
  }
  return nodes;
}

export function serializeStylesheet(nodes: readonly Node[]): string {
  return nodes
    .map((node) =>
      node.kind === 'rule'
        ? `${node.selectors.join(',')}{${node.body}}`
        : node.kind === 'group'
          ? `${node.prelude}{${serializeStylesheet(node.children)}}`
          : node.text,
    )
    .join('');
}

/** A code point as CSS reads an escape: zero, a surrogate or one past Unicode's last is U+FFFD. */
function codePoint(value: number): string {
  return value === 0 || (value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff ? '\ufffd' : String.fromCodePoint(value);
}

/** A CSS identifier's value from its escaped spelling (`\:` is `:`, `\31 0` is `10`). */
function unescapeIdent(ident: string): string {
  return ident.replace(/\\([0-9a-fA-F]{1,6}\s?|[^])/g, (_m, escaped: string) =>
    /^[0-9a-fA-F]/.test(escaped) && /^[0-9a-fA-F]{1,6}\s?$/.test(escaped) ? codePoint(parseInt(escaped.trim(), 16)) : escaped,
  );
}

/**
 * The classes an element must carry for `selector` to match it: those outside any parentheses (what is inside
 * `:not()`, `:is()`, `:where()` or `:has()` need not be on the page) and outside attribute brackets.
 */
export function requiredClasses(selector: string): string[] {
  const known = requiredBySelector.get(selector);
  if (known) return known;
  const classes: string[] = [];
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (c === '\\') i++;
    else if (c === '"' || c === "'") i = stringEnd(selector, i);
    else if (c === '/' && selector[i + 1] === '*') i = commentEnd(selector, i) - 1;
    else if (c === '(') i = matching(selector, i, '(', ')') - 1;
    else if (c === '[') i = matching(selector, i, '[', ']') - 1;
    else if (c === '.') {
      let j = i + 1;
      while (j < selector.length) {
        if (selector[j] === '\\') j += /^\\[0-9a-fA-F]{1,6}\s?/.exec(selector.slice(j, j + 8))?.[0].length ?? 2;
        else if (/[\w-]/.test(selector[j]!) || selector.charCodeAt(j) > 0x7f) j++;
        else break;
      }
      if (j > i + 1) classes.push(unescapeIdent(selector.slice(i + 1, j)));
      i = j - 1;
    }
  }
  if (requiredBySelector.size > 50_000) requiredBySelector.clear();
  requiredBySelector.set(selector, classes);
  return classes;
}

/** requiredClasses by selector: every page of a build reads the same stylesheet. */
const requiredBySelector = new Map<string, string[]>();

/** The last stylesheet parsed, and its nodes (never changed in place): every page of a build inlines the same one. */
let lastParsed: { css: string; nodes: Node[] } | null = null;

function parsedOnce(css: string): Node[] {
  if (lastParsed?.css !== css) lastParsed = { css, nodes: parseStylesheet(css) };
  return lastParsed.nodes;
}

/**
 * The words of a page or a script that could be class names: its text with HTML's and JavaScript's escapes undone,
 * split at white space, quotes and backslashes. A class name never holds any of them.
 */
export function wordsOf(text: string): Set<string> {
  const decoded = text
    .replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[name] ?? "'")
    .replace(/\\u([0-9a-fA-F]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\u([0-9a-fA-F]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\./g, ' ');
  return new Set(decoded.split(/[\s"'`\\]+/));
}

/** The custom properties `text` names (`--name`, as declared or as read by `var()`). */
export function propertiesOf(text: string): Set<string> {
  return new Set(text.match(/--[\w-]+/g) ?? []);
}

/** Whether the page may name the class: it holds it as a word, or the class holds a character words are split at. */
function onPage(name: string, page: PageWords): boolean {
  return page.words.has(name) || /[\s"'`\\]/.test(name);
}

/** What the page can show: the words it holds (candidate class names) and the custom properties it names itself. */
export type PageWords = {
  words: ReadonlySet<string>;
  properties: ReadonlySet<string>;
  /** For a script: the addresses of the scripts it loads when it needs them (`React.lazy`, `import()`). */
  loads?: readonly string[];
};

/**
 * The stylesheet cut to `page`: rules whose every selector needs a class the page never names are dropped (a rule
 * keeps those of its selectors that may match); then the custom properties declared by rules without a class (the
 * theme's `:root` variables, Tailwind's `--tw-*` defaults) and `@property` registrations are dropped unless something
 * kept, or the page itself, names them. Blocks left empty go.
 */
export function subsetStylesheet(css: string, page: PageWords): string {
  const nodes = parsedOnce(css);
  // Custom-property declarations of the rules without a class, as [node, declarations] to decide on once all else is.
  const candidates: { node: Extract<Node, { kind: 'rule' }>; declarations: string[] }[] = [];
  const byClass = (list: Node[]): Node[] =>
    list.flatMap((node): Node[] => {
      if (node.kind === 'group') {
        const children = byClass(node.children);
        return children.length > 0 ? [{ ...node, children }] : [];
      }
      if (node.kind !== 'rule') return [node];
      const selectors = node.selectors.filter((selector) => requiredClasses(selector).every((name) => onPage(name, page)));
      if (selectors.length === 0) return [];
      const kept = { ...node, selectors };
      if (selectors.every((selector) => requiredClasses(selector).length === 0) && !node.body.includes('{')) {
        candidates.push({ node: kept, declarations: splitTop(node.body, ';') });
      }
      return [kept];
    });
  const kept = byClass(nodes);

  // The custom properties in use: named by the page, or by what is kept other than the candidates' own declarations
  // and the registrations; then, until nothing changes, by the values of the declarations in use.
  const used = new Set(page.properties);
  const candidateSet = new Set(candidates.map((c) => c.node));
  const scan = (list: Node[]): void => {
    for (const node of list) {
      if (node.kind === 'group') scan(node.children);
      else if (node.kind === 'rule') {
        if (candidateSet.has(node)) continue;
        for (const name of propertiesOf(node.body)) used.add(name);
      } else if (!node.property) for (const name of propertiesOf(node.text)) used.add(name);
    }
  };
  scan(kept);
  const declared = (declaration: string) => /^\s*(--[\w-]+)\s*:/.exec(declaration)?.[1];
  for (const candidate of candidates) {
    for (const declaration of candidate.declarations)
      if (!declared(declaration)) for (const name of propertiesOf(declaration)) used.add(name);
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const candidate of candidates) {
      for (const declaration of candidate.declarations) {
        const name = declared(declaration);
        if (!name || !used.has(name)) continue;
        for (const other of propertiesOf(declaration.slice(declaration.indexOf(':') + 1))) {
          if (!used.has(other)) {
            used.add(other);
            grew = true;
          }
        }
      }
    }
  }
  for (const candidate of candidates) {
    candidate.node.body = candidate.declarations.filter((d) => d.trim() !== '' && (!declared(d) || used.has(declared(d)!))).join(';');
  }
  const prune = (list: Node[]): Node[] =>
    list.flatMap((node): Node[] => {
      if (node.kind === 'group') {
        const children = prune(node.children);
        return children.length > 0 ? [{ ...node, children }] : [];
      }
      if (node.kind === 'rule') return node.body.trim() === '' ? [] : [node];
      return node.property && !used.has(node.property) ? [] : [node];
    });
  return serializeStylesheet(prune(kept));
}

/** `<style data-precedence="…" data-href="…">css</style>` as Next's inlineCss writes it in the head. */
const INLINE_STYLE = /<style data-precedence="([^"]*)" data-href="([^"]*)">([^]*?)<\/style>/;
/** The scripts a page loads: its `<script src>` and its script preloads (the address, before any query). */
const PAGE_SCRIPTS = /<(?:script\b[^>]*?\bsrc|link\b[^>]*?\bas="script"[^>]*?\bhref)="([^"?#]+)[^"]*"/g;
/** Where the build's own files are served (a stylesheet elsewhere, an asset prefix's host, is left whole). */
const STATIC = '/_next/static/';
/** Stylesheets smaller than this are not worth a cut. */
const WORTH_FROM_BYTES = 4096;

/**
 * `html` with its inline stylesheet cut to what the page can show and marked `data-subset`. What the page can show: its
 * HTML and router data, the build's scripts it loads, and, from script to script, those they load when needed (an
 * island's lazy part, a sheet opened by a tap), which the page may draw before its whole stylesheet has come. Unchanged
 * when there is no such stylesheet or it is not the build's own, when one of those scripts cannot be read
 * (`scriptWords` answers null), when the stylesheet cannot be parsed, or when the cut would save little.
 */
export function subsetInlineStyle(html: string, scriptWords: (src: string) => PageWords | null): string {
  const head = html.indexOf('</head>');
  if (head < 0) return html;
  const match = INLINE_STYLE.exec(html.slice(0, head));
  if (!match || match[3]!.length < WORTH_FROM_BYTES) return html;
  if (!match[2]!.split(/\s+/).every((href) => href.startsWith(STATIC))) return html;
  const css = match[3]!;
  const rest = html.slice(0, match.index) + html.slice(match.index + match[0].length);
  const words = new Set(wordsOf(rest));
  const properties = new Set(propertiesOf(rest));
  const queue = [...rest.matchAll(PAGE_SCRIPTS)].map(([, src]) => src!).filter((src) => src.startsWith(STATIC));
  const seen = new Set<string>();
  while (queue.length > 0) {
    const src = queue.shift()!;
    if (seen.has(src)) continue;
    seen.add(src);
    const script = src.endsWith('.js') ? scriptWords(src) : null;
    if (!script) return html;
    for (const word of script.words) words.add(word);
    for (const name of script.properties) properties.add(name);
    queue.push(...(script.loads ?? []));
  }
  let cut: string;
  try {
    cut = subsetStylesheet(css, { words, properties });
  } catch {
    // Unparsed, or anything else: a page is never lost to its stylesheet's cut.
    return html;
  }
  if (cut.length > css.length * 0.9) return html;
  const style = `<style data-precedence="${match[1]}" data-href="${match[2]}" data-subset="">${cut}</style>`;
  return html.slice(0, match.index) + style + html.slice(match.index + match[0].length);
}
