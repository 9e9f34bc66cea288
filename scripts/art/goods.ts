/**
 * A collectible's pictures (docs/decisions.md, "Demo art"): its drawing, 600 x 600, with its name as the caption and
 * the title, exactly as the seed spells it.
 */
import type { Drawing, Pair } from './drawing';
import { CAMPAIGN_GOODS } from './goods-campaigns';
import { SALE_GOODS } from './goods-sales';
import { seeded } from './random';
import { at, f, Picture, text } from './svg';

/** Every collectible's two drawings, by its code. */
export const GOODS: Record<string, Pair> = { ...SALE_GOODS, ...CAMPAIGN_GOODS };

/** The name along the bottom, on a veil that keeps it readable on any drawing, between two rules when it is short. */
function caption(p: Picture, name: string, dark: boolean): void {
  const ink = dark ? '#ffffff' : '#1f2937',
    veil = dark ? '#000000' : '#ffffff';
  const size = Math.min(28, Math.floor(520 / (name.length * 0.62)));
  const half = (name.length * size * 0.62 + (name.length - 1) * 1.5) / 2;
  const fade = p.linear('lb', [at(0, veil, 0), at(1, veil, dark ? 0.6 : 0.7)]);
  p.draw(`<rect y="450" width="600" height="150" fill="${fade}"/>`);
  if (half < 230)
    p.draw(`<path d="M${f(300 - half - 52)} 561h30M${f(300 + half + 22)} 561h30" stroke="${ink}" stroke-width="1.5" opacity=".6"/>`);
  p.draw(
    text(300, 561 + size * 0.36, size, name, `class="caption" text-anchor="middle" font-weight="600" letter-spacing="1.5" fill="${ink}"`),
  );
}

/** One picture of a collectible: its cover (v = 1) or its second picture (v = 2). */
export function goodsPicture(code: string, name: string, drawing: Drawing, v: 1 | 2): string {
  const initials = code
    .split('-')
    .map((word) => word[0])
    .join('');
  const p = new Picture(`g${initials}${v}`, 600, 600, seeded(`goods/${code}#${v}`));
  drawing.draw(p);
  caption(p, name, drawing.dark);
  return p.svg(name);
}
