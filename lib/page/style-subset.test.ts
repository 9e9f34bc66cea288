import {
  parseStylesheet,
  propertiesOf,
  requiredClasses,
  serializeStylesheet,
  subsetInlineStyle,
  subsetStylesheet,
  wordsOf,
  type PageWords,
} from './style-subset';

// A shared page's inline stylesheet cut to what the page can show (issue 34; docs/caching.md).

/** A stylesheet written as Tailwind 4 and Lightning CSS write one: layers, @property, escapes, nested blocks. */
const CSS = [
  '@layer properties{@supports (((-webkit-hyphens:none)) and (not (margin-trim:inline))){*,:before,:after,::backdrop{--tw-shadow:0 0 #0000;--tw-blur:initial}}}',
  '@layer theme,base,components,utilities;',
  '@layer theme{:root,:host{--font-sans:"Segoe UI", sans-serif;--default-font-family:var(--font-sans);--color-red-500:#fb2c36;--color-unused:#123;--spacing:.08rem}}',
  '@layer base{*,:after,:before{box-sizing:border-box;margin:0}html,:host{font-family:var(--default-font-family)}a{color:inherit}}',
  '@layer utilities{.flex{display:flex}.grid{display:grid}.p-2{padding:calc(var(--spacing) * 2)}.text-red-500{color:var(--color-red-500)}',
  '.shadow-md{--tw-shadow:0 4px 6px #0000001a;box-shadow:var(--tw-shadow)}.blur{--tw-blur:blur(8px)}',
  '.active\\:opacity-80:active{opacity:.8}.\\[\\&_a\\]\\:underline a{text-decoration-line:underline}',
  '.group-hover\\:underline:is(:where(.group):hover *){text-decoration-line:underline}',
  '@media (min-width:40rem){.sm\\:grid{display:grid}.sm\\:flex{display:flex}}',
  '.before\\:content-\\[\\"\\{\\}\\"\\]:before{content:"{}"}}',
  '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}@property --tw-blur{syntax:"*";inherits:false}',
  '@keyframes spin{to{transform:rotate(360deg)}}',
  '/* a comment with { and } */.x,.flex>a{margin:0}',
].join('');

const page = (text: string): PageWords => ({ words: wordsOf(text), properties: propertiesOf(text) });

test('the parser keeps every byte: written back, the stylesheet is the same text', () => {
  expect(serializeStylesheet(parseStylesheet(CSS))).toBe(CSS);
  expect(() => parseStylesheet('.a{color:red')).toThrow();
  expect(() => parseStylesheet('.a{color:red}}')).toThrow();
});

test('a selector needs the classes outside its parentheses and brackets, unescaped', () => {
  expect(requiredClasses('.active\\:opacity-80:active')).toEqual(['active:opacity-80']);
  expect(requiredClasses('.group-hover\\:underline:is(:where(.group):hover *)')).toEqual(['group-hover:underline']);
  expect(requiredClasses('.\\32 xl\\:p-1')).toEqual(['2xl:p-1']);
  expect(requiredClasses('.a.b>.c [data-x=".y"]')).toEqual(['a', 'b', 'c']);
  expect(requiredClasses(':not(.hidden)>a')).toEqual([]);
  expect(requiredClasses('.\\[\\&_a\\]\\:underline a')).toEqual(['[&_a]:underline']);
  // An escape past Unicode's last code point reads as U+FFFD, as CSS reads it (not a thrown RangeError).
  expect(requiredClasses('.a\\ffffff:hover')).toEqual(['a\ufffd']);
});

test('the page’s words come from its HTML and its router data, with their escapes undone', () => {
  const words = wordsOf(
    '<div class="flex [&amp;_a]:underline"></div><script>self.__next_f.push([1,"{\\"className\\":\\"p-2 [\\u0026\\u003esvg]:size-4\\"}\\ngrid"])</script>',
  );
  for (const word of ['flex', '[&_a]:underline', 'p-2', '[&>svg]:size-4', 'grid']) expect(words).toContain(word);
});

test('rules for classes the page never names go; rules without a class, and what they read, stay', () => {
  const cut = subsetStylesheet(CSS, page('<main class="flex p-2 shadow-md group"><a class="active:opacity-80">x</a></main>'));
  for (const kept of [
    '.flex{display:flex}',
    '.p-2{',
    '.active\\:opacity-80:active{',
    '*,:after,:before{box-sizing:border-box;margin:0}',
    'a{color:inherit}',
    '@keyframes spin{',
    '@layer theme,base,components,utilities;',
    // read by a kept rule, directly or through another property
    '--spacing:.08rem',
    '--default-font-family:var(--font-sans)',
    '--font-sans:"Segoe UI", sans-serif',
    '--tw-shadow:0 0 #0000',
    '@property --tw-shadow{',
    // a selector list keeps the selectors that may match
    '*/.flex>a{margin:0}',
    // a class with a quote in it cannot be told from the words around it: kept
    'content:"{}"',
  ])
    expect(cut).toContain(kept);
  for (const gone of [
    '.grid{',
    '.text-red-500',
    '--color-red-500',
    '--color-unused',
    '.blur{',
    '--tw-blur',
    '@property --tw-blur',
    '.x,',
    '@media',
    '.group-hover',
    '[\\&_a]',
  ])
    expect(cut).not.toContain(gone);
  // What is kept reads as it did: parsed again and written back unchanged.
  expect(serializeStylesheet(parseStylesheet(cut))).toBe(cut);
});

test('a block keeps the rules the page uses; a class inside :is() or :where() need not be on the page', () => {
  const cut = subsetStylesheet(CSS, page('<p class="sm:flex group-hover:underline before:content-[&quot;{}&quot;]">'));
  expect(cut).toContain('@media (min-width:40rem){.sm\\:flex{display:flex}}');
  expect(cut).toContain('.group-hover\\:underline:is(:where(.group):hover *)');
  expect(cut).toContain('content:"{}"');
  expect(cut).not.toContain('.sm\\:grid');
  // A custom property the page names itself (a style attribute) keeps its declaration.
  expect(subsetStylesheet(CSS, page('<p style="color:var(--color-unused)">'))).toContain('--color-unused:#123');
});

/** A page as Next writes it with inlineCss, with one script. */
function html(css: string): string {
  return `<!DOCTYPE html><html><head><style data-precedence="next" data-href="/_next/static/chunks/a.css">${css}</style><script src="/_next/static/chunks/main.js" async=""></script></head><body><main class="flex">x</main></body></html>`;
}
const BIG = CSS + '.unused-a{margin:1px}'.repeat(400);
const script = (text: string) => (src: string) => (src === '/_next/static/chunks/main.js' ? page(text) : null);

test('the inline stylesheet is cut and marked; a class named only by the page’s first script is kept', () => {
  const out = subsetInlineStyle(html(BIG), script('n.jsx("div",{className:"grid"})'));
  const style = /<style data-precedence="next" data-href="\/_next\/static\/chunks\/a.css" data-subset="">([^]*?)<\/style>/.exec(out);
  expect(style).not.toBeNull();
  expect(style![1]).toContain('.flex{display:flex}');
  expect(style![1]).toContain('.grid{display:grid}');
  expect(style![1]).not.toContain('.unused-a');
  expect(out.replace(style![0], '')).toBe(html(BIG).replace(/<style[^]*?<\/style>/, ''));
});

test('a class drawn only by a part a script loads when needed (a lazy island) is kept; a script outside the build is not read', () => {
  const page2 = html(BIG).replace('</head>', '<script src="https://res.wx.qq.com/open/js/jweixin-1.6.0.js"></script></head>');
  const scripts: Record<string, PageWords> = {
    '/_next/static/chunks/main.js': { ...page('e.l("static/chunks/island.js")'), loads: ['/_next/static/chunks/island.js'] },
    '/_next/static/chunks/island.js': { ...page('n.jsx("div",{className:"grid"})'), loads: ['/_next/static/chunks/main.js'] },
  };
  const asked: string[] = [];
  const out = subsetInlineStyle(page2, (src) => {
    asked.push(src);
    return scripts[src] ?? null;
  });
  expect(out).toContain('data-subset=""');
  expect(out).toContain('.grid{display:grid}');
  expect(asked).toEqual(['/_next/static/chunks/main.js', '/_next/static/chunks/island.js']);
  // One the page loads that cannot be read: the page as it was.
  const missing: Record<string, PageWords | undefined> = { ...scripts, '/_next/static/chunks/island.js': undefined };
  expect(subsetInlineStyle(page2, (src) => missing[src] ?? null)).toBe(page2);
});

test('the page is left as it is when its stylesheet is not the build’s own, or a build script is not a .js file', () => {
  const elsewhere = html(BIG).replace('data-href="/_next/static/chunks/a.css"', 'data-href="https://cdn.example/a.css"');
  expect(subsetInlineStyle(elsewhere, script(''))).toBe(elsewhere);
  const odd = html(BIG).replace('</head>', '<script src="/_next/static/chunks/worker.mjs"></script></head>');
  expect(subsetInlineStyle(odd, script(''))).toBe(odd);
  // A query after a script's address (a deployment id) is not part of the file's name.
  const query = html(BIG).replace('main.js"', 'main.js?dpl=abc"');
  expect(subsetInlineStyle(query, script('n.jsx("div",{className:"grid"})'))).toContain('.grid{display:grid}');
});

test('the page is left as it is when a script cannot be read, the stylesheet cannot be parsed, or it is small', () => {
  const unreadable = html(BIG);
  expect(subsetInlineStyle(unreadable, () => null)).toBe(unreadable);
  const broken = html(`${BIG}.open{color:red`);
  expect(subsetInlineStyle(broken, script(''))).toBe(broken);
  const small = html('.flex{display:flex}.grid{display:grid}');
  expect(subsetInlineStyle(small, script(''))).toBe(small);
  expect(subsetInlineStyle('<html><body>no head</body></html>', script(''))).toBe('<html><body>no head</body></html>');
});
