import { SEED_CHANNELS } from '../demo/seed-data';
import { DEFAULT_SKIN, parseSkin, SKIN_IMAGE_FIELDS, skinCssVariables, skinImageProblem } from './skin';
import { contrastRatio } from './contrast';
import { CSS_COLOR, SKIN_COLOR_FIELDS } from './skin-colours';

describe('parseSkin (spec §3 skinJson)', () => {
  it('reads the colours and images a channel sets', () => {
    const skin = parseSkin(
      JSON.stringify({ color1: '#0f766e', pageBgColor: 'rgb(238, 246, 245)', bannerImg: '/brands/aurora/banner.svg' }),
    );
    expect(skin.color1).toBe('#0f766e');
    expect(skin.pageBgColor).toBe('rgb(238, 246, 245)');
    expect(skin.bannerImg).toBe('/brands/aurora/banner.svg');
  });

  it('fills the fields a channel leaves out with the defaults', () => {
    const skin = parseSkin(JSON.stringify({ color1: '#0f766e' }));
    expect(skin).toEqual({ ...DEFAULT_SKIN, color1: '#0f766e' });
  });

  it.each([
    ['invalid JSON', '{"color1": "#fff"'],
    ['an empty string', ''],
    ['null', null],
    ['undefined', undefined],
  ])('ignores %s silently and applies the defaults', (_what, json) => {
    expect(() => parseSkin(json)).not.toThrow();
    expect(parseSkin(json)).toEqual(DEFAULT_SKIN);
  });

  it.each([
    ['an array', '[{"color1":"#fff"}]'],
    ['a string', '"#fff"'],
    ['a number', '42'],
    ['JSON null', 'null'],
  ])('applies the defaults when the JSON is %s, not an object', (_what, json) => {
    expect(parseSkin(json)).toEqual(DEFAULT_SKIN);
  });

  it('drops one bad field and keeps the others', () => {
    const skin = parseSkin(JSON.stringify({ color1: 'not a colour!', color2: '#5eead4', buttonColor: 42, brandImg: '/b.svg' }));
    expect(skin.color1).toBe(DEFAULT_SKIN.color1);
    expect(skin.buttonColor).toBe(DEFAULT_SKIN.buttonColor);
    expect(skin.color2).toBe('#5eead4');
    expect(skin.brandImg).toBe('/b.svg');
  });

  it.each(['#fff', '#0F766E', '#0f766e80', 'rgba(15, 118, 110, 0.12)', 'hsl(174 84% 32% / 50%)', 'teal', 'transparent'])(
    'accepts the CSS colour %s',
    (colour) => {
      expect(parseSkin(JSON.stringify({ color1: colour })).color1).toBe(colour);
    },
  );

  it.each([
    '#abcd',
    'RGB(0 128 255)',
    'rgb(10% 20% 30% / 0.5)',
    'rgba(0,0,0,.5)',
    'rgb(255, 0, 0, 50%)',
    'hsl(120deg, 50%, 50%)',
    'hsla(0.5turn 50% 50% / .3)',
    'hsl(-30 40 50)',
    'rebeccapurple',
    'LightGoldenrodYellow',
  ])('accepts the CSS colour %s in any of the syntaxes CSS has for it (issue 31)', (colour) => {
    expect(parseSkin(JSON.stringify({ color1: colour })).color1).toBe(colour);
  });

  it('accepts every colour the demo channels and the default skin use', () => {
    const colours = [...SEED_CHANNELS.flatMap((c) => Object.values(c.palette)), ...SKIN_COLOR_FIELDS.map((f) => DEFAULT_SKIN[f])];
    expect(colours).toContain('rgba(0, 0, 0, 0.08)');
    for (const colour of colours) expect({ colour, ok: CSS_COLOR.test(colour) }).toEqual({ colour, ok: true });
  });

  it.each([
    'rgb(,,,,)',
    'notacolour',
    '#12345',
    '#1234567',
    'hsl(/ / /)',
    'currentcolor',
    'rgb(1, 2)',
    'rgb(1, 2, 3, 4, 5)',
    'rgb(1 2 3, 0.5)',
    'rgb(1, 2, 3 / 0.5)',
    'rgb(1. 2 3)',
    'rgb(1 2 3 / )',
    'hsl(10%, 20%, 30%)',
    'rgb(1 2 3',
    'rgb (1, 2, 3)',
    'rgb(1,\t2,3)',
  ])('refuses %p, which is not a colour, and keeps the other colours of the skin (issue 31)', (colour) => {
    const skin = parseSkin(JSON.stringify({ color1: colour, color2: '#5eead4', shadowColor: 'rgba(1, 2, 3, 0.5)' }));
    expect(skin.color1).toBe(DEFAULT_SKIN.color1);
    expect(skin.color2).toBe('#5eead4');
    expect(skin.shadowColor).toBe('rgba(1, 2, 3, 0.5)');
  });

  it('answers at once for a long run of spaces or digits inside a colour function', () => {
    // The pattern is tried on whatever a stored skin holds; a value built to backtrack must not hold up a page.
    for (const colour of [`rgb(1${' '.repeat(20000)}x`, `rgb(${'1'.repeat(20000)},`, `hsl(1 2 3${' '.repeat(20000)}/`]) {
      expect(CSS_COLOR.test(colour)).toBe(false);
    }
  });

  it('trims spaces around a value', () => {
    expect(parseSkin(JSON.stringify({ color1: '  #123456 ' })).color1).toBe('#123456');
  });

  it.each([
    'red;background:url(x)',
    'red; } body { display: none',
    'url(https://evil.example/x.png)',
    'expression(alert(1))',
    'var(--other)',
    '#12',
    '"red"',
    '',
  ])('refuses %p as a colour, so a skin cannot inject CSS', (colour) => {
    const skin = parseSkin(JSON.stringify({ color1: colour, signColor: colour }));
    expect(skin.color1).toBe(DEFAULT_SKIN.color1);
    expect(skin.signColor).toBe(DEFAULT_SKIN.signColor);
  });

  it.each(['/x.svg', '/brands/lumen/banner.png', 'https://cdn.example/a/b.webp', 'http://cdn.example/a.png'])(
    'accepts the image URL %s',
    (url) => {
      expect(parseSkin(JSON.stringify({ bannerImg: url })).bannerImg).toBe(url);
    },
  );

  it.each([
    'javascript:alert(1)',
    'data:image/svg+xml,<svg onload=alert(1)>',
    '//evil.example/x.png',
    'x.svg',
    '/',
    '/a b.svg',
    '/x.svg") ; background:url("y',
    "/x.svg'",
    '/x.svg)',
    'ftp://files.example/x.png',
  ])('refuses the image URL %p', (url) => {
    expect(parseSkin(JSON.stringify({ bannerImg: url })).bannerImg).toBe(DEFAULT_SKIN.bannerImg);
  });

  it('gives each caller its own object, leaving the defaults untouched', () => {
    const before = { ...DEFAULT_SKIN };
    parseSkin('{}').color1 = '#000000';
    parseSkin('oops').color1 = '#000000';
    expect(DEFAULT_SKIN).toEqual(before);
  });
});

describe('skinCssVariables', () => {
  const skin = parseSkin(
    JSON.stringify({ color1: '#0f766e', pageBgColor: '#eef6f5', navIconSelectColor: '#123456', shadowColor: 'rgba(0, 0, 0, 0.1)' }),
  );
  const vars = skinCssVariables(skin);

  it('emits one kebab-case custom property per colour field of spec §3', () => {
    expect(Object.keys(vars).sort()).toEqual(
      [
        '--skin-color1',
        '--skin-color2',
        '--skin-sign-color',
        '--skin-light-color',
        '--skin-icon-checked-color',
        '--skin-icon-color',
        '--skin-page-bg-color',
        '--skin-card-bg-color',
        '--skin-button-bg-color',
        '--skin-button-color',
        '--skin-shadow-color',
        '--skin-nav-default-icon-color',
        '--skin-nav-icon-select-color',
        '--skin-sign-text',
        '--skin-nav-text',
      ].sort(),
    );
  });

  it('gives the colours used for text a variant that reads at 4.5:1 on white, the cards and the page (issue 17, item 6)', () => {
    const pale = skinCssVariables(
      parseSkin(JSON.stringify({ signColor: '#f43f5e', navDefaultIconColor: '#9ca3af', pageBgColor: '#eef6f5' })),
    );
    expect(pale['--skin-sign-color']).toBe('#f43f5e');
    expect(pale['--skin-nav-default-icon-color']).toBe('#9ca3af');
    for (const text of [pale['--skin-sign-text']!, pale['--skin-nav-text']!]) {
      for (const bg of ['#ffffff', '#eef6f5']) expect(contrastRatio(text, bg)!).toBeGreaterThanOrEqual(4.5);
    }
    const dark = skinCssVariables(parseSkin(JSON.stringify({ signColor: '#9f1239' })));
    expect(dark['--skin-sign-text']).toBe('#9f1239');
  });

  it("carries the channel's values", () => {
    expect(vars['--skin-color1']).toBe('#0f766e');
    expect(vars['--skin-page-bg-color']).toBe('#eef6f5');
    expect(vars['--skin-nav-icon-select-color']).toBe('#123456');
    expect(vars['--skin-shadow-color']).toBe('rgba(0, 0, 0, 0.1)');
    expect(vars['--skin-button-color']).toBe(DEFAULT_SKIN.buttonColor);
  });

  it('emits nothing for images', () => {
    expect(Object.keys(vars).some((name) => /img/i.test(name))).toBe(false);
    expect(Object.values(vars).some((value) => value.includes('/brands/'))).toBe(false);
  });
});

// Issue 29: a stored skin with a control character in a value put it into the page; the operator's rule for images
// must still take every image the demo channels and the default skin use.
describe('skin values with control characters (issue 29)', () => {
  it.each([
    ['a NUL in an image path', { bannerImg: '/brands/aurora/banner\u0000.svg' }, 'bannerImg'],
    ['a control character in an image URL', { bannerImg: 'https://cdn.example.com/a\u0001.png' }, 'bannerImg'],
    ['a tab inside rgb()', { color1: 'rgb(1,\t2, 3)' }, 'color1'],
    ['a line break inside rgb()', { color1: 'rgb(1,\n2, 3)' }, 'color1'],
  ] as const)('drops %s: the default shows', (_, value, field) => {
    expect(parseSkin(JSON.stringify(value))[field]).toBe(DEFAULT_SKIN[field]);
  });
});

describe('skinImageProblem (issue 29)', () => {
  it("takes every image of the default skin and of each demo channel's skin for that channel", () => {
    for (const channel of SEED_CHANNELS) {
      for (const field of SKIN_IMAGE_FIELDS) {
        const own = DEFAULT_SKIN[field].replace('/brands/default/', `/brands/${channel.key.toLowerCase()}/`);
        expect([channel.key, field, skinImageProblem(own, channel.key, [])]).toEqual([channel.key, field, null]);
        expect([channel.key, field, skinImageProblem(DEFAULT_SKIN[field], channel.key, [])]).toEqual([channel.key, field, null]);
      }
    }
  });

  it('takes an uploaded image of the folder store, /media/<key>.webp, and no other name under /media (issue 31)', () => {
    const key = `${'0a'.repeat(32)}.webp`;
    expect(skinImageProblem(`/media/${key}`, 'AURORA', [])).toBeNull();
    for (const src of [
      `/media/${key.toUpperCase()}`,
      `/media/${key.replace('.webp', '.svg')}`,
      `/media/../brands/dark/${key}`,
      '/media/x.webp',
    ]) {
      expect([src, skinImageProblem(src, 'AURORA', [])]).toEqual([src, expect.stringContaining('an uploaded image (/media/<key>.webp)')]);
    }
  });
});
