import { dropStyleCopies } from './inline-style';

// The stylesheet that inlineCss writes into the head is not sent a second time in the router's data (issue 34).

const CSS = `@property --tw-shadow-alpha{syntax:"<percentage>";inherits:false}.a>.b{content:"&"}.text-skin-1{color:var(--c)}${'.x{margin:0}'.repeat(200)}`;

/** A page as Next writes it with inlineCss: the style in the head, the same text as a flight text row in a script. */
function page(css: string, row = `8:T${Buffer.byteLength(css).toString(16)},`): string {
  const flight = JSON.stringify(
    `1:"$Sreact.fragment"\n${row}${css}\n9:["$","style","0",{"precedence":"next","href":"/s.css","children":"$8"}]\n`,
  )
    .replace(/&/g, '\\u0026')
    .replace(/>/g, '\\u003e')
    .replace(/</g, '\\u003c');
  return `<!DOCTYPE html><html><head><style data-precedence="next" data-href="/s.css">${css}</style></head><body><main>x</main><script>self.__next_f.push([1,${flight}])</script></body></html>`;
}

test('the flight data’s copy of the inline stylesheet is emptied; the head keeps it, and the rest of the page is as it was', () => {
  const html = page(CSS);
  const out = dropStyleCopies(html);
  expect(out.length).toBeLessThan(html.length - CSS.length);
  expect(out).toContain(`<style data-precedence="next" data-href="/s.css">${CSS}</style>`);
  expect(out.split('.text-skin-1{').length - 1).toBe(1);
  // What React reads is still a valid flight stream: the text row is there, with no text.
  const pushed = JSON.parse(/self\.__next_f\.push\(\[1,("(?:[^"\\]|\\.)*")\]\)/.exec(out)![1]!) as string;
  expect(pushed).toBe(`1:"$Sreact.fragment"\n8:T0,\n9:["$","style","0",{"precedence":"next","href":"/s.css","children":"$8"}]\n`);
});

test('a copy that is not exactly the stylesheet (another length, other text, split) is left as it is', () => {
  for (const html of [
    page(CSS, `8:T${(Buffer.byteLength(CSS) + 1).toString(16)},`),
    page(CSS).replace(/(self\.__next_f\.push\(\[1,".*?)\.text-skin-1/, '$1.text-skin-2'),
    page(CSS).replace('</style>', '.extra{}</style>'),
  ])
    expect(dropStyleCopies(html)).toBe(html);
  const small = page('.a{b:c}');
  expect(dropStyleCopies(small)).toBe(small);
  expect(dropStyleCopies('<html><body>no head</body></html>')).toBe('<html><body>no head</body></html>');
});

test('a stylesheet with characters beyond ASCII is measured in bytes, as the flight stream counts', () => {
  const css = `${CSS}.q::before{content:"“引号”"}`;
  const out = dropStyleCopies(page(css));
  expect(out.split('“引号”').length - 1).toBe(1);
});
