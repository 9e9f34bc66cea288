/**
 * The avatars a buyer may pick on their profile (issue 36, docs/profile.md; lib/buyer/avatars.ts names them): six flat
 * pictures, 120 px square, a background and one figure, under brands/avatars/. No text in them.
 */

const svg = (background: string, figure: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 120" width="120" height="120"><rect width="120" height="120" fill="${background}"/>${figure}</svg>\n`;

/** The sun's eight rays: one bar turned round the centre in steps of 45°. */
const rays = Array.from(
  { length: 8 },
  (_, i) => `<rect x="57" y="14" width="6" height="14" rx="3" fill="#E8913A" transform="rotate(${i * 45} 60 60)"/>`,
).join('');

export const AVATARS: Record<string, string> = {
  sun: svg('#F6C453', `<circle cx="60" cy="60" r="22" fill="#E8913A"/>${rays}`),
  leaf: svg(
    '#9ED6A6',
    '<path d="M34 86 C34 50 58 32 88 32 C88 62 70 86 34 86 Z" fill="#2F8F5B"/><path d="M38 82 L76 44" stroke="#fff" stroke-width="4" stroke-linecap="round"/>',
  ),
  wave: svg(
    '#8EC5F0',
    '<path d="M18 66 Q32 52 46 66 T74 66 T102 66 V102 H18 Z" fill="#2C6FB7"/><circle cx="84" cy="38" r="10" fill="#fff"/>',
  ),
  star: svg('#C9B3F2', '<path d="M60 22 L70 48 L98 48 L75 64 L84 92 L60 75 L36 92 L45 64 L22 48 L50 48 Z" fill="#6B4BC4"/>'),
  cat: svg(
    '#F5B7B1',
    '<path d="M34 44 L40 22 L54 38 H66 L80 22 L86 44 C92 54 92 80 60 90 C28 80 28 54 34 44 Z" fill="#B5534A"/><circle cx="50" cy="58" r="4" fill="#fff"/><circle cx="70" cy="58" r="4" fill="#fff"/>',
  ),
  mountain: svg('#B8D8D0', '<path d="M14 94 L46 46 L62 68 L76 50 L106 94 Z" fill="#3E6E66"/><circle cx="84" cy="32" r="9" fill="#fff"/>'),
};
