/**
 * Colour contrast (WCAG 2.1, 1.4.3), for the skin's text colours (issue 17, item 6). A channel keeps its colours for
 * what they fill (buttons, badges, icons); where one of them is also used for text, the text gets a variant darkened
 * just enough to be read on the channel's light backgrounds. Pure.
 */

/** Text needs 4.5:1 against its background (WCAG AA, normal size). */
export const TEXT_CONTRAST = 4.5;

/** #rgb, #rgba, #rrggbb or #rrggbbaa as [r, g, b] (0–255, alpha ignored); null for any other CSS colour. */
export function hexRgb(color: string): [number, number, number] | null {
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(color.trim())?.[1];
  if (!hex) return null;
  const full = hex.length <= 4 ? [...hex.slice(0, 3)].map((c) => c + c).join('') : hex.slice(0, 6);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const [R, G, B] = [r, g, b].map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * R + 0.7152 * G + 0.0722 * B;
}

/** The contrast ratio of two hex colours (1 to 21), or null when either is not hex. */
export function contrastRatio(a: string, b: string): number | null {
  const x = hexRgb(a);
  const y = hexRgb(b);
  if (!x || !y) return null;
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const toHex = (rgb: number[]) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/**
 * `color`, or the least darkened version of it that reads at `min`:1 on every one of `backgrounds` (light ones: the
 * white of cards, the page's tint). A colour that already reads is returned as it is; one that is not hex (a named
 * or rgb() colour) too, as its contrast cannot be known here.
 */
export function readableOn(color: string, backgrounds: readonly string[], min = TEXT_CONTRAST): string {
  const rgb = hexRgb(color);
  if (!rgb) return color;
  const reads = (candidate: string) => backgrounds.every((bg) => (contrastRatio(candidate, bg) ?? Infinity) >= min);
  if (reads(color)) return color;
  for (let step = 1; step <= 20; step++) {
    const candidate = toHex(rgb.map((v) => v * (1 - step / 20)));
    if (reads(candidate)) return candidate;
  }
  return '#000000';
}
