import { readableOn } from './contrast';

/**
 * The skin's colours (spec §3): their names, the shape a colour must have, and the CSS variables a page sets from them.
 * No zod and no server code: the store's pages and the console's skin editor (issue 31, in the browser) share them.
 */

/** Skin colour fields of spec §3, in the order they appear there. */
export const SKIN_COLOR_FIELDS = [
  'color1',
  'color2',
  'signColor',
  'lightColor',
  'iconCheckedColor',
  'iconColor',
  'pageBgColor',
  'cardBgColor',
  'buttonBgColor',
  'buttonColor',
  'shadowColor',
  'navDefaultIconColor',
  'navIconSelectColor',
] as const;

export type SkinColorField = (typeof SKIN_COLOR_FIELDS)[number];

/**
 * The CSS named colours (CSS Color Module Level 4, §6.1), in lower case. `currentcolor` is not among them: it is the
 * text's colour wherever it is used, not a colour of the skin.
 */
export const CSS_NAMED_COLOURS: readonly string[] = [
  'aliceblue',
  'antiquewhite',
  'aqua',
  'aquamarine',
  'azure',
  'beige',
  'bisque',
  'black',
  'blanchedalmond',
  'blue',
  'blueviolet',
  'brown',
  'burlywood',
  'cadetblue',
  'chartreuse',
  'chocolate',
  'coral',
  'cornflowerblue',
  'cornsilk',
  'crimson',
  'cyan',
  'darkblue',
  'darkcyan',
  'darkgoldenrod',
  'darkgray',
  'darkgreen',
  'darkgrey',
  'darkkhaki',
  'darkmagenta',
  'darkolivegreen',
  'darkorange',
  'darkorchid',
  'darkred',
  'darksalmon',
  'darkseagreen',
  'darkslateblue',
  'darkslategray',
  'darkslategrey',
  'darkturquoise',
  'darkviolet',
  'deeppink',
  'deepskyblue',
  'dimgray',
  'dimgrey',
  'dodgerblue',
  'firebrick',
  'floralwhite',
  'forestgreen',
  'fuchsia',
  'gainsboro',
  'ghostwhite',
  'gold',
  'goldenrod',
  'gray',
  'green',
  'greenyellow',
  'grey',
  'honeydew',
  'hotpink',
  'indianred',
  'indigo',
  'ivory',
  'khaki',
  'lavender',
  'lavenderblush',
  'lawngreen',
  'lemonchiffon',
  'lightblue',
  'lightcoral',
  'lightcyan',
  'lightgoldenrodyellow',
  'lightgray',
  'lightgreen',
  'lightgrey',
  'lightpink',
  'lightsalmon',
  'lightseagreen',
  'lightskyblue',
  'lightslategray',
  'lightslategrey',
  'lightsteelblue',
  'lightyellow',
  'lime',
  'limegreen',
  'linen',
  'magenta',
  'maroon',
  'mediumaquamarine',
  'mediumblue',
  'mediumorchid',
  'mediumpurple',
  'mediumseagreen',
  'mediumslateblue',
  'mediumspringgreen',
  'mediumturquoise',
  'mediumvioletred',
  'midnightblue',
  'mintcream',
  'mistyrose',
  'moccasin',
  'navajowhite',
  'navy',
  'oldlace',
  'olive',
  'olivedrab',
  'orange',
  'orangered',
  'orchid',
  'palegoldenrod',
  'palegreen',
  'paleturquoise',
  'palevioletred',
  'papayawhip',
  'peachpuff',
  'peru',
  'pink',
  'plum',
  'powderblue',
  'purple',
  'rebeccapurple',
  'red',
  'rosybrown',
  'royalblue',
  'saddlebrown',
  'salmon',
  'sandybrown',
  'seagreen',
  'seashell',
  'sienna',
  'silver',
  'skyblue',
  'slateblue',
  'slategray',
  'slategrey',
  'snow',
  'springgreen',
  'steelblue',
  'tan',
  'teal',
  'thistle',
  'tomato',
  'turquoise',
  'violet',
  'wheat',
  'white',
  'whitesmoke',
  'yellow',
  'yellowgreen',
];

// The pieces of a colour function (CSS Color 4, §5 and §7): a number, a percentage, a hue (a number or an angle) and
// an alpha (a number or a percentage). Only plain spaces between them: no tab, line break or other control character
// (issue 29).
const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d+)?|\.\d+)`;
const PERCENT = `${NUMBER}%`;
const NUMBER_OR_PERCENT = `(?:${PERCENT}|${NUMBER})`;
const HUE = `${NUMBER}(?:deg|grad|rad|turn)?`;
const COMMA = ' *, *';
const SPACE = ' +';
const SLASH = ' */ *';

/** A colour function's arguments: three components and an optional alpha, in the comma or the space syntax. */
function functionArguments(first: string, rest: string): string {
  const comma = `${first}${COMMA}${rest}${COMMA}${rest}(?:${COMMA}${NUMBER_OR_PERCENT})?`;
  const space = `${first}${SPACE}${rest}${SPACE}${rest}(?:${SLASH}${NUMBER_OR_PERCENT})?`;
  return ` *(?:${comma}|${space}) *`;
}

/**
 * A CSS colour we are willing to put into a style attribute (after trimming), and that is a colour (issue 31): hex of
 * 3, 4, 6 or 8 digits; rgb()/rgba() with three numbers or percentages, hsl()/hsla() with a hue and two percentages
 * (or numbers, as CSS Color 4 allows), each with an optional alpha (`, a` or `/ a`); a CSS named colour or
 * `transparent`. Anything else (e.g. "red; background:url(...)", "rgb(,,,,)", "notacolour", "#12345") is refused, so a
 * skin can neither inject CSS nor store a value the page would ignore. Letter case does not matter, as in CSS.
 */
export const CSS_COLOR = new RegExp(
  '^(?:' +
    [
      '#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})',
      `rgba?\\(${functionArguments(NUMBER_OR_PERCENT, NUMBER_OR_PERCENT)}\\)`,
      `hsla?\\(${functionArguments(HUE, NUMBER_OR_PERCENT)}\\)`,
      [...CSS_NAMED_COLOURS, 'transparent'].join('|'),
    ].join('|') +
    ')$',
  'i',
);

/**
 * CSS custom properties for <html style>: `--skin-color1`, `--skin-page-bg-color`, ..., and the text variants of the
 * colours also used for text (issue 17, item 6): `--skin-sign-text` (prices) and `--skin-nav-text` (the footer's
 * tabs not selected), darkened where needed to read at 4.5:1 on white, the cards and the page (lib/channel/contrast.ts).
 */
export function skinCssVariables(skin: Record<SkinColorField, string>): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const field of SKIN_COLOR_FIELDS) vars[`--skin-${kebab(field)}`] = skin[field];
  const backgrounds = ['#ffffff', skin.cardBgColor, skin.pageBgColor];
  vars['--skin-sign-text'] = readableOn(skin.signColor, backgrounds);
  vars['--skin-nav-text'] = readableOn(skin.navDefaultIconColor, backgrounds);
  return vars;
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
