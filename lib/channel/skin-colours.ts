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
 * A CSS colour we are willing to put into a style attribute: hex, rgb()/rgba()/hsl()/hsla() or a named colour (after
 * trimming). Anything else (e.g. "red; background:url(...)") is refused, so a skin cannot inject CSS. Inside the
 * brackets only plain spaces: no tab, line break or other control character (issue 29).
 */
export const CSS_COLOR = /^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\([0-9.,% /]+\)|[a-zA-Z]{3,20})$/;

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
