import { renderToString } from 'react-dom/server';
import { DEFAULT_SKIN, type Skin } from '../channel/skin';
import { pageSkinStyle, pageThemeColor, withCurrentSkin } from './page-skin';

/**
 * The flight data of the page's tree as Next inlines it (rows of React's flight format, each a JavaScript string in a
 * script): the layout's <html> element and the viewport's theme-color meta, as a page of the store carries them.
 */
function flight(skin: Skin): string {
  const rows =
    `0:["$","html",null,${JSON.stringify({ lang: 'en', style: pageSkinStyle(skin), 'data-channel': 'AURORA', children: '$L1' })}]\n` +
    `2:[["$","meta","0",{"charSet":"utf-8"}],["$","meta","2",${JSON.stringify({ name: 'theme-color', content: pageThemeColor(skin) })}]]\n`;
  return `<script>self.__next_f.push([1,${JSON.stringify(rows)}])</script>`;
}

/** A page's document as React writes the layout's <html> and Next the viewport's theme colour. */
function page(skin: Skin, body = '<p>sale list</p>'): string {
  body += flight(skin);
  return (
    '<!DOCTYPE html>' +
    renderToString(
      <html lang="en" style={pageSkinStyle(skin)} data-channel="AURORA">
        {/* eslint-disable-next-line @next/next/no-head-element -- a document written by react-dom/server, not a page */}
        <head>
          <meta charSet="utf-8" />
          <meta name="theme-color" content={pageThemeColor(skin)} />
          <title>Aurora</title>
        </head>
        <body dangerouslySetInnerHTML={{ __html: body }} />
      </html>,
    )
  );
}

const AURORA: Skin = { ...DEFAULT_SKIN, color1: '#0f766e', signColor: '#e11d48', pageBgColor: '#eef6f5' };

describe('a cached page answered with the skin colours of now (issue 31, bench:fanout)', () => {
  it('is what a render with the new colours would have written', () => {
    const changed: Skin = { ...AURORA, color1: '#7e22ce', signColor: '#fda4af', navDefaultIconColor: 'rgb(200, 200, 200)' };
    expect(withCurrentSkin(page(AURORA), changed)).toBe(page(changed));
    // The darkened text variant of a pale price colour comes along (lib/channel/contrast.ts).
    expect(withCurrentSkin(page(AURORA), changed)).toMatch(/--skin-sign-text:#[0-9a-f]{6};/);
  });

  it('changes nothing when the colours are the same, and only the <html> tag and the theme colour otherwise', () => {
    const body = '<p style="--skin-color1:#0f766e">#0f766e</p><meta name="theme-color" content="#0f766e"/>';
    expect(withCurrentSkin(page(AURORA, body), AURORA)).toBe(page(AURORA, body));
    const answered = withCurrentSkin(page(AURORA, body), { ...AURORA, color1: '#7e22ce' });
    expect(answered).toContain(`<body>${body}<script>`);
    expect(answered).toContain('<meta name="theme-color" content="#7e22ce"/>');
  });

  it('answers a body that is not such a page as it is', () => {
    for (const body of ['', 'plain text', '<html><head></head></html>', '<div><html style="x"></html></div>']) {
      expect(withCurrentSkin(body, AURORA)).toBe(body);
    }
  });
});
