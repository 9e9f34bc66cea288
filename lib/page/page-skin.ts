import type { CSSProperties } from 'react';
import { skinCssVariables, type Skin } from '../channel/skin';
import { escapeHtml } from '../format/html';

/**
 * The skin's colours on a page: the CSS variables on <html> and the browser's theme colour (DESIGN §6: the channel's
 * colours from the first paint). One place for both, since a page answered from the rendered-page cache has them
 * replaced by the channel's current ones when it is answered (`withCurrentSkin`), rather than being rendered again.
 */

/** The <html> element's style: the skin's variables, on spec §1's grey. */
export function pageSkinStyle(skin: Skin): CSSProperties {
  return { ...skinCssVariables(skin), backgroundColor: '#f2f2f2' } as CSSProperties;
}

/** The browser's theme colour (the address bar on phones): the skin's main colour. */
export function pageThemeColor(skin: Skin): string {
  return skin.color1;
}

/** `pageSkinStyle` as a style attribute's text, as React writes it (custom properties as named, others in kebab case). */
function styleText(skin: Skin): string {
  return Object.entries(pageSkinStyle(skin))
    .map(([name, value]) => `${name.startsWith('--') ? name : name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}:${String(value)}`)
    .join(';');
}

// The document's <html> start tag (the first tag after the doctype) and its style attribute; the theme-color meta.
const HTML_TAG = /^(\s*<!DOCTYPE html>\s*)?<html\b[^>]*>/i;
const STYLE_ATTRIBUTE = /\sstyle="[^"]*"/;
const THEME_COLOR = /<meta name="theme-color" content="[^"]*"\s*\/?>/;
// The same two in the page's flight data (the React tree the browser hydrates, inline in the page's scripts as JSON in
// a JavaScript string, so with escaped quotes): the <html> element's style object and the theme-color meta's props.
const FLIGHT_STYLE = /\\"style\\":\{\\"--skin-[^}]*\}/;
const FLIGHT_THEME_COLOR = /\\"name\\":\\"theme-color\\",\\"content\\":\\"[^\\"]*\\"/;

/** A value as the flight data holds it: JSON, inside a JavaScript string. */
function inFlight(value: unknown): string {
  return JSON.stringify(JSON.stringify(value)).slice(1, -1);
}

/**
 * A rendered page's body with the skin colours of `skin` in place of those it was rendered with (docs/caching.md,
 * "Colour changes"): the <html> style and the theme-color meta, the only places a page writes the skin's colours as
 * such (components colour themselves through the variables), in the HTML and in the flight data the browser hydrates
 * from (which must agree: React would otherwise add a second theme-color meta with the old colour). A colour change
 * then costs a server one read of the channel's row, not a render of each page (issue 31, bench:fanout). What else
 * carries a colour is left as rendered until the entry's next render, within CACHE_TTL_MS: the flat placeholders of
 * images not yet loaded, and the icon links' version (lib/brand-icon/links.ts). A body without these tags is answered
 * as it is.
 */
export function withCurrentSkin(body: string, skin: Skin): string {
  const html = HTML_TAG.exec(body);
  if (!html || !STYLE_ATTRIBUTE.test(html[0])) return body;
  const tag = html[0].replace(STYLE_ATTRIBUTE, () => ` style="${escapeHtml(styleText(skin))}"`);
  const theme = pageThemeColor(skin);
  const rest = body
    .slice(html[0].length)
    .replace(THEME_COLOR, () => `<meta name="theme-color" content="${escapeHtml(theme)}"/>`)
    .replace(FLIGHT_STYLE, () => `\\"style\\":${inFlight(pageSkinStyle(skin))}`)
    .replace(FLIGHT_THEME_COLOR, () => `\\"name\\":\\"theme-color\\",\\"content\\":${inFlight(theme)}`);
  return tag + rest;
}
