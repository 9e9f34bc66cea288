/**
 * A channel's brand folder (docs/decisions.md, "Demo art"): the images of its skin, in its palette, with no word but
 * its brand name: banner, wordmark, avatar, the /mine icons, the chain-up cover, the payment results and the brand
 * certificate.
 */
import { seeded } from './random';
import { cube, curtain, dots, gridCell, ray, ridge, below, sparkle, sparkles, star } from './shapes';
import { ACROSS, at, DIAGONAL, f, fading, mix, numbers, Picture, points, poly, shade, text, tint, type Point } from './svg';

/** What a brand folder is drawn from: the brand name and three colours of the channel's palette. */
export type Brand = { name: string; primary: string; accent: string; page: string };
/** The brand's two tones between its colours: deep (toward black) and soft (toward the accent). */
type Tones = Brand & { deep: string; soft: string };

const RED = '#dc2626';
const W = 750;
const H = 360;

/** The small channel emblem, drawn in a 56 x 56 box on a tile of the brand's tones. */
const EMBLEMS: Record<string, (c: Tones) => string> = {
  aurora: ({ accent: a }) =>
    `<g fill="none" stroke-width="4" stroke-linecap="round"><path d="M12 22q8-8 16 0t16 0" stroke="${a}"/><path d="M12 30q8-8 16 0t16 0" stroke="#fff"/><path d="M12 38q8-8 16 0t16 0" stroke="${a}" opacity=".6"/></g>`,
  lumen: ({ accent: a }) => {
    const beams = Array.from({ length: 8 }, (_, i) => {
      const t = (i * Math.PI) / 4;
      return `<path d="M${f(28 + 12 * Math.cos(t))} ${f(28 + 12 * Math.sin(t))}L${f(28 + 17 * Math.cos(t))} ${f(28 + 17 * Math.sin(t))}"/>`;
    });
    return `<circle cx="28" cy="28" r="8" fill="${a}"/><g stroke="#fff" stroke-width="3" stroke-linecap="round">${beams.join('')}</g>`;
  },
  gift: ({ accent: a, primary }) =>
    `<rect x="15" y="26" width="26" height="17" rx="2" fill="#fff"/><rect x="13" y="20" width="30" height="8" rx="2" fill="${a}"/><rect x="26" y="20" width="4" height="23" fill="${primary}"/><path d="M28 20c-3-7-11-7-9-2s9 2 9 2zm0 0c3-7 11-7 9-2s-9 2-9 2z" fill="#fff"/>`,
  chain: ({ accent: a }) =>
    `<g fill="none" stroke-width="4"><rect x="9" y="22" width="22" height="12" rx="6" stroke="#fff"/><rect x="25" y="22" width="22" height="12" rx="6" stroke="${a}"/></g>`,
  swap: ({ accent: a }) =>
    `<g fill="none" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><path d="M16 24a13 13 0 0 1 23-4M40 32a13 13 0 0 1-23 4" stroke="#fff"/><path d="M40 13v7h-7M16 43v-7h7" stroke="${a}"/></g>`,
  dark: ({ accent: a }) =>
    `<path d="M31 13a15 15 0 1 0 12 22a12 12 0 0 1-12-22z" fill="${a}"/><path d="${sparkle(40, 17, 5)}" fill="#fff"/>`,
  perks: ({ accent: a, primary }) =>
    `<path d="M21 32l-5 15 6-2 4 5 4-14zM35 32l5 15-6-2-4 5-4-14z" fill="${a}"/><circle cx="28" cy="24" r="13" fill="#fff"/><path d="${star(28, 25, 5, 8, 3.4)}" fill="${primary}"/>`,
  bazaar: ({ accent: a, primary }) =>
    `<path d="M11 17h34l3 10H8z" fill="#fff"/><path d="M17 17l-3 10M23 17l-1 10M33 17l1 10M39 17l3 10" stroke="${a}" stroke-width="3"/><path d="M8 27q5 6 10 0q5 6 10 0q5 6 10 0q5 6 10 0" fill="#fff"/><rect x="13" y="33" width="30" height="11" rx="2" fill="${a}"/><rect x="24" y="36" width="8" height="8" fill="${primary}"/>`,
  default: ({ accent: a }) => `<path d="M28 11l15 17-15 17-15-17z" fill="#fff"/><path d="M28 19l8 9-8 9-8-9z" fill="${a}"/>`,
};

/** A link between each pair of neighbouring points: `draw` gets their midpoint, their angle in degrees and the index. */
function links(list: readonly Point[], draw: (mx: number, my: number, angle: number, i: number) => string): string {
  return list
    .slice(0, -1)
    .map(([x, y], i) => {
      const [nx, ny] = list[i + 1]!;
      return draw((x + nx) / 2, (y + ny) / 2, (Math.atan2(ny - y, nx - x) * 180) / Math.PI, i);
    })
    .join('');
}

/** The banner's channel-themed right-hand art, 750 x 360, drawn over its background. */
const BANNERS: Record<string, (p: Picture, c: Tones) => void> = {
  // The northern lights over dark peaks.
  aurora: (p, { primary, accent }) => {
    const lights = [0, 1, 2].map((i) => {
      const band = i === 1 ? '#a7f3d0' : accent;
      return p.linear(`c${i}`, [at(0, band, 0), at(0.7, band, 0.35), at(1, '#ecfeff', 0.8)]);
    });
    const soft = p.blur('bl', 5);
    // Drawn before the stars under them: the curtains take the first numbers of the picture's chance.
    const bands = numbers('110,30,90 160,40,110 205,28,80').map(
      ([y, sway, depth], i) => `<path d="${curtain(p.random, y!, sway!, depth!, W)}" fill="${lights[i]}" filter="${soft}"/>`,
    );
    p.draw(dots(p.random, 45, [0, 0, W, 200], [0.6, 1.8], '#fff', 0.75), ...bands);
    p.draw(
      `<path d="${ridge(p.random, 250, 320, W, H)}" fill="${shade(primary, 0.45)}"/><path d="${ridge(p.random, 290, 345, W, H)}" fill="${shade(primary, 0.7)}"/>`,
    );
  },
  // A sun rising over gentle hills, its rays across the sky.
  lumen: (p, { primary, accent }) => {
    const sun = p.radial('sun', ['#fffbeb', at(0.45, accent), at(1, accent, 0)]);
    const rays = Array.from({ length: 18 }, (_, i) => {
      const t = (i / 18) * Math.PI * 2,
        w = i % 2 ? 0.05 : 0.1;
      return `<path d="${ray(590, 220, 700, t - w, t + w)}"/>`;
    });
    p.draw(
      `<g fill="#fff" opacity=".08">${rays.join('')}</g><circle cx="590" cy="220" r="170" fill="${sun}"/><circle cx="590" cy="220" r="58" fill="#fff7d6"/>`,
    );
    p.draw(
      `<path d="${below((x) => 292 + 18 * Math.sin(x / 90 + 1), W, H)}" fill="${mix(primary, accent, 0.35)}" opacity=".9"/>`,
      `<path d="${below((x) => 318 + 12 * Math.sin(x / 70 + 3), W, H)}" fill="${shade(primary, 0.25)}"/>`,
    );
  },
  // Two gift boxes in a shower of confetti.
  gift: (p, { primary, accent: a }) => {
    const box = (x: number, y: number, w: number, h: number, body: string, ribbon: string) =>
      `<rect x="${x}" y="${y + 22}" width="${w}" height="${h - 22}" rx="6" fill="${body}"/><rect x="${x - 8}" y="${y}" width="${w + 16}" height="28" rx="6" fill="${tint(body, 0.25)}"/><rect x="${x + w / 2 - 9}" y="${y}" width="18" height="${h}" fill="${ribbon}"/>` +
      `<path d="M${x + w / 2} ${y}c-14-36-62-36-50-8s50 8 50 8zm0 0c14-36 62-36 50-8s-50 8-50 8z" fill="${ribbon}" stroke="${shade(ribbon, 0.15)}" stroke-width="2"/><circle cx="${x + w / 2}" cy="${y}" r="9" fill="${ribbon}"/>`;
    const r = p.random;
    const confetti = Array.from({ length: 26 }, () => {
      const x = f(r.range(330, 740)),
        y = f(r.range(10, 320));
      return `<rect x="${x}" y="${y}" width="${f(r.range(6, 12))}" height="${f(r.range(3, 6))}" rx="1.5" fill="${r() < 0.5 ? a : '#fff'}" opacity="${f(r.range(0.45, 0.9))}" transform="rotate(${Math.round(r() * 180)} ${x} ${y})"/>`;
    });
    p.draw(
      `<circle cx="640" cy="60" r="120" fill="${a}" opacity=".18"/><path d="M380 360C470 250 560 320 750 150V360Z" fill="${a}" opacity=".16"/>`,
      ...confetti,
    );
    p.draw(box(470, 150, 140, 150, tint(a, 0.15), primary), box(620, 205, 96, 95, '#ffffff', mix(primary, a, 0.3)));
  },
  // Blocks chained up a slope, on a dotted ground.
  chain: (p, { primary, accent: a }) => {
    const dotted = p.pattern('dot', 24, 24, '<circle cx="2" cy="2" r="1.6" fill="#fff" opacity=".25"/>');
    const blocks = points('430,318 525,262 620,206 705,150');
    p.draw(`<rect x="300" width="450" height="360" fill="${dotted}"/>`);
    p.draw(
      links(
        blocks,
        (mx, my) =>
          `<rect x="${f(mx - 30)}" y="${f(my - 62)}" width="60" height="26" rx="13" fill="none" stroke="#fff" stroke-width="7" opacity=".85" transform="rotate(-31 ${f(mx)} ${f(my - 49)})"/>`,
      ),
    );
    p.draw(...blocks.map(([x, y], i) => cube(x, y, i === 1 ? 44 : 38, tint(a, 0.35), a, mix(a, primary, 0.45))));
  },
  // Two coins trading places inside a pair of arrows.
  swap: (p, { primary, accent: a }) => {
    const [cx, cy, R] = [585, 170, 112];
    const d2r = Math.PI / 180;
    const arc = (a0: number, a1: number) =>
      `M${f(cx + R * Math.cos(a0))} ${f(cy + R * Math.sin(a0))}A${R} ${R} 0 0 1 ${f(cx + R * Math.cos(a1))} ${f(cy + R * Math.sin(a1))}`;
    const head = (angle: number, colour: string) => {
      const x = cx + R * Math.cos(angle),
        y = cy + R * Math.sin(angle),
        [tx, ty] = [-Math.sin(angle), Math.cos(angle)],
        [nx, ny] = [Math.cos(angle), Math.sin(angle)];
      const tip: Point = [x + tx * 34, y + ty * 34];
      return `<path d="${poly([tip, [x + nx * 30, y + ny * 30], [x - nx * 30, y - ny * 30]])}" fill="${colour}"/>`;
    };
    p.draw(
      `<circle cx="${cx}" cy="${cy}" r="165" fill="${a}" opacity=".12"/><g fill="none" stroke-width="24" stroke-linecap="round"><path d="${arc(195 * d2r, 335 * d2r)}" stroke="${a}"/><path d="${arc(15 * d2r, 155 * d2r)}" stroke="#fff" opacity=".9"/></g>`,
      head(335 * d2r, a),
      head(155 * d2r, '#ffffff'),
    );
    p.draw(
      `<circle cx="${cx - 18}" cy="${cy}" r="42" fill="${tint(a, 0.3)}"/><circle cx="${cx + 18}" cy="${cy}" r="42" fill="${mix(primary, a, 0.45)}" stroke="${tint(a, 0.3)}" stroke-width="6"/>`,
    );
  },
  // A crescent moon and a shooting star over a dark sea.
  dark: (p, { primary, accent: a }) => {
    const moonlight = p.radial('moon', fading('#ffffff', 0.35));
    p.draw(
      dots(p.random, 70, [0, 0, W, 260], [0.5, 1.7], '#fff', 0.8),
      `<path d="${sparkles(p.random, 6, [320, 20, 420, 200], [4, 8])}" fill="#fff"/>`,
    );
    p.draw(
      `<circle cx="620" cy="100" r="110" fill="${moonlight}"/><path d="M635 48a54 54 0 1 0 38 86a44 44 0 0 1-38-86z" fill="#f1f5f9"/>`,
    );
    p.draw(`<path d="M370 60l90 30" stroke="#fff" stroke-width="2" stroke-linecap="round" opacity=".6"/>`);
    p.draw(
      `<path d="${below((x) => 290 + 22 * Math.sin(x / 110 + 2), W, H)}" fill="${mix(a, primary, 0.7)}"/>`,
      `<path d="${below((x) => 318 + 14 * Math.sin(x / 80), W, H)}" fill="${shade(primary, 0.4)}"/>`,
    );
  },
  // Member pins on a ribbon: a club's perks.
  perks: (p, { primary, accent: a }) => {
    const pin = (x: number, y: number, s: number, rot: number, body: string, mark: string) =>
      `<g transform="translate(${x} ${y}) rotate(${rot}) scale(${s})"><path d="M-34 30l-16 58 22-8 14 18 14-56zM34 30l16 58-22-8-14 18-14-56z" fill="${shade(body, 0.2)}"/>` +
      `<circle r="58" fill="${tint(body, 0.25)}"/><circle r="48" fill="${body}"/><circle r="48" fill="none" stroke="#fff" stroke-width="2" stroke-dasharray="3 6" opacity=".7"/>${mark}</g>`;
    p.draw(
      `<circle cx="610" cy="150" r="190" fill="${a}" opacity=".14"/><path d="M300 300C420 220 560 330 750 200V360H300Z" fill="${a}" opacity=".14"/>`,
    );
    p.draw(`<path d="M330 40C450 120 560 60 750 120" fill="none" stroke="${a}" stroke-width="14" stroke-linecap="round" opacity=".5"/>`);
    p.draw(
      pin(530, 225, 0.85, -12, a, `<path d="${star(0, 2, 5, 30, 12)}" fill="#fff"/>`),
      pin(
        655,
        160,
        1.05,
        8,
        '#ffffff',
        `<path d="M0 26C-30 6-34-16-18-24C-8-28 0-20 0-12C0-20 8-28 18-24C34-16 30 6 0 26Z" fill="${primary}"/>`,
      ),
    );
    p.draw(`<path d="${sparkles(p.random, 7, [360, 30, 380, 290], [5, 10])}" fill="#fff" opacity=".85"/>`);
  },
  // A night market: striped stalls under a string of lights.
  bazaar: (p, { primary, accent: a }) => {
    const stall = (x: number, w: number, h: number, stripe: string) => {
      const n = Math.round(w / 30),
        sw = w / n;
      let stripes = '',
        scallops = `M${x} 170`;
      for (let i = 0; i < n; i++) {
        if (i % 2) stripes += `<path d="M${f(x + i * sw)} 120h${f(sw)}v50h${f(-sw)}z" fill="${stripe}"/>`;
        scallops += `q${f(sw / 2)} 22 ${f(sw)} 0`;
      }
      return (
        `<rect x="${x + 10}" y="170" width="${w - 20}" height="${h}" fill="${shade(primary, 0.35)}"/><rect x="${x + 22}" y="196" width="${w - 44}" height="${h - 40}" rx="6" fill="${tint(a, 0.3)}" opacity=".85"/>` +
        `<path d="M${x} 120h${w}v50H${x}z" fill="#fff"/>${stripes}<path d="${scallops}z" fill="${stripe}"/>`
      );
    };
    const bulbs = Array.from({ length: 13 }, (_, i) => {
      const x = 470 + i * 23,
        y = 52 + 26 * Math.sin((i / 12) * Math.PI);
      return `<circle cx="${f(x)}" cy="${f(y + 8)}" r="7" fill="${i % 3 ? '#fde68a' : a}"/>`;
    });
    p.draw(
      `<circle cx="640" cy="120" r="150" fill="${a}" opacity=".12"/>`,
      dots(p.random, 25, [300, 0, 450, 110], [0.5, 1.4], '#fff', 0.6),
    );
    p.draw(`<path d="M460 50Q610 110 750 40" fill="none" stroke="#000" stroke-width="2" opacity=".4"/>`, ...bulbs);
    p.draw(
      stall(478, 134, 190, a),
      stall(616, 134, 190, mix(a, primary, 0.35)),
      `<path d="M460 340h290v20H460z" fill="${shade(primary, 0.5)}"/>`,
    );
  },
  // Collectible cards, fanned.
  default: (p, { primary, accent: a }) => {
    const face = p.linear('card', [at(0, '#ffffff', 0.95), at(1, a, 0.9)], DIAGONAL);
    const card = (x: number, y: number, rot: number, s: number) =>
      `<g transform="translate(${x} ${y}) rotate(${rot}) scale(${s})"><rect x="-55" y="-75" width="110" height="150" rx="12" fill="${face}"/><rect x="-43" y="-63" width="86" height="86" rx="6" fill="${primary}" opacity=".85"/><circle cx="18" cy="-38" r="10" fill="${a}"/><path d="M-43 23l30-36 22 24 14-14 20 26z" fill="${a}" opacity=".8"/><rect x="-43" y="36" width="60" height="8" rx="4" fill="${primary}" opacity=".5"/><rect x="-43" y="52" width="36" height="8" rx="4" fill="${primary}" opacity=".3"/></g>`;
    p.draw(`<circle cx="635" cy="180" r="150" fill="${a}" opacity=".12"/><circle cx="700" cy="40" r="60" fill="${a}" opacity=".15"/>`);
    p.draw(card(575, 196, -14, 0.85), card(695, 170, 12, 0.85), card(635, 180, 0, 1.05));
    p.draw(`<path d="${sparkles(p.random, 5, [420, 30, 320, 280], [5, 9])}" fill="#fff" opacity=".8"/>`);
  },
};

/** The glyphs of the /mine icons (96 x 96), on a tile of the brand's tones. */
const MINE_ICONS: Record<string, (c: Tones) => string> = {
  'mine-collection': ({ accent: A, primary: P }) =>
    `<rect x="22" y="22" width="24" height="24" rx="6" fill="#ffffff"/><rect x="50" y="22" width="24" height="24" rx="6" fill="${A}"/><rect x="22" y="50" width="24" height="24" rx="6" fill="${A}"/><rect x="50" y="50" width="24" height="24" rx="6" fill="#ffffff"/>` +
    `<circle cx="34" cy="34" r="5" fill="${P}"/><path d="${sparkle(62, 62, 7)}" fill="${P}"/>`,
  'mine-brand': ({ accent: A, primary: P }) =>
    `<path d="${star(48, 46, 12, 27, 22, -90)}" fill="#ffffff"/><circle cx="48" cy="46" r="17" fill="${A}"/><path d="${star(48, 47, 5, 11, 4.6)}" fill="${P}"/>`,
  'mine-records': ({ accent: A, primary: P }) =>
    `<path d="M28 18h40v60l-6.7-4-6.7 4-6.6-4-6.7 4-6.6-4-6.7 4z" fill="#ffffff"/><rect x="35" y="30" width="26" height="6" rx="3" fill="${A}"/><rect x="35" y="42" width="26" height="5" rx="2.5" fill="${P}" opacity=".45"/><rect x="35" y="52" width="18" height="5" rx="2.5" fill="${P}" opacity=".45"/>`,
  'mine-exchange': ({ accent: A }) =>
    `<g fill="none" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"><path d="M24 38h44M56 26l12 12-12 12" stroke="#ffffff"/><path d="M72 60H28M40 48L28 60l12 12" stroke="${A}"/></g>`,
  'mine-destory': ({ accent: A }) =>
    `<path d="M49 16c3 12 21 20 21 40a22 22 0 0 1-44 0c0-11 6-17 11-22 1 8 5 11 8 11 0-11-3-19 4-29z" fill="#ffffff"/><path d="M48 48c6 6 11 10 11 18a11 11 0 0 1-22 0c0-7 6-11 11-18z" fill="${A}"/>`,
  'mine-chain': ({ accent: A }) =>
    `<g fill="none" stroke-width="8" stroke-linecap="round"><rect x="14" y="42" width="40" height="22" rx="11" stroke="#ffffff" transform="rotate(-35 34 53)"/><rect x="42" y="32" width="40" height="22" rx="11" stroke="${A}" transform="rotate(-35 62 43)"/></g><path d="${sparkle(72, 70, 7)}" fill="#ffffff"/>`,
  'mine-receive': ({ accent: A, primary: P }) =>
    `<rect x="24" y="44" width="48" height="32" rx="4" fill="#ffffff"/><rect x="20" y="34" width="56" height="13" rx="4" fill="${A}"/><rect x="44" y="34" width="8" height="42" fill="${P}" opacity=".8"/><path d="M48 34c-5-12-19-12-16-3s16 3 16 3zm0 0c5-12 19-12 16-3s-16 3-16 3z" fill="#ffffff"/>`,
};

/** Three rings round a result's centre: a halo, a ring, and the badge itself. */
const rings = (halo: string, ring: string, badge: string): string =>
  `<circle cx="120" cy="120" r="112" ${halo}/><circle cx="120" cy="120" r="92" ${ring}/><circle cx="120" cy="120" r="76" fill="${badge}"/>`;

/** Every image of one channel's brand folder, by file name. */
export function brandImages(key: string, brand: Brand): Record<string, string> {
  const dir = `brands/${key}`;
  const c: Tones = {
    ...brand,
    deep: shade(brand.primary, key === 'dark' ? 0.2 : 0.35),
    soft: mix(brand.primary, brand.accent, key === 'dark' ? 0.25 : 0.35),
  };
  const picture = (name: string, id: string, width: number, height: number) =>
    new Picture(`${key}-${id}`, width, height, seeded(`${dir}/${name}`));
  /** The brand's tile: soft to deep, top left to bottom right. */
  const tile = (p: Picture, name: string) => p.linear(name, [c.soft, c.deep], DIAGONAL);
  // The brand name is the only text drawn: its first word large, the rest below (e.g. AURORA / COLLECTIBLES).
  const [first = '', ...rest] = c.name.toUpperCase().split(' ');
  const second = rest.join(' ');
  const files: Record<string, string> = {};

  const banner = picture('banner', 'bn', W, H);
  const ground = banner.linear('bg', [c.deep, at(0.55, c.primary), c.soft], DIAGONAL);
  const scrim = banner.linear('scrim', [at(0, c.deep, 0.7), at(0.6, c.deep, 0)], ACROSS);
  banner.fill(ground);
  (BANNERS[key] ?? BANNERS.default!)(banner, c);
  const size = Math.min(96, Math.floor((450 - first.length * 3) / (first.length * 0.8)));
  banner.fill(scrim).draw(text(46, 168, size, first, `font-weight="800" letter-spacing="3" fill="#ffffff"`));
  banner.draw(`<rect x="50" y="192" width="52" height="6" rx="3" fill="${c.accent}"/>`);
  if (second) banner.draw(text(50, 236, 28, second, `font-weight="600" letter-spacing="6" fill="#ffffff" opacity=".9"`));
  files['banner.svg'] = banner.svg(c.name);

  const wordmark = picture('brand', 'wm', 240, 80);
  wordmark.draw(
    `<rect x="12" y="12" width="56" height="56" rx="16" fill="${tile(wordmark, 't')}"/><g transform="translate(12 12)">${(EMBLEMS[key] ?? EMBLEMS.default!)(c)}</g>`,
  );
  const large = Math.min(34, Math.floor((148 - first.length * 1.5) / (first.length * 0.8)));
  const small = Math.min(13, Math.floor(148 / (second.length * 0.95 || 1)));
  if (second)
    wordmark.draw(
      text(80, 44, large, first, `font-weight="800" letter-spacing="1.5" fill="${c.primary}"`),
      text(81, 44 + small + 5, small, second, `font-weight="600" letter-spacing="2.5" fill="${c.primary}" opacity=".75"`),
    );
  else wordmark.draw(text(80, 40 + large * 0.36, large, first, `font-weight="800" letter-spacing="1.5" fill="${c.primary}"`));
  files['brand.svg'] = wordmark.svg(c.name);

  const avatar = picture('user-face', 'uf', 160, 160);
  const backdrop = avatar.linear('bg', [tint(c.accent, 0.45), c.accent], DIAGONAL);
  const figure = avatar.linear('fg', [c.soft, c.primary]);
  const round = avatar.clip('clip', '<circle cx="80" cy="80" r="76"/>');
  avatar.draw(`<circle cx="80" cy="80" r="80" fill="#ffffff"/><circle cx="80" cy="80" r="76" fill="${backdrop}"/>`);
  avatar.draw(
    `<g clip-path="${round}" fill="${figure}"><circle cx="80" cy="64" r="28"/><path d="M22 160c0-38 26-58 58-58s58 20 58 58z"/></g>`,
  );
  files['user-face.svg'] = avatar.svg(null);

  for (const [name, glyph] of Object.entries(MINE_ICONS)) {
    const icon = picture(name, name, 96, 96);
    icon.draw(
      `<rect width="96" height="96" rx="26" fill="${tile(icon, 'bg')}"/><circle cx="22" cy="18" r="30" fill="#ffffff" opacity=".08"/>${glyph(c)}`,
    );
    files[`${name}.svg`] = icon.svg(null);
  }

  // The chain-up campaign's cover: blocks chained across a blueprint.
  const cover = picture('cover-chain', 'cc', W, H);
  const coverGround = cover.linear('bg', [c.deep, at(0.6, c.primary), c.soft], DIAGONAL);
  const grid = cover.pattern('grid', 30, 30, gridCell('#ffffff', '.12'));
  const glow = cover.radial('gl', fading(c.accent, 0.45));
  const blocks = points('120,250 245,190 370,250 495,190 620,250');
  cover.fill(coverGround).fill(grid).draw(`<ellipse cx="375" cy="190" rx="330" ry="130" fill="${glow}"/>`);
  cover.draw(`<path d="${sparkles(cover.random, 7, [40, 20, 680, 90], [4, 9])}" fill="#ffffff" opacity=".8"/>`);
  cover.draw(
    links(
      blocks,
      (mx, my, angle, i) =>
        `<rect x="${f(mx - 34)}" y="${f(my - 44 - 14)}" width="68" height="28" rx="14" fill="none" stroke="${i % 2 ? c.accent : '#ffffff'}" stroke-width="8" transform="rotate(${f(angle)} ${f(mx)} ${f(my - 44)})"/>`,
    ),
  );
  cover.draw(
    ...blocks.map(([x, y], i) =>
      cube(x, y, 44, tint(c.accent, 0.4), i % 2 ? c.accent : tint(c.accent, 0.15), mix(c.accent, c.primary, 0.5)),
    ),
  );
  files['cover-chain.svg'] = cover.svg(null);

  // The payment results: a tick in the brand's colours, a cross in red.
  const paid = picture('pay-success', 'ps', 240, 240);
  paid.draw(rings(`fill="${c.accent}" opacity=".22"`, `fill="${c.accent}" opacity=".35"`, tile(paid, 'c')));
  paid.draw(
    `<path d="M84 122l25 25 48-52" fill="none" stroke="#ffffff" stroke-width="15" stroke-linecap="round" stroke-linejoin="round"/>`,
  );
  paid.draw(
    `<path d="${sparkle(204, 46, 10)}${sparkle(34, 196, 8)}${sparkle(208, 176, 6)}" fill="${c.primary}" opacity=".6"/>`,
    dots(paid.random, 5, [12, 12, 216, 40], [2, 4], c.accent),
  );
  files['pay-success.svg'] = paid.svg(null);

  const failed = picture('pay-fail', 'pf', 240, 240);
  const red = failed.linear('c', [tint(RED, 0.15), mix(RED, c.primary, 0.35)], DIAGONAL);
  failed.draw(rings(`fill="${mix(RED, c.page, 0.82)}"`, `fill="${c.accent}" opacity=".3"`, red));
  failed.draw(`<path d="M95 95l50 50M145 95l-50 50" stroke="#ffffff" stroke-width="15" stroke-linecap="round"/>`);
  failed.draw(
    `<circle cx="204" cy="50" r="6" fill="${c.primary}" opacity=".45"/><circle cx="36" cy="194" r="4" fill="${RED}" opacity=".5"/>`,
  );
  files['pay-fail.svg'] = failed.svg(null);

  // The brand's certificate: a seal on two ribbons.
  const seal = picture('brand-result', 'br', 240, 240);
  const face = tile(seal, 's');
  const ribbon = seal.linear('rb', [c.accent, mix(c.accent, c.primary, 0.4)]);
  seal.draw(`<path d="M78 140L52 222l32-12 20 26 22-80zM162 140l26 82-32-12-20 26-22-80z" fill="${ribbon}"/>`);
  seal.draw(
    `<path d="${star(120, 100, 20, 88, 80)}" fill="${face}"/><circle cx="120" cy="100" r="66" fill="none" stroke="${c.accent}" stroke-width="3"/>`,
  );
  seal.draw(
    `<circle cx="120" cy="100" r="57" fill="none" stroke="#ffffff" stroke-width="1.5" stroke-dasharray="3 5" opacity=".7"/><path d="${star(120, 102, 5, 34, 14)}" fill="#ffffff"/>`,
  );
  files['brand-result.svg'] = seal.svg(null);

  return files;
}
