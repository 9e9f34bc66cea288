// Generates the demo's brand and goods art as plain SVG: geometry, gradients and text only,
// nothing fetched, nothing copied. Run from the project folder:
//   npm run art
// Driven by the seed data (lib/demo/seed-data.ts): every collectible the seed creates gets its own two
// pictures, public/goods/<code>.svg and <code>-2.svg, captioned with its name; every channel gets its own
// brand folder, public/brands/<key>/, in its palette and with its brand name. A collectible without a drawing
// here stops the script, and so does a drawing no collectible uses. No text that a locale would change is drawn
// into any image (docs/decisions.md, "Demo art"); lib/demo/art.test.ts checks the files against the seed.
// Deterministic: every random choice comes from a PRNG seeded by the file's own name, so a
// re-run rewrites byte-identical files.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { channelArt, demoCollectibles, SEED_CHANNELS } from '../lib/demo/seed-data.ts';
import { DEFAULT_SKIN } from '../lib/channel/skin.ts';

const PUBLIC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'public');
const FONT = "system-ui, -apple-system, 'Segoe UI', sans-serif";

/** Brand folders: the fallback skin's (DEFAULT_SKIN) and one per demo channel, coloured from its palette. */
const CHANNELS = {
  default: { name: 'Storefront', primary: DEFAULT_SKIN.color1, accent: '#9ca3af', page: DEFAULT_SKIN.pageBgColor },
  ...Object.fromEntries(
    SEED_CHANNELS.map((c) => [
      channelArt(c),
      { name: c.brandName, primary: c.palette.color1, accent: c.palette.color2, page: c.palette.pageBgColor },
    ]),
  ),
};
const RED = '#dc2626';

// ---------------------------------------------------------------- helpers

/** Seeded PRNG (string hash -> mulberry32). */
function seeded(text) {
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.range = (lo, hi) => lo + (hi - lo) * next();
  return next;
}

const f = (n) => Math.round(n * 10) / 10;
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const hex = (c) =>
  '#' +
  c
    .map((v) =>
      Math.round(Math.max(0, Math.min(255, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');
/** Linear blend of two #rrggbb colours, t = 0 -> a, t = 1 -> b. */
const mix = (a, b, t) => {
  const x = rgb(a),
    y = rgb(b);
  return hex(x.map((v, i) => v + (y[i] - v) * t));
};

const stops = (list) =>
  list.map(([o, c, op]) => `<stop offset="${o}" stop-color="${c}"${op != null && op !== 1 ? ` stop-opacity="${op}"` : ''}/>`).join('');
const lin = (id, list, x1 = 0, y1 = 0, x2 = 0, y2 = 1) =>
  `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stops(list)}</linearGradient>`;
const rad = (id, list, cx = 0.5, cy = 0.5, r = 0.5) =>
  `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${stops(list)}</radialGradient>`;
const blur = (id, sd) => `<filter id="${id}" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${sd}"/></filter>`;
const glow = (id, sd) =>
  `<filter id="${id}" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${sd}" result="b"/><feMerge><feMergeNode in="b"/><feMergeNode in="SourceGraphic"/></feMerge></filter>`;
const text = (x, y, size, content, attrs = '') =>
  `<text x="${x}" y="${y}" font-family="${FONT}" font-size="${size}" ${attrs}>${esc(content)}</text>`;
const poly = (pts) => 'M' + pts.map(([x, y]) => `${f(x)} ${f(y)}`).join('L') + 'Z';

/** A field of round dots (stars, bubbles, embers): zero-length round-capped strokes in three sizes. */
function field(r, n, x0, y0, w, h, r0, r1, color, opacity = 1) {
  const buckets = [[], [], []];
  for (let i = 0; i < n; i++) buckets[Math.min(2, Math.floor(r() * 3))].push(`M${f(x0 + r() * w)} ${f(y0 + r() * h)}h0`);
  const paths = buckets
    .map((b, k) => (b.length ? `<path d="${b.join('')}" stroke-width="${f(2 * (r0 + ((r1 - r0) * (k + 0.5)) / 3))}"/>` : ''))
    .join('');
  return `<g fill="none" stroke="${color}" stroke-linecap="round"${opacity !== 1 ? ` opacity="${opacity}"` : ''}>${paths}</g>`;
}
/** A four-pointed sparkle. */
const spark = (x, y, s) =>
  `M${f(x)} ${f(y - s)}Q${f(x)} ${f(y)} ${f(x + s)} ${f(y)}Q${f(x)} ${f(y)} ${f(x)} ${f(y + s)}Q${f(x)} ${f(y)} ${f(x - s)} ${f(y)}Q${f(x)} ${f(y)} ${f(x)} ${f(y - s)}Z`;
const sparks = (r, n, x0, y0, w, h, s0, s1) => Array.from({ length: n }, () => spark(x0 + r() * w, y0 + r() * h, r.range(s0, s1))).join('');
/** Closed area under y = fn(x). */
function area(fn, w = 600, h = 600, step = 15) {
  let d = `M0 ${h}`;
  for (let x = 0; x <= w; x += step) d += `L${x} ${f(fn(x))}`;
  return `${d}L${w} ${h}Z`;
}
/** Jagged mountain ridge between yTop and yBottom. */
function peaks(r, yTop, yBottom, w = 600, h = 600) {
  const midY = (yTop + yBottom) / 2;
  let x = 0,
    up = r() < 0.5,
    d = `M0 ${h}L0 ${f(r.range(midY, yBottom))}`;
  while (x < w) {
    x = Math.min(w, x + r.range(35, 85));
    d += `L${f(x)} ${f(up ? r.range(yTop, midY) : r.range(midY, yBottom))}`;
    up = !up;
  }
  return `${d}L${w} ${h}Z`;
}
/** An aurora curtain: a ribbon whose lower edge waves, thickness varying along x. */
function curtain(r, yBase, amp, thick, w = 600) {
  const ph = r() * 6.28,
    ph2 = r() * 6.28,
    k = r.range(1.2, 2.6);
  const top = [],
    bottom = [];
  for (let x = -30; x <= w + 30; x += 30) {
    const y = yBase + amp * Math.sin((x / w) * k * Math.PI + ph);
    const t = thick * (0.55 + 0.45 * Math.sin((x / w) * 2.3 * Math.PI + ph2));
    top.push([x, y - t]);
    bottom.push([x, y]);
  }
  return poly([...top, ...bottom.reverse()]);
}
/** Regular star / seal polygon. */
function starPts(cx, cy, n, ro, ri, rot = -90) {
  const pts = [];
  for (let i = 0; i < n * 2; i++) {
    const a = ((rot + (i * 180) / n) * Math.PI) / 180,
      rr = i % 2 ? ri : ro;
    pts.push([cx + rr * Math.cos(a), cy + rr * Math.sin(a)]);
  }
  return poly(pts);
}
/** Isometric cube: three faces, bottom vertex at (x, y). */
function cube(x, y, s, top, left, right, extra = '') {
  const h = s / 2;
  return (
    `<g${extra}><path d="${poly([
      [x, y - s],
      [x - s, y - s - h],
      [x, y - 2 * s],
      [x + s, y - s - h],
    ])}" fill="${top}"/>` +
    `<path d="${poly([
      [x - s, y - s - h],
      [x, y - s],
      [x, y],
      [x - s, y - h],
    ])}" fill="${left}"/>` +
    `<path d="${poly([
      [x + s, y - s - h],
      [x, y - s],
      [x, y],
      [x + s, y - h],
    ])}" fill="${right}"/></g>`
  );
}

/** An SVG document; `title` (a name, never a locale's word) may be null. */
function svgDoc(w, h, title, defs, body) {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `${title ? `<title>${esc(title)}</title>` : ''}${defs ? `<defs>${defs}</defs>` : ''}${body}</svg>\n`
  );
}

const written = [];
function write(rel, content) {
  const file = path.join(PUBLIC, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  written.push([rel, Buffer.byteLength(content)]);
}

// ---------------------------------------------------------------- brand images

/** The small channel emblem, drawn in a 56 x 56 box on a primary-coloured tile. */
function emblem(key, c) {
  const a = c.accent;
  switch (key) {
    case 'aurora':
      return `<g fill="none" stroke-width="4" stroke-linecap="round"><path d="M12 22q8-8 16 0t16 0" stroke="${a}"/><path d="M12 30q8-8 16 0t16 0" stroke="#fff"/><path d="M12 38q8-8 16 0t16 0" stroke="${a}" opacity=".6"/></g>`;
    case 'lumen':
      return `<circle cx="28" cy="28" r="8" fill="${a}"/><g stroke="#fff" stroke-width="3" stroke-linecap="round">${Array.from(
        { length: 8 },
        (_, i) => {
          const t = (i * Math.PI) / 4;
          return `<path d="M${f(28 + 12 * Math.cos(t))} ${f(28 + 12 * Math.sin(t))}L${f(28 + 17 * Math.cos(t))} ${f(28 + 17 * Math.sin(t))}"/>`;
        },
      ).join('')}</g>`;
    case 'gift':
      return `<rect x="15" y="26" width="26" height="17" rx="2" fill="#fff"/><rect x="13" y="20" width="30" height="8" rx="2" fill="${a}"/><rect x="26" y="20" width="4" height="23" fill="${c.primary}"/><path d="M28 20c-3-7-11-7-9-2s9 2 9 2zm0 0c3-7 11-7 9-2s-9 2-9 2z" fill="#fff"/>`;
    case 'chain':
      return `<g fill="none" stroke-width="4"><rect x="9" y="22" width="22" height="12" rx="6" stroke="#fff"/><rect x="25" y="22" width="22" height="12" rx="6" stroke="${a}"/></g>`;
    case 'swap':
      return `<g fill="none" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><path d="M16 24a13 13 0 0 1 23-4M40 32a13 13 0 0 1-23 4" stroke="#fff"/><path d="M40 13v7h-7M16 43v-7h7" stroke="${a}"/></g>`;
    case 'dark':
      return `<path d="M31 13a15 15 0 1 0 12 22a12 12 0 0 1-12-22z" fill="${a}"/><path d="${spark(40, 17, 5)}" fill="#fff"/>`;
    case 'perks':
      return `<path d="M21 32l-5 15 6-2 4 5 4-14zM35 32l5 15-6-2-4 5-4-14z" fill="${a}"/><circle cx="28" cy="24" r="13" fill="#fff"/><path d="${starPts(28, 25, 5, 8, 3.4)}" fill="${c.primary}"/>`;
    case 'bazaar':
      return `<path d="M11 17h34l3 10H8z" fill="#fff"/><path d="M17 17l-3 10M23 17l-1 10M33 17l1 10M39 17l3 10" stroke="${a}" stroke-width="3"/><path d="M8 27q5 6 10 0q5 6 10 0q5 6 10 0q5 6 10 0" fill="#fff"/><rect x="13" y="33" width="30" height="11" rx="2" fill="${a}"/><rect x="24" y="36" width="8" height="8" fill="${c.primary}"/>`;
    default:
      return `<path d="M28 11l15 17-15 17-15-17z" fill="#fff"/><path d="M28 19l8 9-8 9-8-9z" fill="${a}"/>`;
  }
}

/** Channel-themed right-hand art of the 750 x 360 banner. */
function bannerArt(key, c, id, r) {
  const a = c.accent,
    p = c.primary,
    W = 750,
    H = 360;
  switch (key) {
    case 'aurora': {
      const defs =
        [0, 1, 2]
          .map((i) =>
            lin(`${id}-c${i}`, [
              [0, i === 1 ? '#a7f3d0' : a, 0],
              [0.7, i === 1 ? '#a7f3d0' : a, 0.35],
              [1, '#ecfeff', 0.8],
            ]),
          )
          .join('') + blur(`${id}-bl`, 5);
      const bands = [
        [110, 30, 90],
        [160, 40, 110],
        [205, 28, 80],
      ]
        .map(([y, am, t], i) => `<path d="${curtain(r, y, am, t, W)}" fill="url(#${id}-c${i})" filter="url(#${id}-bl)"/>`)
        .join('');
      return {
        defs,
        art: `${field(r, 45, 0, 0, W, 200, 0.6, 1.8, '#fff', 0.75)}${bands}<path d="${peaks(r, 250, 320, W, H)}" fill="${mix(p, '#000000', 0.45)}"/><path d="${peaks(r, 290, 345, W, H)}" fill="${mix(p, '#000000', 0.7)}"/>`,
      };
    }
    case 'lumen': {
      const defs = rad(`${id}-sun`, [
        [0, '#fffbeb'],
        [0.45, a],
        [1, a, 0],
      ]);
      const rays = Array.from({ length: 18 }, (_, i) => {
        const t = (i / 18) * Math.PI * 2,
          w = i % 2 ? 0.05 : 0.1;
        return `<path d="M590 220L${f(590 + 700 * Math.cos(t - w))} ${f(220 + 700 * Math.sin(t - w))}L${f(590 + 700 * Math.cos(t + w))} ${f(220 + 700 * Math.sin(t + w))}Z"/>`;
      }).join('');
      return {
        defs,
        art:
          `<g fill="#fff" opacity=".08">${rays}</g><circle cx="590" cy="220" r="170" fill="url(#${id}-sun)"/><circle cx="590" cy="220" r="58" fill="#fff7d6"/>` +
          `<path d="${area((x) => 292 + 18 * Math.sin(x / 90 + 1), W, H)}" fill="${mix(p, a, 0.35)}" opacity=".9"/><path d="${area((x) => 318 + 12 * Math.sin(x / 70 + 3), W, H)}" fill="${mix(p, '#000000', 0.25)}"/>`,
      };
    }
    case 'gift': {
      const box = (x, y, w, h, body, rib) =>
        `<rect x="${x}" y="${y + 22}" width="${w}" height="${h - 22}" rx="6" fill="${body}"/><rect x="${x - 8}" y="${y}" width="${w + 16}" height="28" rx="6" fill="${mix(body, '#ffffff', 0.25)}"/><rect x="${x + w / 2 - 9}" y="${y}" width="18" height="${h}" fill="${rib}"/>` +
        `<path d="M${x + w / 2} ${y}c-14-36-62-36-50-8s50 8 50 8zm0 0c14-36 62-36 50-8s-50 8-50 8z" fill="${rib}" stroke="${mix(rib, '#000000', 0.15)}" stroke-width="2"/><circle cx="${x + w / 2}" cy="${y}" r="9" fill="${rib}"/>`;
      const conf = Array.from({ length: 26 }, () => {
        const x = f(r.range(330, 740)),
          y = f(r.range(10, 320));
        return `<rect x="${x}" y="${y}" width="${f(r.range(6, 12))}" height="${f(r.range(3, 6))}" rx="1.5" fill="${r() < 0.5 ? a : '#fff'}" opacity="${f(r.range(0.45, 0.9))}" transform="rotate(${Math.round(r() * 180)} ${x} ${y})"/>`;
      }).join('');
      return {
        defs: '',
        art:
          `<circle cx="640" cy="60" r="120" fill="${a}" opacity=".18"/><path d="M380 360C470 250 560 320 750 150V360Z" fill="${a}" opacity=".16"/>${conf}` +
          box(470, 150, 140, 150, mix(a, '#ffffff', 0.15), p) +
          box(620, 205, 96, 95, '#ffffff', mix(p, a, 0.3)),
      };
    }
    case 'chain': {
      const defs = `<pattern id="${id}-dot" width="24" height="24" patternUnits="userSpaceOnUse"><circle cx="2" cy="2" r="1.6" fill="#fff" opacity=".25"/></pattern>`;
      const top = mix(a, '#ffffff', 0.35),
        left = a,
        right = mix(a, p, 0.45);
      let art = `<rect x="300" width="450" height="360" fill="url(#${id}-dot)"/>`;
      const pts = [
        [430, 318],
        [525, 262],
        [620, 206],
        [705, 150],
      ];
      pts.slice(0, -1).forEach(([x, y], i) => {
        const [nx, ny] = pts[i + 1];
        art += `<rect x="${f((x + nx) / 2 - 30)}" y="${f((y + ny) / 2 - 62)}" width="60" height="26" rx="13" fill="none" stroke="#fff" stroke-width="7" opacity=".85" transform="rotate(-31 ${f((x + nx) / 2)} ${f((y + ny) / 2 - 49)})"/>`;
      });
      pts.forEach(([x, y], i) => {
        art += cube(x, y, i === 1 ? 44 : 38, top, left, right);
      });
      return { defs, art };
    }
    case 'swap': {
      const cx = 585,
        cy = 170,
        R = 112;
      const arc = (a0, a1) =>
        `M${f(cx + R * Math.cos(a0))} ${f(cy + R * Math.sin(a0))}A${R} ${R} 0 0 1 ${f(cx + R * Math.cos(a1))} ${f(cy + R * Math.sin(a1))}`;
      const head = (ang, col) => {
        const x = cx + R * Math.cos(ang),
          y = cy + R * Math.sin(ang),
          tx = -Math.sin(ang),
          ty = Math.cos(ang),
          nx = Math.cos(ang),
          ny = Math.sin(ang);
        return `<path d="${poly([
          [x + tx * 34, y + ty * 34],
          [x + nx * 30, y + ny * 30],
          [x - nx * 30, y - ny * 30],
        ])}" fill="${col}"/>`;
      };
      const d2r = Math.PI / 180;
      return {
        defs: '',
        art:
          `<circle cx="${cx}" cy="${cy}" r="165" fill="${a}" opacity=".12"/><g fill="none" stroke-width="24" stroke-linecap="round"><path d="${arc(195 * d2r, 335 * d2r)}" stroke="${a}"/><path d="${arc(15 * d2r, 155 * d2r)}" stroke="#fff" opacity=".9"/></g>` +
          head(335 * d2r, a) +
          head(155 * d2r, '#ffffff') +
          `<circle cx="${cx - 18}" cy="${cy}" r="42" fill="${mix(a, '#ffffff', 0.3)}"/><circle cx="${cx + 18}" cy="${cy}" r="42" fill="${mix(p, a, 0.45)}" stroke="${mix(a, '#ffffff', 0.3)}" stroke-width="6"/>`,
      };
    }
    case 'dark': {
      const defs = rad(`${id}-moon`, [
        [0, '#ffffff', 0.35],
        [1, '#ffffff', 0],
      ]);
      return {
        defs,
        art:
          `${field(r, 70, 0, 0, W, 260, 0.5, 1.7, '#fff', 0.8)}<path d="${sparks(r, 6, 320, 20, 420, 200, 4, 8)}" fill="#fff"/>` +
          `<circle cx="620" cy="100" r="110" fill="url(#${id}-moon)"/><path d="M635 48a54 54 0 1 0 38 86a44 44 0 0 1-38-86z" fill="#f1f5f9"/>` +
          `<path d="M370 60l90 30" stroke="#fff" stroke-width="2" stroke-linecap="round" opacity=".6"/>` +
          `<path d="${area((x) => 290 + 22 * Math.sin(x / 110 + 2), W, H)}" fill="${mix(a, p, 0.7)}"/><path d="${area((x) => 318 + 14 * Math.sin(x / 80), W, H)}" fill="${mix(p, '#000000', 0.4)}"/>`,
      };
    }
    case 'perks': {
      // Member pins on a ribbon: a club's perks.
      const pin = (x, y, s, rot, body, mark) =>
        `<g transform="translate(${x} ${y}) rotate(${rot}) scale(${s})"><path d="M-34 30l-16 58 22-8 14 18 14-56zM34 30l16 58-22-8-14 18-14-56z" fill="${mix(body, '#000000', 0.2)}"/>` +
        `<circle r="58" fill="${mix(body, '#ffffff', 0.25)}"/><circle r="48" fill="${body}"/><circle r="48" fill="none" stroke="#fff" stroke-width="2" stroke-dasharray="3 6" opacity=".7"/>${mark}</g>`;
      return {
        defs: '',
        art:
          `<circle cx="610" cy="150" r="190" fill="${a}" opacity=".14"/><path d="M300 300C420 220 560 330 750 200V360H300Z" fill="${a}" opacity=".14"/>` +
          `<path d="M330 40C450 120 560 60 750 120" fill="none" stroke="${a}" stroke-width="14" stroke-linecap="round" opacity=".5"/>` +
          pin(530, 225, 0.85, -12, a, `<path d="${starPts(0, 2, 5, 30, 12)}" fill="#fff"/>`) +
          pin(
            655,
            160,
            1.05,
            8,
            '#ffffff',
            `<path d="M0 26C-30 6-34-16-18-24C-8-28 0-20 0-12C0-20 8-28 18-24C34-16 30 6 0 26Z" fill="${p}"/>`,
          ) +
          `<path d="${sparks(r, 7, 360, 30, 380, 290, 5, 10)}" fill="#fff" opacity=".85"/>`,
      };
    }
    case 'bazaar': {
      // A night market: striped stalls under a string of lights.
      const stall = (x, w, h, stripe) => {
        const n = Math.round(w / 30),
          sw = w / n;
        let stripes = '',
          scallop = `M${x} 170`;
        for (let i = 0; i < n; i++) {
          if (i % 2) stripes += `<path d="M${f(x + i * sw)} 120h${f(sw)}v50h${f(-sw)}z" fill="${stripe}"/>`;
          scallop += `q${f(sw / 2)} 22 ${f(sw)} 0`;
        }
        return (
          `<rect x="${x + 10}" y="170" width="${w - 20}" height="${h}" fill="${mix(p, '#000000', 0.35)}"/><rect x="${x + 22}" y="196" width="${w - 44}" height="${h - 40}" rx="6" fill="${mix(a, '#ffffff', 0.3)}" opacity=".85"/>` +
          `<path d="M${x} 120h${w}v50H${x}z" fill="#fff"/>${stripes}<path d="${scallop}z" fill="${stripe}"/>`
        );
      };
      const bulbs = Array.from({ length: 13 }, (_, i) => {
        const x = 470 + i * 23,
          y = 52 + 26 * Math.sin((i / 12) * Math.PI);
        return `<circle cx="${f(x)}" cy="${f(y + 8)}" r="7" fill="${i % 3 ? '#fde68a' : a}"/>`;
      }).join('');
      return {
        defs: '',
        art:
          `<circle cx="640" cy="120" r="150" fill="${a}" opacity=".12"/>${field(r, 25, 300, 0, 450, 110, 0.5, 1.4, '#fff', 0.6)}` +
          `<path d="M460 50Q610 110 750 40" fill="none" stroke="#000" stroke-width="2" opacity=".4"/>${bulbs}` +
          stall(478, 134, 190, a) +
          stall(616, 134, 190, mix(a, p, 0.35)) +
          `<path d="M460 340h290v20H460z" fill="${mix(p, '#000000', 0.5)}"/>`,
      };
    }
    default: {
      const defs = lin(
        `${id}-card`,
        [
          [0, '#ffffff', 0.95],
          [1, a, 0.9],
        ],
        0,
        0,
        1,
        1,
      );
      const card = (x, y, rot, s) =>
        `<g transform="translate(${x} ${y}) rotate(${rot}) scale(${s})"><rect x="-55" y="-75" width="110" height="150" rx="12" fill="url(#${id}-card)"/><rect x="-43" y="-63" width="86" height="86" rx="6" fill="${p}" opacity=".85"/><circle cx="18" cy="-38" r="10" fill="${a}"/><path d="M-43 23l30-36 22 24 14-14 20 26z" fill="${a}" opacity=".8"/><rect x="-43" y="36" width="60" height="8" rx="4" fill="${p}" opacity=".5"/><rect x="-43" y="52" width="36" height="8" rx="4" fill="${p}" opacity=".3"/></g>`;
      return {
        defs,
        art:
          `<circle cx="635" cy="180" r="150" fill="${a}" opacity=".12"/><circle cx="700" cy="40" r="60" fill="${a}" opacity=".15"/>` +
          card(575, 196, -14, 0.85) +
          card(695, 170, 12, 0.85) +
          card(635, 180, 0, 1.05) +
          `<path d="${sparks(r, 5, 420, 30, 320, 280, 5, 9)}" fill="#fff" opacity=".8"/>`,
      };
    }
  }
}

function brandImages(key, c) {
  const dir = `brands/${key}`;
  // The brand name is the only text drawn: its first word large, the rest below (e.g. AURORA / COLLECTIBLES).
  const [first = '', ...rest] = c.name.toUpperCase().split(' ');
  const second = rest.join(' ');
  const deep = mix(c.primary, '#000000', key === 'dark' ? 0.2 : 0.35);
  const soft = mix(c.primary, c.accent, key === 'dark' ? 0.25 : 0.35);

  // banner
  {
    const id = `${key}-bn`,
      r = seeded(`${dir}/banner`);
    const { defs, art } = bannerArt(key, c, id, r);
    const size = Math.min(96, Math.floor((450 - first.length * 3) / (first.length * 0.8)));
    write(
      `${dir}/banner.svg`,
      svgDoc(
        750,
        360,
        c.name,
        lin(
          `${id}-bg`,
          [
            [0, deep],
            [0.55, c.primary],
            [1, soft],
          ],
          0,
          0,
          1,
          1,
        ) +
          lin(
            `${id}-scrim`,
            [
              [0, deep, 0.7],
              [0.6, deep, 0],
            ],
            0,
            0,
            1,
            0,
          ) +
          defs,
        `<rect width="750" height="360" fill="url(#${id}-bg)"/>${art}<rect width="750" height="360" fill="url(#${id}-scrim)"/>` +
          text(46, 168, size, first, `font-weight="800" letter-spacing="3" fill="#ffffff"`) +
          `<rect x="50" y="192" width="52" height="6" rx="3" fill="${c.accent}"/>` +
          (second ? text(50, 236, 28, second, `font-weight="600" letter-spacing="6" fill="#ffffff" opacity=".9"`) : ''),
      ),
    );
  }

  // wordmark
  {
    const id = `${key}-wm`;
    const size = Math.min(34, Math.floor((148 - first.length * 1.5) / (first.length * 0.8)));
    const small = Math.min(13, Math.floor(148 / (second.length * 0.95 || 1)));
    write(
      `${dir}/brand.svg`,
      svgDoc(
        240,
        80,
        c.name,
        lin(
          `${id}-t`,
          [
            [0, soft],
            [1, deep],
          ],
          0,
          0,
          1,
          1,
        ),
        `<rect x="12" y="12" width="56" height="56" rx="16" fill="url(#${id}-t)"/><g transform="translate(12 12)">${emblem(key, c)}</g>` +
          (second
            ? text(80, 44, size, first, `font-weight="800" letter-spacing="1.5" fill="${c.primary}"`) +
              text(81, 44 + small + 5, small, second, `font-weight="600" letter-spacing="2.5" fill="${c.primary}" opacity=".75"`)
            : text(80, 40 + size * 0.36, size, first, `font-weight="800" letter-spacing="1.5" fill="${c.primary}"`)),
      ),
    );
  }

  // avatar
  {
    const id = `${key}-uf`;
    write(
      `${dir}/user-face.svg`,
      svgDoc(
        160,
        160,
        null,
        lin(
          `${id}-bg`,
          [
            [0, mix(c.accent, '#ffffff', 0.45)],
            [1, c.accent],
          ],
          0,
          0,
          1,
          1,
        ) +
          lin(`${id}-fg`, [
            [0, soft],
            [1, c.primary],
          ]) +
          `<clipPath id="${id}-clip"><circle cx="80" cy="80" r="76"/></clipPath>`,
        `<circle cx="80" cy="80" r="80" fill="#ffffff"/><circle cx="80" cy="80" r="76" fill="url(#${id}-bg)"/>` +
          `<g clip-path="url(#${id}-clip)" fill="url(#${id}-fg)"><circle cx="80" cy="64" r="28"/><path d="M22 160c0-38 26-58 58-58s58 20 58 58z"/></g>`,
      ),
    );
  }

  // "mine" icons
  const A = c.accent,
    P = c.primary,
    W = '#ffffff';
  const icons = {
    'mine-collection':
      `<rect x="22" y="22" width="24" height="24" rx="6" fill="${W}"/><rect x="50" y="22" width="24" height="24" rx="6" fill="${A}"/><rect x="22" y="50" width="24" height="24" rx="6" fill="${A}"/><rect x="50" y="50" width="24" height="24" rx="6" fill="${W}"/>` +
      `<circle cx="34" cy="34" r="5" fill="${P}"/><path d="${spark(62, 62, 7)}" fill="${P}"/>`,
    'mine-brand': `<path d="${starPts(48, 46, 12, 27, 22, -90)}" fill="${W}"/><circle cx="48" cy="46" r="17" fill="${A}"/><path d="${starPts(48, 47, 5, 11, 4.6)}" fill="${P}"/>`,
    'mine-records': `<path d="M28 18h40v60l-6.7-4-6.7 4-6.6-4-6.7 4-6.6-4-6.7 4z" fill="${W}"/><rect x="35" y="30" width="26" height="6" rx="3" fill="${A}"/><rect x="35" y="42" width="26" height="5" rx="2.5" fill="${P}" opacity=".45"/><rect x="35" y="52" width="18" height="5" rx="2.5" fill="${P}" opacity=".45"/>`,
    'mine-exchange': `<g fill="none" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"><path d="M24 38h44M56 26l12 12-12 12" stroke="${W}"/><path d="M72 60H28M40 48L28 60l12 12" stroke="${A}"/></g>`,
    'mine-destory': `<path d="M49 16c3 12 21 20 21 40a22 22 0 0 1-44 0c0-11 6-17 11-22 1 8 5 11 8 11 0-11-3-19 4-29z" fill="${W}"/><path d="M48 48c6 6 11 10 11 18a11 11 0 0 1-22 0c0-7 6-11 11-18z" fill="${A}"/>`,
    'mine-chain': `<g fill="none" stroke-width="8" stroke-linecap="round"><rect x="14" y="42" width="40" height="22" rx="11" stroke="${W}" transform="rotate(-35 34 53)"/><rect x="42" y="32" width="40" height="22" rx="11" stroke="${A}" transform="rotate(-35 62 43)"/></g><path d="${spark(72, 70, 7)}" fill="${W}"/>`,
    'mine-receive': `<rect x="24" y="44" width="48" height="32" rx="4" fill="${W}"/><rect x="20" y="34" width="56" height="13" rx="4" fill="${A}"/><rect x="44" y="34" width="8" height="42" fill="${P}" opacity=".8"/><path d="M48 34c-5-12-19-12-16-3s16 3 16 3zm0 0c5-12 19-12 16-3s-16 3-16 3z" fill="${W}"/>`,
  };
  for (const [name, glyph] of Object.entries(icons)) {
    const id = `${key}-${name}`;
    write(
      `${dir}/${name}.svg`,
      svgDoc(
        96,
        96,
        null,
        lin(
          `${id}-bg`,
          [
            [0, soft],
            [1, deep],
          ],
          0,
          0,
          1,
          1,
        ),
        `<rect width="96" height="96" rx="26" fill="url(#${id}-bg)"/><circle cx="22" cy="18" r="30" fill="#ffffff" opacity=".08"/>${glyph}`,
      ),
    );
  }

  // chain-up campaign cover
  {
    const id = `${key}-cc`,
      r = seeded(`${dir}/cover-chain`);
    let art = '';
    const pts = [
      [120, 250],
      [245, 190],
      [370, 250],
      [495, 190],
      [620, 250],
    ];
    pts.slice(0, -1).forEach(([x, y], i) => {
      const [nx, ny] = pts[i + 1],
        mx = (x + nx) / 2,
        my = (y + ny) / 2 - 44,
        ang = (Math.atan2(ny - y, nx - x) * 180) / Math.PI;
      art += `<rect x="${f(mx - 34)}" y="${f(my - 14)}" width="68" height="28" rx="14" fill="none" stroke="${i % 2 ? c.accent : '#ffffff'}" stroke-width="8" transform="rotate(${f(ang)} ${f(mx)} ${f(my)})"/>`;
    });
    pts.forEach(([x, y], i) => {
      art += cube(
        x,
        y,
        44,
        mix(c.accent, '#ffffff', 0.4),
        i % 2 ? c.accent : mix(c.accent, '#ffffff', 0.15),
        mix(c.accent, c.primary, 0.5),
      );
    });
    write(
      `${dir}/cover-chain.svg`,
      svgDoc(
        750,
        360,
        null,
        lin(
          `${id}-bg`,
          [
            [0, deep],
            [0.6, c.primary],
            [1, soft],
          ],
          0,
          0,
          1,
          1,
        ) +
          `<pattern id="${id}-grid" width="30" height="30" patternUnits="userSpaceOnUse"><path d="M30 0H0V30" fill="none" stroke="#ffffff" stroke-width="1" opacity=".12"/></pattern>` +
          rad(`${id}-gl`, [
            [0, c.accent, 0.45],
            [1, c.accent, 0],
          ]),
        `<rect width="750" height="360" fill="url(#${id}-bg)"/><rect width="750" height="360" fill="url(#${id}-grid)"/><ellipse cx="375" cy="190" rx="330" ry="130" fill="url(#${id}-gl)"/>` +
          `<path d="${sparks(r, 7, 40, 20, 680, 90, 4, 9)}" fill="#ffffff" opacity=".8"/>${art}`,
      ),
    );
  }

  // payment results & brand certificate
  {
    const id = `${key}-ps`,
      r = seeded(`${dir}/pay-success`);
    write(
      `${dir}/pay-success.svg`,
      svgDoc(
        240,
        240,
        null,
        lin(
          `${id}-c`,
          [
            [0, soft],
            [1, deep],
          ],
          0,
          0,
          1,
          1,
        ),
        `<circle cx="120" cy="120" r="112" fill="${c.accent}" opacity=".22"/><circle cx="120" cy="120" r="92" fill="${c.accent}" opacity=".35"/><circle cx="120" cy="120" r="76" fill="url(#${id}-c)"/>` +
          `<path d="M84 122l25 25 48-52" fill="none" stroke="#ffffff" stroke-width="15" stroke-linecap="round" stroke-linejoin="round"/>` +
          `<path d="${spark(204, 46, 10)}${spark(34, 196, 8)}${spark(208, 176, 6)}" fill="${c.primary}" opacity=".6"/>${field(r, 5, 12, 12, 216, 40, 2, 4, c.accent)}`,
      ),
    );
  }
  {
    const id = `${key}-pf`;
    write(
      `${dir}/pay-fail.svg`,
      svgDoc(
        240,
        240,
        null,
        lin(
          `${id}-c`,
          [
            [0, mix(RED, '#ffffff', 0.15)],
            [1, mix(RED, c.primary, 0.35)],
          ],
          0,
          0,
          1,
          1,
        ),
        `<circle cx="120" cy="120" r="112" fill="${mix(RED, c.page, 0.82)}"/><circle cx="120" cy="120" r="92" fill="${c.accent}" opacity=".3"/><circle cx="120" cy="120" r="76" fill="url(#${id}-c)"/>` +
          `<path d="M95 95l50 50M145 95l-50 50" stroke="#ffffff" stroke-width="15" stroke-linecap="round"/><circle cx="204" cy="50" r="6" fill="${c.primary}" opacity=".45"/><circle cx="36" cy="194" r="4" fill="${RED}" opacity=".5"/>`,
      ),
    );
  }
  {
    const id = `${key}-br`;
    write(
      `${dir}/brand-result.svg`,
      svgDoc(
        240,
        240,
        null,
        lin(
          `${id}-s`,
          [
            [0, soft],
            [1, deep],
          ],
          0,
          0,
          1,
          1,
        ) +
          lin(`${id}-rb`, [
            [0, c.accent],
            [1, mix(c.accent, c.primary, 0.4)],
          ]),
        `<path d="M78 140L52 222l32-12 20 26 22-80zM162 140l26 82-32-12-20 26-22-80z" fill="url(#${id}-rb)"/>` +
          `<path d="${starPts(120, 100, 20, 88, 80)}" fill="url(#${id}-s)"/><circle cx="120" cy="100" r="66" fill="none" stroke="${c.accent}" stroke-width="3"/>` +
          `<circle cx="120" cy="100" r="57" fill="none" stroke="#ffffff" stroke-width="1.5" stroke-dasharray="3 5" opacity=".7"/><path d="${starPts(120, 102, 5, 34, 14)}" fill="#ffffff"/>`,
      ),
    );
  }
}

// ---------------------------------------------------------------- goods art (600 x 600)

/** Koi at the origin, head up, about 275 long. */
const KOI_BODY = 'M0-110C36-106 46-40 30 20C20 60 8 84 0 95C-8 84-20 60-30 20C-46-40-36-106 0-110Z';
const KOI_FINS =
  'M0 88C26 108 48 140 38 168C22 146 8 132 0 126C-8 132-22 146-38 168C-48 140-26 108 0 88ZM28-32C62-22 72 6 56 16C46 0 36-10 24-16ZM-28-32C-62-22-72 6-56 16C-46 0-36-10-24-16Z';
/** Sitting rabbit facing right, about 200 x 230, origin at its feet. */
function rabbit(fill, inner, eye) {
  return (
    `<g fill="${fill}"><ellipse cx="-30" cy="-60" rx="70" ry="60"/><circle cx="32" cy="-128" r="38"/><ellipse cx="22" cy="-198" rx="12" ry="46" transform="rotate(-12 22 -198)"/><ellipse cx="48" cy="-194" rx="12" ry="46" transform="rotate(14 48 -194)"/>` +
    `<circle cx="-98" cy="-50" r="18"/><ellipse cx="-50" cy="-6" rx="48" ry="14"/><ellipse cx="22" cy="-8" rx="26" ry="11"/></g>` +
    (inner
      ? `<ellipse cx="22" cy="-196" rx="5" ry="32" transform="rotate(-12 22 -196)" fill="${inner}"/><ellipse cx="48" cy="-192" rx="5" ry="32" transform="rotate(14 48 -192)" fill="${inner}"/>`
      : '') +
    (eye ? `<circle cx="48" cy="-134" r="5" fill="${eye}"/><circle cx="69" cy="-120" r="3.5" fill="${inner}"/>` : '')
  );
}
/** Faceted origami crane, roughly centred on (300, 300). */
function crane(c1, c2, c3, c4) {
  return (
    `<path d="M288 320L430 100L352 332Z" fill="${c3}"/><path d="M288 320L430 100L318 326Z" fill="${c2}" opacity=".7"/><path d="M318 372L352 350L470 196Z" fill="${c2}"/>` +
    `<path d="M248 350L284 372L150 194Z" fill="${c1}"/><path d="M150 194L172 208L118 228Z" fill="${c3}"/>` +
    `<path d="M236 338L300 316L300 392Z" fill="${c2}"/><path d="M300 316L364 338L300 392Z" fill="${c3}"/>` +
    `<path d="M252 332L190 88L326 318Z" fill="${c4}"/><path d="M252 332L190 88L286 326Z" fill="${c1}" opacity=".45"/>`
  );
}
/** Faceted owl, about 260 x 400, centred on x = 300. */
function owl(P, id) {
  const [l1, l2, l3, l4, eye] = P;
  return (
    `<path d="M200 190L214 118L262 176Z" fill="${l3}"/><path d="M400 190L386 118L338 176Z" fill="${l2}"/>` +
    `<path d="M200 190L300 170L300 330L220 320L178 262Z" fill="${l1}"/><path d="M400 190L300 170L300 330L380 320L422 262Z" fill="${l2}"/>` +
    `<path d="M220 320L300 330L300 492L204 428Z" fill="${l2}"/><path d="M380 320L300 330L300 492L396 428Z" fill="${l3}"/>` +
    `<path d="M300 360L262 392L300 440L338 392Z" fill="${l4}" opacity=".7"/><path d="M262 392L238 420L270 436ZM338 392L362 420L330 436Z" fill="${l4}" opacity=".45"/>` +
    `<path d="M220 320L204 428L168 380L178 290Z" fill="${l3}"/><path d="M380 320L396 428L432 380L422 290Z" fill="${l4}"/>` +
    `<circle cx="254" cy="250" r="40" fill="${l4}"/><circle cx="346" cy="250" r="40" fill="${l4}"/><circle cx="254" cy="250" r="27" fill="url(#${id}-eye)"/><circle cx="346" cy="250" r="27" fill="url(#${id}-eye)"/>` +
    `<circle cx="254" cy="252" r="12" fill="#0b1020"/><circle cx="346" cy="252" r="12" fill="#0b1020"/><circle cx="259" cy="245" r="4.5" fill="#fff"/><circle cx="351" cy="245" r="4.5" fill="#fff"/>` +
    `<path d="M300 268L286 290L300 314L314 290Z" fill="${eye}"/><path d="M262 494h76" stroke="${l4}" stroke-width="8" stroke-linecap="round"/>`
  );
}
/** Spread-wing phoenix made of flame feathers; colours from light to deep. */
function phoenix(c, id, cx = 300, cy = 290, s = 1) {
  const feather = (x, y, ang, len, w, fill) =>
    `<path d="M0 0C${f(w)} ${f(-len * 0.3)} ${f(w * 0.8)} ${f(-len * 0.7)} 0 ${f(-len)}C${f(-w * 0.35)} ${f(-len * 0.62)} ${f(-w * 0.55)} ${f(-len * 0.3)} 0 0Z" fill="${fill}" transform="translate(${f(x)} ${f(y)}) rotate(${f(ang)})"/>`;
  let g = '';
  for (const side of [-1, 1]) {
    for (let i = 0; i < 7; i++) {
      const ang = side * (22 + i * 11),
        len = 210 - i * 17;
      g += feather(cx + side * 14, cy - 10, ang, len, 34 - i * 1.5, i % 2 ? `url(#${id}-f2)` : `url(#${id}-f1)`);
    }
  }
  for (let i = -2; i <= 2; i++)
    g += feather(cx + i * 6, cy + 30, 180 + i * 16, 190 - Math.abs(i) * 25, 26, Math.abs(i) % 2 ? `url(#${id}-f1)` : `url(#${id}-f2)`);
  g += `<path d="M${cx} ${cy - 92}C${cx + 26} ${cy - 60} ${cx + 24} ${cy + 20} ${cx} ${cy + 52}C${cx - 24} ${cy + 20} ${cx - 26} ${cy - 60} ${cx} ${cy - 92}Z" fill="${c[0]}"/>`;
  g += `<path d="M${cx} ${cy - 120}c-6-22 4-36 14-44c-2 14 6 20 2 34c10-8 22-6 26-2c-16 2-24 12-30 20z" fill="${c[1]}"/><circle cx="${cx}" cy="${cy - 104}" r="17" fill="${c[0]}"/>`;
  g += `<path d="M${cx + 14} ${cy - 108}l18 6-18 5z" fill="${c[2]}"/><circle cx="${cx + 5}" cy="${cy - 107}" r="3.2" fill="${c[3]}"/>`;
  return s === 1 ? g : `<g transform="translate(${cx} ${cy}) scale(${s}) translate(${-cx} ${-cy})">${g}</g>`;
}

/** The fox's head (Star Fox) as named points, about 300 x 350, centred on x = 300. */
const FOX = {
  A: [170, 110],
  B: [430, 110],
  C: [150, 262],
  D: [450, 262],
  E: [245, 200],
  F: [355, 200],
  G: [300, 218],
  H: [175, 340],
  I: [425, 340],
  J: [245, 300],
  K: [355, 300],
  M: [300, 352],
  N: [300, 452],
};
/** The fox's head in faceted paper: four fur shades (light to deep in any order), two cheek whites, ear and ink colours. */
function foxFacets([o1, o2, o3, o4], [w1, w2], ear = '#7c2d12', ink = '#1c1917') {
  const { A, B, C, D, E, F, G, H, I, J, K, M, N } = FOX;
  const tri = (p, q, s, c) => `<path d="${poly([p, q, s])}" fill="${c}"/>`;
  return (
    tri(A, C, E, o4) +
    tri(B, F, D, o1) +
    tri([180, 150], [232, 204], [162, 240], ear) +
    tri([420, 150], [368, 204], [438, 240], ear) +
    tri(E, G, J, o3) +
    tri(F, G, K, o2) +
    tri(C, E, J, o2) +
    tri(D, F, K, o1) +
    tri(J, G, M, o3) +
    tri(G, K, M, o2) +
    tri(C, J, H, o1) +
    tri(D, K, I, o4) +
    tri(H, J, N, w1) +
    tri(I, K, N, w2) +
    tri(J, M, N, w2) +
    tri(K, M, N, w1) +
    tri([282, 436], [318, 436], [300, 460], ink) +
    `<path d="M232 292q16-14 30 4q-16 8-30-4zM368 292q-16-14-30 4q16 8 30-4z" fill="${ink}"/>`
  );
}
/** The fox's head as a constellation: lines, stars and two warm eyes; `glowId` names a glow filter in defs. */
function foxStars(glowId, line = '#c7d2fe', star = '#fff', eye = '#fdba74', fill = '#fb923c') {
  const { A, B, C, D, E, F, G, H, I, J, K, M, N } = FOX;
  const lines = [
    [A, C],
    [A, E],
    [E, G],
    [G, F],
    [F, B],
    [B, D],
    [C, H],
    [D, I],
    [H, N],
    [I, N],
    [E, J],
    [F, K],
    [J, M],
    [K, M],
    [M, N],
    [C, E],
    [D, F],
  ];
  const stars = [A, B, C, D, E, F, G, H, I, J, K, M, N];
  return (
    `<path d="${poly([A, E, G, F, B, D, I, N, H, C])}" fill="${fill}" opacity=".1"/>` +
    `<path d="${lines.map(([p, q]) => `M${p[0]} ${p[1]}L${q[0]} ${q[1]}`).join('')}" stroke="${line}" stroke-width="2" opacity=".65"/>` +
    `<g filter="url(#${glowId})"><path d="${stars.map(([x, y], i) => spark(x, y, i % 3 ? 9 : 14)).join('')}" fill="${star}"/><path d="${[J, K].map(([x, y]) => `M${x - 6} ${y}a6 6 0 1 0 12 0a6 6 0 1 0 -12 0`).join('')}" fill="${eye}"/></g>`
  );
}
/** Places a drawing made around (300, 280) at (x, y), scaled by s (negative s mirrors it). */
const place = (x, y, s, inner) => `<g transform="translate(${x} ${y}) scale(${s} ${Math.abs(s)}) translate(-300 -280)">${inner}</g>`;
/** The lynx sitting (Frost Lynx), feet near y = 389, centred on x = 300. */
const lynx = (fill) =>
  `<g fill="${fill}"><path d="M240 380C232 320 250 270 300 262C350 270 368 320 360 380Z"/><circle cx="300" cy="232" r="46"/><path d="M262 206L252 150L288 192ZM338 206L348 150L312 192Z"/><path d="M249 154l4-30 4 28zM351 154l-4-30-4 28z"/>` +
  `<path d="M256 240L228 270L262 262ZM344 240L372 270L338 262Z"/><ellipse cx="272" cy="380" rx="22" ry="9"/><ellipse cx="328" cy="380" rx="22" ry="9"/><path d="M356 360q26-6 26 14q-14 4-26-2z"/></g>`;
/** A round paper lantern centred on (x, y), about 100 x 150 at s = 1, with its cord and tassel. */
const paperLantern = (x, y, s, body, trim, rib) =>
  `<g transform="translate(${x} ${y}) scale(${s})"><path d="M0-70V-36" stroke="${trim}" stroke-width="3"/><rect x="-20" y="-44" width="40" height="12" rx="3" fill="${trim}"/><ellipse rx="50" ry="40" fill="${body}"/>` +
  `<path d="M0-40V40M-26-35C-36-12-36 12-26 35M26-35C36-12 36 12 26 35" fill="none" stroke="${rib}" stroke-width="2.5" opacity=".6"/><rect x="-20" y="32" width="40" height="12" rx="3" fill="${trim}"/><path d="M-6 44h12l-3 40h-6z" fill="${trim}"/></g>`;
/** A sky lantern (a glowing paper bag, open at the bottom) centred on (x, y); `glowId` is a radial halo gradient. */
const skyLantern = (x, y, s, glowId, body) =>
  `<g transform="translate(${x} ${y}) scale(${s})"><circle r="90" fill="url(#${glowId})"/><path d="M-30-46h60l-8 86h-44z" fill="${body}"/><path d="M-10-46l-4 86M10-46l4 86" stroke="#fff" stroke-width="2" opacity=".4"/><ellipse cy="40" rx="22" ry="5" fill="#fff7d6"/><circle cy="46" r="6" fill="#fffbeb"/></g>`;
/** A trading card, 240 x 340, centred on the origin: frame, art window with a star, pips. */
const tradingCard = (frame, inner, art, mark) =>
  `<rect x="-120" y="-170" width="240" height="340" rx="20" fill="${frame}"/><rect x="-104" y="-154" width="208" height="308" rx="12" fill="${inner}"/>` +
  `<rect x="-88" y="-138" width="176" height="170" rx="8" fill="${art}"/><path d="${starPts(0, -50, 5, 58, 24)}" fill="${mark}"/>` +
  `<rect x="-88" y="52" width="120" height="12" rx="6" fill="${frame}" opacity=".7"/><rect x="-88" y="76" width="176" height="8" rx="4" fill="${frame}" opacity=".35"/><rect x="-88" y="94" width="140" height="8" rx="4" fill="${frame}" opacity=".35"/>` +
  `<g fill="${mark}"><circle cx="-60" cy="134" r="8"/><circle cx="-34" cy="134" r="8"/><circle cx="-8" cy="134" r="8" opacity=".35"/></g>`;
/** Two arrows chasing each other round a circle of radius R at the origin (trading, swapping). */
function swapArrows(R, w, c1, c2) {
  const pt = (deg, rr = R) => [rr * Math.cos((deg * Math.PI) / 180), rr * Math.sin((deg * Math.PI) / 180)];
  const arc = (a0, a1) => {
    const [x0, y0] = pt(a0),
      [x1, y1] = pt(a1);
    return `M${f(x0)} ${f(y0)}A${R} ${R} 0 0 1 ${f(x1)} ${f(y1)}`;
  };
  const head = (deg, col) => {
    const [x, y] = pt(deg),
      [tx, ty] = pt(deg + 90, 1),
      [nx, ny] = pt(deg, 1);
    return `<path d="${poly([
      [x + tx * w * 1.4, y + ty * w * 1.4],
      [x + nx * w * 1.2, y + ny * w * 1.2],
      [x - nx * w * 1.2, y - ny * w * 1.2],
    ])}" fill="${col}"/>`;
  };
  return `<g fill="none" stroke-width="${w}"><path d="${arc(200, 330)}" stroke="${c1}"/><path d="${arc(20, 150)}" stroke="${c2}"/></g>${head(330, c1)}${head(150, c2)}`;
}
/** An enamel pin at the origin: gold rim, enamel face, a mark (star or heart), radius about 120. */
function enamelPin(face, mark, kind, id) {
  const markPath =
    kind === 'heart' ? 'M0 52C-62 12-70-30-38-48C-18-58 0-42 0-26C0-42 18-58 38-48C70-30 62 12 0 52Z' : starPts(0, 4, 5, 62, 26);
  return (
    `<ellipse cx="10" cy="128" rx="110" ry="16" fill="#000" opacity=".18"/><circle r="124" fill="url(#${id}-gold)"/><circle r="106" fill="${face}"/>` +
    `<path d="M-80-50A106 106 0 0 1 40-98" fill="none" stroke="#fff" stroke-width="10" stroke-linecap="round" opacity=".35"/>` +
    `<path d="${markPath}" fill="url(#${id}-gold)"/><path d="${markPath}" fill="${mark}" transform="scale(.82)"/>`
  );
}
const GOLD = (id) =>
  lin(
    `${id}-gold`,
    [
      [0, '#fef3c7'],
      [0.45, '#f59e0b'],
      [1, '#92400e'],
    ],
    0,
    0,
    1,
    1,
  );

const GOODS = {
  'aurora-dawn': (v, r, id) => {
    const P =
      v === 1
        ? {
            sky: [
              [0, '#020617'],
              [0.55, '#0b2a3c'],
              [1, '#11626a'],
            ],
            bands: ['#5eead4', '#34d399', '#a78bfa'],
            far: '#0c3338',
            near: '#03181a',
          }
        : {
            sky: [
              [0, '#1e1b4b'],
              [0.45, '#6d28d9'],
              [0.8, '#f472b6'],
              [1, '#fdba74'],
            ],
            bands: ['#f0abfc', '#c4b5fd', '#6ee7b7'],
            far: '#3b1d5e',
            near: '#160a28',
          };
    const defs =
      lin(`${id}-sky`, P.sky) +
      P.bands
        .map((b, i) =>
          lin(`${id}-b${i}`, [
            [0, b, 0],
            [0.7, b, 0.4],
            [1, '#f8fafc', 0.85],
          ]),
        )
        .join('') +
      blur(`${id}-bl`, 6) +
      `<pattern id="${id}-st" width="9" height="20" patternUnits="userSpaceOnUse"><rect width="3" height="20" fill="#fff" opacity=".22"/></pattern>`;
    let body = `<rect width="600" height="600" fill="url(#${id}-sky)"/>${field(r, v === 1 ? 70 : 35, 0, 0, 600, 380, 0.6, 1.9, '#fff', v === 1 ? 0.85 : 0.6)}`;
    const spec =
      v === 1
        ? [
            [170, 60, 150],
            [250, 50, 170],
            [320, 30, 120],
          ]
        : [
            [150, 45, 120],
            [220, 60, 150],
            [280, 40, 110],
          ];
    spec.forEach(([y, am, t], i) => {
      const d = curtain(r, y, am, t);
      body += `<path d="${d}" fill="url(#${id}-b${i})" filter="url(#${id}-bl)"/><path d="${d}" fill="url(#${id}-st)" opacity=".6" filter="url(#${id}-bl)"/>`;
    });
    body += `<path d="${peaks(r, 340, 440)}" fill="${P.far}"/>`;
    if (v === 1) {
      body += `<path d="${peaks(r, 420, 500)}" fill="${P.near}"/>`;
    } else {
      let trees = '';
      for (let i = 0; i < 11; i++) {
        const x = 20 + i * 56 + r.range(-14, 14),
          h = r.range(80, 170),
          base = 520,
          w = h * 0.42;
        for (let k = 0; k < 3; k++) {
          const top = base - h + k * h * 0.24,
            bot = top + h * 0.45;
          trees += `M${f(x)} ${f(top)}L${f(x + w * (0.3 + k * 0.1))} ${f(bot)}L${f(x - w * (0.3 + k * 0.1))} ${f(bot)}Z`;
        }
      }
      body += `<path d="${area((x) => 500 + 14 * Math.sin(x / 80))}" fill="${P.near}"/><path d="${trees}" fill="${P.near}"/>`;
    }
    return { defs, body, dark: true };
  },

  'tide-whale': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(`${id}-sea`, [
          [0, '#0e7490'],
          [0.45, '#0c4a6e'],
          [1, '#020617'],
        ]) +
        lin(
          `${id}-wh`,
          [
            [0, '#1e3a5f'],
            [0.6, '#334e73'],
            [1, '#a5b4c8'],
          ],
          0,
          0,
          0.3,
          1,
        ) +
        lin(`${id}-ray`, [
          [0, '#fff', 0.22],
          [1, '#fff', 0],
        ]);
      const rays = [
        [120, 60],
        [250, 45],
        [380, 70],
        [500, 40],
      ]
        .map(([x, w]) => `<path d="M${x} 0h${w}l${w * 2} 600h-${w * 2}z"/>`)
        .join('');
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-sea)"/><g fill="url(#${id}-ray)">${rays}</g>` +
          `${field(r, 24, 30, 300, 540, 260, 1, 3, '#bae6fd', 0.35)}` +
          `<g transform="rotate(-14 300 300)"><path d="M500 250C460 190 320 180 230 230C180 258 150 285 118 312L72 276C80 318 88 336 104 350C88 368 80 392 82 420L126 372C196 362 266 352 336 344C420 334 488 300 500 250Z" fill="url(#${id}-wh)"/>` +
          `<path d="M338 330C326 382 296 420 250 444C300 432 346 396 366 330Z" fill="#2b4566"/><g stroke="#cbd5e1" stroke-width="3" opacity=".45" stroke-linecap="round"><path d="M360 326L470 296M350 334L462 306M340 341L452 314"/></g>` +
          `<circle cx="452" cy="262" r="6" fill="#e2e8f0"/><g fill="#94a3b8" opacity=".7"><circle cx="300" cy="218" r="5"/><circle cx="270" cy="226" r="4"/><circle cx="390" cy="214" r="4"/></g></g>` +
          `<g fill="none" stroke="#e0f2fe" stroke-width="2.5" opacity=".6"><circle cx="520" cy="160" r="10"/><circle cx="536" cy="120" r="7"/><circle cx="526" cy="86" r="5"/><circle cx="544" cy="56" r="4"/></g>`,
      };
    }
    const defs =
      lin(`${id}-sky`, [
        [0, '#4c1d95'],
        [0.5, '#db2777'],
        [1, '#fdba74'],
      ]) +
      lin(`${id}-sea`, [
        [0, '#1e3a8a'],
        [1, '#0f172a'],
      ]) +
      rad(`${id}-sun`, [
        [0, '#fff7ed'],
        [0.5, '#fde68a'],
        [1, '#fde68a', 0],
      ]);
    const fluke = 'M300 446C296 400 294 360 300 320C270 312 226 268 170 266C196 284 232 314 262 340C276 352 286 366 288 446Z';
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-sky)"/><circle cx="300" cy="360" r="190" fill="url(#${id}-sun)"/><circle cx="300" cy="360" r="78" fill="#fff1d6"/>` +
        `<path d="${area((x) => 380 + 3 * Math.sin(x / 40))}" fill="url(#${id}-sea)"/><g fill="#fde68a" opacity=".55">${[0, 1, 2, 3, 4, 5].map((i) => `<rect x="${f(300 - (80 - i * 11))}" y="${394 + i * 16}" width="${f(2 * (80 - i * 11))}" height="4" rx="2"/>`).join('')}</g>` +
        `<g fill="#0b1329"><path d="${fluke}"/><path d="${fluke}" transform="translate(600 0) scale(-1 1)"/></g>` +
        `<path d="M250 446c20-10 80-10 100 0c-20 12-80 12-100 0z" fill="#1e3a8a" stroke="#bfdbfe" stroke-width="2" opacity=".8"/>` +
        `${field(r, 12, 180, 300, 240, 130, 1.5, 3.5, '#e0f2fe', 0.7)}<path d="${area((x) => 520 + 10 * Math.sin(x / 50 + 1))}" fill="#0b1329" opacity=".6"/>`,
    };
  },

  'neon-koi': (v, r, id) => {
    if (v === 1) {
      const defs =
        rad(`${id}-bg`, [
          [0, '#1e1b4b'],
          [1, '#020617'],
        ]) + glow(`${id}-gl`, 7);
      const koi = (x, y, rot, col) =>
        `<g transform="translate(${x} ${y}) rotate(${rot})" filter="url(#${id}-gl)" stroke="${col}" stroke-width="4" stroke-linejoin="round"><path d="${KOI_FINS}" fill="${col}" fill-opacity=".1"/><path d="${KOI_BODY}" fill="${mix(col, '#0f0c29', 0.8)}"/><circle cx="-12" cy="-80" r="3" fill="${col}"/><circle cx="12" cy="-80" r="3" fill="${col}"/></g>`;
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/><g fill="none" stroke="#818cf8" opacity=".35">${[90, 150, 210, 255].map((rr, i) => `<circle cx="300" cy="280" r="${rr}" stroke-width="${2 - i * 0.3}"${i % 2 ? ' stroke-dasharray="4 10"' : ''}/>`).join('')}</g>` +
          `<g fill="#14532d" opacity=".7"><path d="M0 0L52 -14A54 54 0 1 1 44 -30Z" transform="translate(100 110) rotate(20)"/><path d="M0 0L52 -14A54 54 0 1 1 44 -30Z" transform="translate(505 450) rotate(200) scale(.8)"/></g>` +
          koi(395, 282, -12, '#f472b6') +
          koi(205, 278, 168, '#22d3ee') +
          `${field(r, 14, 60, 60, 480, 440, 1, 2.5, '#e0e7ff', 0.6)}`,
      };
    }
    const defs = rad(`${id}-bg`, [
      [0, '#ccfbf1'],
      [0.6, '#5eead4'],
      [1, '#0f766e'],
    ]);
    const koi = (x, y, rot, spot) =>
      `<g transform="translate(${x} ${y}) rotate(${rot})"><path d="${KOI_FINS}" fill="#fff7ed" opacity=".85"/><path d="${KOI_BODY}" fill="#fffbf5"/>` +
      `<g fill="${spot}"><path d="M-18-96C-6-106 14-104 22-92C14-80-8-80-18-96Z"/><ellipse cx="6" cy="-26" rx="18" ry="30"/><ellipse cx="-8" cy="40" rx="11" ry="18"/></g><circle cx="-13" cy="-84" r="3.2" fill="#1f2937"/><circle cx="13" cy="-84" r="3.2" fill="#1f2937"/></g>`;
    const pad = (x, y, s, rot) =>
      `<g transform="translate(${x} ${y}) rotate(${rot}) scale(${s})"><path d="M0 0L52 -14A54 54 0 1 1 44 -30Z" fill="#15803d"/><path d="M0 0L-30 -30M0 0L-36 14M0 0L4 40" stroke="#166534" stroke-width="3"/></g>`;
    return {
      defs,
      dark: false,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><g fill="none" stroke="#ffffff" opacity=".55"><circle cx="300" cy="280" r="120" stroke-width="3"/><circle cx="300" cy="280" r="190" stroke-width="2"/><circle cx="300" cy="280" r="260"/></g>` +
        pad(100, 110, 1.1, 20) +
        pad(510, 440, 0.9, 200) +
        pad(470, 110, 0.6, 120) +
        `<g transform="translate(100 110)">${[0, 72, 144, 216, 288].map((a) => `<path d="M0 0C-14 -22 -10 -42 0 -52C10 -42 14 -22 0 0Z" fill="#f9a8d4" transform="rotate(${a})"/>`).join('')}<circle r="8" fill="#fde047"/></g>` +
        koi(205, 285, 200, '#ea580c') +
        koi(395, 275, 20, '#dc2626'),
    };
  },

  'moon-rabbit': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(`${id}-sky`, [
          [0, '#0b1033'],
          [1, '#312e81'],
        ]) +
        rad(`${id}-moon`, [
          [0, '#fefce8'],
          [0.75, '#fde68a'],
          [1, '#fbbf24'],
        ]) +
        rad(`${id}-halo`, [
          [0.6, '#fde68a', 0.35],
          [1, '#fde68a', 0],
        ]);
      const cloud = (x, y, s, op) =>
        `<path d="M${x} ${y}h${120 * s}a${22 * s} ${22 * s} 0 0 0 -${30 * s} -${30 * s}a${34 * s} ${34 * s} 0 0 0 -${62 * s} -${8 * s}a${26 * s} ${26 * s} 0 0 0 -${28 * s} ${38 * s}z" fill="#c7d2fe" opacity="${op}"/>`;
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-sky)"/>${field(r, 50, 0, 0, 600, 520, 0.6, 1.8, '#fff', 0.8)}` +
          `<circle cx="300" cy="270" r="250" fill="url(#${id}-halo)"/><circle cx="300" cy="270" r="185" fill="url(#${id}-moon)"/><g fill="#eab308" opacity=".22"><circle cx="220" cy="200" r="28"/><circle cx="380" cy="170" r="18"/><circle cx="400" cy="330" r="34"/><circle cx="250" cy="380" r="16"/></g>` +
          `<g transform="translate(270 410)">${rabbit('#1e1b4b')}</g><g fill="#1e1b4b"><path d="M360 370h86c-4 40-22 50-43 50s-39-10-43-50z"/><rect x="384" y="420" width="38" height="10" rx="4"/></g>` +
          `<path d="M318 320L412 362" stroke="#1e1b4b" stroke-width="12" stroke-linecap="round"/><path d="${sparks(r, 5, 360, 300, 90, 60, 4, 9)}" fill="#fff"/>` +
          cloud(70, 470, 1.3, 0.35) +
          cloud(380, 500, 1.2, 0.3),
      };
    }
    const defs =
      lin(`${id}-sky`, [
        [0, '#fbcfe8'],
        [0.6, '#ddd6fe'],
        [1, '#a5b4fc'],
      ]) +
      lin(`${id}-hill`, [
        [0, '#f5f3ff'],
        [1, '#c4b5fd'],
      ]);
    return {
      defs,
      dark: false,
      body:
        `<rect width="600" height="600" fill="url(#${id}-sky)"/><circle cx="430" cy="150" r="150" fill="#fff" opacity=".25"/>` +
        `<path d="M452 50a100 100 0 1 0 70 170a82 82 0 0 1-70-170z" fill="#fffbeb"/><path d="${sparks(r, 12, 30, 30, 540, 300, 4, 10)}" fill="#fff"/>` +
        `<path d="${area((x) => 470 - 60 * Math.exp(-(((x - 260) / 170) ** 2)))}" fill="url(#${id}-hill)"/>` +
        `<g transform="translate(250 445) scale(-0.9 0.9) rotate(-8)">${rabbit('#ffffff', '#f9a8d4', '#4c1d95')}</g>` +
        `${field(r, 10, 40, 480, 520, 60, 2, 4, '#fff', 0.7)}`,
    };
  },

  'jade-dragon': (v, r, id) => {
    const head = (x, y, rot, body, dark, gold) =>
      `<g transform="translate(${x} ${y}) rotate(${rot})"><path d="M-6-20C10-44 20-60 10-78M6-16C30-40 44-48 46-66" fill="none" stroke="${gold}" stroke-width="6" stroke-linecap="round"/>` +
      `<path d="M-18-24C20-34 56-24 82-6L84 6C60 16 30 22-18 24Z" fill="${body}"/><path d="M20 10C40 14 62 12 84 6L80 18C56 26 36 24 20 10Z" fill="${dark}"/><circle cx="34" cy="-8" r="6" fill="${gold}"/><circle cx="35" cy="-8" r="2.5" fill="#111"/>` +
      `<path d="M78 4C110 10 130 40 150 30M74 -2C104 -20 120 -6 146 -24" fill="none" stroke="${gold}" stroke-width="3" stroke-linecap="round"/></g>`;
    if (v === 1) {
      const defs =
        rad(`${id}-bg`, [
          [0, '#065f46'],
          [1, '#022c22'],
        ]) +
        lin(
          `${id}-body`,
          [
            [0, '#6ee7b7'],
            [1, '#047857'],
          ],
          0,
          0,
          1,
          1,
        ) +
        rad(`${id}-pearl`, [
          [0, '#ffffff'],
          [0.6, '#fef3c7'],
          [1, '#f59e0b', 0.2],
        ]) +
        glow(`${id}-gl`, 10);
      const d = 'M110 480C40 380 190 320 250 390S430 480 450 360S300 230 380 150';
      const cloud = (x, y, s) =>
        `<path d="M${x} ${y}c${-30 * s} 0 ${-30 * s} ${-34 * s} 0 ${-34 * s}c${4 * s} ${-24 * s} ${40 * s} ${-24 * s} ${44 * s} 0c${24 * s} ${-6 * s} ${36 * s} ${18 * s} ${18 * s} ${34 * s}z" fill="none" stroke="#fcd34d" stroke-width="4" opacity=".55"/>`;
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/>` +
          cloud(90, 170, 1.4) +
          cloud(470, 520, 1.1) +
          cloud(500, 230, 0.9) +
          `<circle cx="490" cy="110" r="34" fill="url(#${id}-pearl)" filter="url(#${id}-gl)"/>` +
          `<path d="${d}" fill="none" stroke="#064e3b" stroke-width="58" stroke-linecap="round"/><path d="${d}" fill="none" stroke="url(#${id}-body)" stroke-width="48" stroke-linecap="round"/>` +
          `<path d="${d}" fill="none" stroke="#d1fae5" stroke-width="40" stroke-dasharray="3 13" opacity=".45"/><path d="${d}" fill="none" stroke="#fcd34d" stroke-width="3" stroke-dasharray="14 10" opacity=".8"/>` +
          head(380, 150, -40, '#34d399', '#047857', '#fcd34d') +
          `${field(r, 16, 30, 30, 540, 500, 1, 2.5, '#a7f3d0', 0.5)}`,
      };
    }
    const defs =
      rad(`${id}-bg`, [
        [0, '#ecfdf5'],
        [1, '#6ee7b7'],
      ]) +
      lin(
        `${id}-body`,
        [
          [0, '#fde68a'],
          [1, '#b45309'],
        ],
        0,
        0,
        1,
        1,
      ) +
      rad(`${id}-pearl`, [
        [0, '#ffffff'],
        [0.7, '#a7f3d0'],
        [1, '#10b981'],
      ]);
    const pts = [];
    for (let i = 0; i <= 34; i++) {
      const t = -100 + i * 10.6,
        rr = 190 - i * 2.6,
        a = (t * Math.PI) / 180;
      pts.push([300 + rr * Math.cos(a), 280 + rr * Math.sin(a)]);
    }
    const d = 'M' + pts.map(([x, y]) => `${f(x)} ${f(y)}`).join('L');
    const [ex, ey] = pts[pts.length - 1],
      [px, py] = pts[pts.length - 2];
    const rot = f((Math.atan2(ey - py, ex - px) * 180) / Math.PI);
    return {
      defs,
      dark: false,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="300" cy="280" r="236" fill="none" stroke="#047857" stroke-width="2" stroke-dasharray="2 8" opacity=".6"/>` +
        `<circle cx="300" cy="280" r="46" fill="url(#${id}-pearl)"/><circle cx="286" cy="266" r="10" fill="#fff" opacity=".8"/>` +
        `<path d="${d}" fill="none" stroke="#78350f" stroke-width="46" stroke-linecap="round" stroke-linejoin="round"/><path d="${d}" fill="none" stroke="url(#${id}-body)" stroke-width="38" stroke-linecap="round" stroke-linejoin="round"/>` +
        `<path d="${d}" fill="none" stroke="#fffbeb" stroke-width="30" stroke-dasharray="3 11" opacity=".5"/><path d="${d}" fill="none" stroke="#047857" stroke-width="3" stroke-dasharray="12 9"/>` +
        head(f(ex), f(ey), rot, '#fbbf24', '#b45309', '#047857'),
    };
  },

  'star-fox': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(`${id}-sky`, [
          [0, '#020617'],
          [1, '#1e1b4b'],
        ]) +
        rad(`${id}-mw`, [
          [0, '#818cf8', 0.35],
          [1, '#818cf8', 0],
        ]) +
        glow(`${id}-gl`, 4);
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-sky)"/><ellipse cx="300" cy="300" rx="420" ry="110" transform="rotate(-32 300 300)" fill="url(#${id}-mw)"/>` +
          `${field(r, 80, 0, 0, 600, 600, 0.5, 1.6, '#fff', 0.7)}${foxStars(`${id}-gl`)}`,
      };
    }
    const defs = lin(
      `${id}-bg`,
      [
        [0, '#fef3c7'],
        [1, '#fdba74'],
      ],
      0,
      0,
      1,
      1,
    );
    return {
      defs,
      dark: false,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="300" cy="290" r="230" fill="#fff" opacity=".35"/><path d="${sparks(r, 8, 20, 20, 560, 480, 5, 10)}" fill="#fff"/>` +
        foxFacets(['#ea580c', '#f97316', '#fb923c', '#c2410c'], ['#fff7ed', '#fde7d3']),
    };
  },

  'aurora-mystery-box': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(`${id}-sky`, [
          [0, '#020617'],
          [1, '#134e4a'],
        ]) +
        ['#5eead4', '#a78bfa']
          .map((b, i) =>
            lin(`${id}-b${i}`, [
              [0, b, 0],
              [0.7, b, 0.35],
              [1, '#f0fdfa', 0.8],
            ]),
          )
          .join('') +
        blur(`${id}-bl`, 8) +
        lin(`${id}-box`, [
          [0, '#14b8a6'],
          [1, '#0f766e'],
        ]) +
        lin(`${id}-lid`, [
          [0, '#5eead4'],
          [1, '#14b8a6'],
        ]) +
        rad(`${id}-gl`, [
          [0, '#5eead4', 0.6],
          [1, '#5eead4', 0],
        ]);
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-sky)"/>${field(r, 45, 0, 0, 600, 300, 0.6, 1.7, '#fff', 0.8)}` +
          `<path d="${curtain(r, 150, 40, 120)}" fill="url(#${id}-b0)" filter="url(#${id}-bl)"/><path d="${curtain(r, 210, 30, 90)}" fill="url(#${id}-b1)" filter="url(#${id}-bl)"/>` +
          `<ellipse cx="300" cy="476" rx="220" ry="40" fill="url(#${id}-gl)"/>` +
          `<rect x="170" y="272" width="260" height="200" rx="10" fill="url(#${id}-box)"/><rect x="150" y="222" width="300" height="62" rx="10" fill="url(#${id}-lid)"/><rect x="150" y="276" width="300" height="8" fill="#0f766e" opacity=".4"/>` +
          `<rect x="281" y="222" width="38" height="250" fill="#fbbf24"/><rect x="170" y="350" width="260" height="36" fill="#fbbf24"/>` +
          `<path d="M300 222C268 168 200 170 222 210C232 226 270 228 300 222ZM300 222C332 168 400 170 378 210C368 226 330 228 300 222Z" fill="#fcd34d" stroke="#d97706" stroke-width="3"/><circle cx="300" cy="220" r="14" fill="#f59e0b"/>` +
          `<circle cx="300" cy="368" r="44" fill="#fffbeb" stroke="#d97706" stroke-width="4"/>` +
          text(300, 390, 62, '?', `text-anchor="middle" font-weight="800" fill="#0f766e"`) +
          `<path d="${sparks(r, 9, 60, 180, 480, 300, 5, 12)}" fill="#fff"/>`,
      };
    }
    const defs =
      lin(`${id}-bg`, [
        [0, '#312e81'],
        [1, '#831843'],
      ]) +
      lin(`${id}-beam`, [
        [0, '#fdf4ff', 0],
        [1, '#fdf4ff', 0.75],
      ]) +
      glow(`${id}-gl`, 8);
    const T = [
      [170, 330],
      [300, 265],
      [430, 330],
      [300, 395],
    ];
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/>${field(r, 40, 0, 0, 600, 520, 0.6, 2, '#fff', 0.7)}` +
        `<path d="M170 330L60 30H540L430 330L300 395Z" fill="url(#${id}-beam)" opacity=".6"/>` +
        `<path d="${poly([
          [170, 330],
          [300, 395],
          [300, 520],
          [170, 455],
        ])}" fill="#c026d3"/><path d="${poly([
          [430, 330],
          [300, 395],
          [300, 520],
          [430, 455],
        ])}" fill="#86198f"/><path d="${poly(T)}" fill="#fdf4ff" opacity=".9"/>` +
        `<path d="${poly([
          [222, 356],
          [248, 369],
          [248, 494],
          [222, 481],
        ])}" fill="#fde047"/><path d="${poly([
          [378, 356],
          [352, 369],
          [352, 494],
          [378, 481],
        ])}" fill="#eab308"/>` +
        `<g transform="translate(300 150) rotate(-14)"><path d="${poly([
          [-140, 0],
          [0, -68],
          [140, 0],
          [0, 68],
        ])}" fill="#e879f9"/><path d="${poly([
          [-140, 0],
          [0, 68],
          [0, 92],
          [-140, 24],
        ])}" fill="#a21caf"/><path d="${poly([
          [140, 0],
          [0, 68],
          [0, 92],
          [140, 24],
        ])}" fill="#701a75"/><path d="${poly([
          [-30, -53],
          [110, 15],
          [84, 28],
          [-56, -40],
        ])}" fill="#fde047"/></g>` +
        `<g filter="url(#${id}-gl)">${text(300, 330, 120, '?', `text-anchor="middle" font-weight="800" fill="#ffffff"`)}</g><path d="${sparks(r, 10, 80, 40, 440, 300, 5, 12)}" fill="#fff"/>`,
    };
  },

  'lantern-festival': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(`${id}-sky`, [
          [0, '#0f0a2e'],
          [0.55, '#3b0764'],
          [1, '#9a3412'],
        ]) +
        lin(`${id}-w`, [
          [0, '#1e1038'],
          [1, '#05030f'],
        ]) +
        rad(`${id}-l`, [
          [0, '#fffbeb'],
          [0.5, '#fcd34d'],
          [1, '#ea580c'],
        ]) +
        rad(`${id}-h`, [
          [0, '#fbbf24', 0.5],
          [1, '#fbbf24', 0],
        ]) +
        blur(`${id}-bl`, 3);
      let lanterns = '',
        refl = '';
      const list = Array.from({ length: 15 }, () => {
        const y = r.range(40, 380);
        return [r.range(40, 560), y, 8 + (y / 380) * 20];
      }).sort((a, b) => a[2] - b[2]);
      for (const [x, y, s] of list) {
        lanterns += `<circle cx="${f(x)}" cy="${f(y)}" r="${f(s * 2.6)}" fill="url(#${id}-h)"/><path d="M${f(x - s * 0.75)} ${f(y - s)}h${f(s * 1.5)}l${f(-s * 0.2)} ${f(s * 2)}h${f(-s * 1.1)}z" fill="url(#${id}-l)"/>`;
        if (s > 14)
          refl += `<rect x="${f(x - s * 0.5)}" y="${f(420 + (420 - y) * 0.12)}" width="${f(s)}" height="${f(s * 2.5)}" rx="${f(s * 0.5)}" fill="#fbbf24" opacity=".5"/>`;
      }
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-sky)"/>${field(r, 40, 0, 0, 600, 260, 0.5, 1.5, '#fff', 0.6)}` +
          `<path d="M0 420V392l40-6 10-30h16l8 24 40-4 20-28 24 26 60-8 14-40h12l16 46 70 2 30-22 40 14 60-10 24-30 20 30 60 8v36z" fill="#12081f"/>` +
          `<rect y="420" width="600" height="180" fill="url(#${id}-w)"/><g filter="url(#${id}-bl)">${refl}</g><g stroke="#fcd34d" stroke-width="2" opacity=".3"><path d="M80 470h90M300 500h130M200 540h80M420 456h60"/></g>${lanterns}`,
      };
    }
    const defs =
      lin(`${id}-bg`, [
        [0, '#fff7ed'],
        [1, '#fed7aa'],
      ]) +
      lin(
        `${id}-lan`,
        [
          [0, '#ef4444'],
          [0.5, '#dc2626'],
          [1, '#991b1b'],
        ],
        0,
        0,
        1,
        0,
      );
    const lantern = (x, y, s) =>
      `<g transform="translate(${x} ${y}) scale(${s})"><path d="M0-60V-36" stroke="#78350f" stroke-width="3"/><rect x="-20" y="-40" width="40" height="10" rx="3" fill="#f59e0b"/><ellipse cx="0" cy="0" rx="48" ry="38" fill="url(#${id}-lan)"/>` +
      `<path d="M0-38V38M-24-33C-34-10-34 10-24 33M24-33C34-10 34 10 24 33" fill="none" stroke="#7f1d1d" stroke-width="2" opacity=".6"/><rect x="-20" y="30" width="40" height="10" rx="3" fill="#f59e0b"/><path d="M-6 40h12l-2 34h-8z" fill="#fbbf24"/></g>`;
    const string1 = [
      [80, 120],
      [200, 150],
      [320, 160],
      [440, 148],
      [560, 118],
    ];
    const string2 = [
      [40, 300],
      [170, 330],
      [300, 338],
      [430, 330],
      [560, 300],
    ];
    return {
      defs,
      dark: false,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="300" cy="600" r="260" fill="#fdba74" opacity=".35"/>` +
        `<path d="M-10 90Q300 210 610 90M-10 270Q300 380 610 270" fill="none" stroke="#78350f" stroke-width="3"/>` +
        string1.map(([x, y], i) => lantern(x, y + 40, i % 2 ? 0.85 : 1.05)).join('') +
        string2.map(([x, y], i) => lantern(x, y + 40, i % 2 ? 1.1 : 0.8)).join('') +
        `<path d="${sparks(r, 10, 20, 20, 560, 480, 4, 8)}" fill="#f59e0b" opacity=".8"/>`,
    };
  },

  'paper-crane': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(
          `${id}-bg`,
          [
            [0, '#e0f2fe'],
            [1, '#fce7f3'],
          ],
          0,
          0,
          1,
          1,
        ) +
        rad(`${id}-sh`, [
          [0, '#64748b', 0.35],
          [1, '#64748b', 0],
        ]);
      return {
        defs,
        dark: false,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="420" cy="200" r="150" fill="#fecdd3" opacity=".7"/>` +
          `<g fill="none" stroke="#94a3b8" stroke-width="1.5" opacity=".5"><path d="M0 120L600 420M0 420L600 120M300 0V600"/></g>` +
          `<ellipse cx="300" cy="470" rx="170" ry="20" fill="url(#${id}-sh)"/>${crane('#fb7185', '#e11d48', '#be123c', '#fda4af')}`,
      };
    }
    const defs = lin(
      `${id}-bg`,
      [
        [0, '#1e1b4b'],
        [1, '#0f766e'],
      ],
      0,
      0,
      1,
      1,
    );
    const cols = [
      ['#fde68a', '#f59e0b', '#b45309', '#fef3c7'],
      ['#c7d2fe', '#6366f1', '#4338ca', '#e0e7ff'],
      ['#fecaca', '#ef4444', '#b91c1c', '#fee2e2'],
      ['#a7f3d0', '#10b981', '#047857', '#d1fae5'],
    ];
    const flock = [
      [300, 270, 0.78, 0],
      [130, 130, 0.34, 1],
      [470, 120, 0.4, 2],
      [110, 420, 0.3, 3],
      [480, 400, 0.36, 1],
      [300, 80, 0.22, 3],
    ];
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="300" cy="280" r="200" fill="#fde68a" opacity=".12"/><circle cx="300" cy="280" r="130" fill="#fde68a" opacity=".12"/>` +
        `${field(r, 30, 0, 0, 600, 520, 0.6, 1.6, '#fff', 0.6)}` +
        flock
          .map(([x, y, s, c]) => `<g transform="translate(${x} ${y}) scale(${s}) translate(-300 -300)">${crane(...cols[c])}</g>`)
          .join(''),
    };
  },

  'crystal-owl': (v, r, id) => {
    if (v === 1) {
      const defs =
        rad(
          `${id}-bg`,
          [
            [0, '#1e3a8a'],
            [1, '#0b1020'],
          ],
          0.5,
          0.4,
          0.7,
        ) +
        rad(`${id}-eye`, [
          [0, '#fef9c3'],
          [1, '#22d3ee'],
        ]) +
        blur(`${id}-bl`, 20);
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="300" cy="300" r="170" fill="#38bdf8" opacity=".25" filter="url(#${id}-bl)"/>` +
          `<path d="${sparks(r, 14, 30, 30, 540, 460, 4, 10)}" fill="#e0f2fe" opacity=".85"/>` +
          owl(['#bae6fd', '#7dd3fc', '#38bdf8', '#0ea5e9', '#fef3c7'], id) +
          `<path d="M200 190L300 170L262 176ZM400 190L338 176L300 170Z" fill="#fff" opacity=".5"/><path d="M220 320L300 330L250 350Z" fill="#fff" opacity=".25"/>`,
      };
    }
    const defs =
      lin(`${id}-bg`, [
        [0, '#f5f3ff'],
        [1, '#c4b5fd'],
      ]) +
      rad(`${id}-eye`, [
        [0, '#fef3c7'],
        [1, '#f59e0b'],
      ]);
    return {
      defs,
      dark: false,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="470" cy="120" r="70" fill="#fffbeb"/><circle cx="470" cy="120" r="95" fill="#fffbeb" opacity=".35"/>` +
        `<path d="${sparks(r, 10, 30, 30, 540, 300, 4, 9)}" fill="#fff"/><path d="M40 500C200 476 420 500 570 470" fill="none" stroke="#4c1d95" stroke-width="18" stroke-linecap="round"/><path d="M470 478c20-20 50-24 70-14c-20 10-40 14-70 14z" fill="#6d28d9"/>` +
        `<g transform="translate(300 480) scale(.92) translate(-300 -494)">${owl(['#e9d5ff', '#c084fc', '#a855f7', '#7e22ce', '#f59e0b'], id)}</g>`,
    };
  },

  'ember-phoenix': (v, r, id) => {
    if (v === 1) {
      const defs =
        rad(
          `${id}-bg`,
          [
            [0, '#7c2d12'],
            [0.6, '#431407'],
            [1, '#1c0a00'],
          ],
          0.5,
          0.45,
          0.7,
        ) +
        lin(`${id}-f1`, [
          [0, '#dc2626'],
          [0.5, '#f97316'],
          [1, '#fde047'],
        ]) +
        lin(`${id}-f2`, [
          [0, '#b91c1c'],
          [1, '#fb923c'],
        ]) +
        blur(`${id}-bl`, 1.2);
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="300" cy="280" r="200" fill="#f97316" opacity=".12"/>` +
          phoenix(['#fde047', '#f97316', '#fef08a', '#7c2d12'], id) +
          `<g filter="url(#${id}-bl)">${field(r, 40, 40, 40, 520, 480, 1, 3.5, '#fdba74')}</g>`,
      };
    }
    const defs =
      lin(`${id}-bg`, [
        [0, '#0b1033'],
        [1, '#1e1b4b'],
      ]) +
      lin(`${id}-f1`, [
        [0, '#7e22ce'],
        [0.5, '#6366f1'],
        [1, '#a5f3fc'],
      ]) +
      lin(`${id}-f2`, [
        [0, '#581c87'],
        [1, '#818cf8'],
      ]) +
      rad(`${id}-gl`, [
        [0, '#a5f3fc', 0.35],
        [1, '#a5f3fc', 0],
      ]);
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="300" cy="280" r="240" fill="url(#${id}-gl)"/>` +
        `<circle cx="300" cy="280" r="236" fill="none" stroke="#a5b4fc" stroke-width="2" opacity=".5"/><circle cx="300" cy="280" r="222" fill="none" stroke="#a5b4fc" stroke-width="1" stroke-dasharray="2 7" opacity=".6"/>` +
        phoenix(['#e0f2fe', '#a78bfa', '#fde68a', '#1e1b4b'], id, 300, 300, 0.88) +
        `<path d="${sparks(r, 12, 40, 40, 520, 460, 3, 8)}" fill="#e0f2fe"/>`,
    };
  },

  'frost-lynx': (v, r, id) => {
    const flake = (x, y, s) =>
      `<g transform="translate(${f(x)} ${f(y)}) scale(${f(s)})"><path d="M0-10V10M-8.7-5L8.7 5M-8.7 5L8.7-5M-3-7L0-4 3-7M-3 7L0 4 3 7"/></g>`;
    if (v === 1) {
      const defs =
        lin(`${id}-bg`, [
          [0, '#f0f9ff'],
          [1, '#7dd3fc'],
        ]) +
        rad(`${id}-eye`, [
          [0, '#fef9c3'],
          [1, '#eab308'],
        ]);
      const c = { a: '#e0f2fe', b: '#bae6fd', c: '#7dd3fc', d: '#38bdf8', e: '#0c4a6e', w: '#ffffff' };
      const t = (pts, col) => `<path d="${poly(pts)}" fill="${col}"/>`;
      let ruff = '';
      for (const s of [-1, 1])
        for (let i = 0; i < 4; i++)
          ruff += t(
            [
              [300 + s * (120 + i * 8), 260 + i * 40],
              [300 + s * (175 + i * 4), 300 + i * 40],
              [300 + s * (118 + i * 6), 300 + i * 40],
            ],
            i % 2 ? c.b : c.a,
          );
      return {
        defs,
        dark: false,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/><g stroke="#fff" stroke-width="2" stroke-linecap="round" fill="none" opacity=".9">${Array.from({ length: 14 }, () => flake(r.range(20, 580), r.range(20, 520), r.range(0.7, 1.8))).join('')}</g>` +
          ruff +
          t(
            [
              [190, 96],
              [168, 226],
              [246, 192],
            ],
            c.c,
          ) +
          t(
            [
              [410, 96],
              [432, 226],
              [354, 192],
            ],
            c.d,
          ) +
          `<path d="M190 96V50M410 96V50" stroke="${c.e}" stroke-width="7" stroke-linecap="round"/>` +
          t(
            [
              [192, 124],
              [182, 210],
              [232, 190],
            ],
            c.e,
          ) +
          t(
            [
              [408, 124],
              [418, 210],
              [368, 190],
            ],
            c.e,
          ) +
          t(
            [
              [168, 226],
              [246, 192],
              [300, 206],
              [300, 300],
              [180, 320],
            ],
            c.b,
          ) +
          t(
            [
              [432, 226],
              [354, 192],
              [300, 206],
              [300, 300],
              [420, 320],
            ],
            c.c,
          ) +
          t(
            [
              [180, 320],
              [300, 300],
              [300, 430],
              [210, 400],
            ],
            c.a,
          ) +
          t(
            [
              [420, 320],
              [300, 300],
              [300, 430],
              [390, 400],
            ],
            c.b,
          ) +
          t(
            [
              [300, 300],
              [262, 346],
              [300, 372],
              [338, 346],
            ],
            c.w,
          ) +
          `<path d="M228 272q22-24 46 0q-24 14-46 0zM372 272q-22-24-46 0q24 14 46 0z" fill="url(#${id}-eye)" stroke="${c.e}" stroke-width="3"/><path d="M250 262v20M350 262v20" stroke="${c.e}" stroke-width="5" stroke-linecap="round"/>` +
          `<path d="M284 332h32l-16 16z" fill="${c.e}"/><path d="M300 348v18M300 366q-14 12-28 4M300 366q14 12 28 4" fill="none" stroke="${c.e}" stroke-width="3" stroke-linecap="round"/>`,
      };
    }
    const defs =
      lin(`${id}-bg`, [
        [0, '#0b1033'],
        [1, '#1e3a8a'],
      ]) +
      rad(`${id}-moon`, [
        [0, '#f8fafc'],
        [1, '#cbd5e1'],
      ]);
    const L = '#0b1226';
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/>${field(r, 50, 0, 0, 600, 420, 0.5, 1.6, '#fff', 0.8)}` +
        `<circle cx="300" cy="250" r="170" fill="url(#${id}-moon)"/><circle cx="300" cy="250" r="200" fill="#e2e8f0" opacity=".1"/>` +
        `<path d="${area((x) => 420 - 50 * Math.exp(-(((x - 300) / 150) ** 2)))}" fill="#e0f2fe"/><path d="${area((x) => 470 + 12 * Math.sin(x / 60))}" fill="#bae6fd"/>` +
        lynx(L) +
        `<g fill="none" stroke="#e0f2fe" stroke-width="2" stroke-linecap="round" opacity=".8">${Array.from({ length: 10 }, () => flake(r.range(20, 580), r.range(20, 500), r.range(0.6, 1.3))).join('')}</g>`,
    };
  },

  'lumen-sunrise': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(`${id}-sky`, [
          [0, '#fef3c7'],
          [1, '#fdba74'],
        ]) +
        rad(`${id}-sun`, [
          [0, '#fffbeb'],
          [0.55, '#fde047'],
          [1, '#fde047', 0],
        ]);
      const layers = ['#fbbf24', '#f59e0b', '#d97706', '#b45309', '#78350f'];
      const rays = Array.from({ length: 16 }, (_, i) => {
        const t = Math.PI + (i / 15) * Math.PI,
          w = 0.045;
        return `M300 330L${f(300 + 700 * Math.cos(t - w))} ${f(330 + 700 * Math.sin(t - w))}L${f(300 + 700 * Math.cos(t + w))} ${f(330 + 700 * Math.sin(t + w))}Z`;
      }).join('');
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-sky)"/><path d="${rays}" fill="#fff" opacity=".3"/><circle cx="300" cy="330" r="200" fill="url(#${id}-sun)"/><circle cx="300" cy="330" r="84" fill="#fffbeb"/>` +
          layers
            .map((c, i) => {
              const ph = r() * 6,
                am = 26 - i * 3;
              return `<path d="${area((x) => 340 + i * 48 + am * Math.sin(x / (90 + i * 20) + ph))}" fill="${c}"/>`;
            })
            .join('') +
          `<path d="M120 150q10-10 20 0q10-10 20 0M180 118q7-7 14 0q7-7 14 0M440 170q8-8 16 0q8-8 16 0" fill="none" stroke="#78350f" stroke-width="3" stroke-linecap="round"/>`,
      };
    }
    const defs =
      lin(`${id}-sky`, [
        [0, '#451a03'],
        [0.55, '#b45309'],
        [1, '#fcd34d'],
      ]) +
      lin(`${id}-sun`, [
        [0, '#fef3c7'],
        [1, '#f97316'],
      ]) +
      lin(`${id}-sea`, [
        [0, '#78350f'],
        [1, '#1c0a00'],
      ]) +
      `<clipPath id="${id}-cut">${[0, 1, 2, 3, 4, 5].map((i) => `<rect x="0" y="${100 + i * 42 - (i > 2 ? (i - 2) * 6 : 0)}" width="600" height="${i > 2 ? 42 - (i - 2) * 8 : 42}"/>`).join('')}<rect y="0" width="600" height="100"/></clipPath>`;
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-sky)"/>${field(r, 25, 0, 0, 600, 200, 0.5, 1.4, '#fff', 0.5)}` +
        `<circle cx="300" cy="340" r="190" fill="url(#${id}-sun)" clip-path="url(#${id}-cut)"/><rect y="340" width="600" height="260" fill="url(#${id}-sea)"/>` +
        `<g fill="#fcd34d">${Array.from({ length: 9 }, (_, i) => {
          const w = 300 - i * 28 + r.range(-12, 12);
          return `<rect x="${f(300 - w / 2 + r.range(-20, 20))}" y="${352 + i * 20}" width="${f(w)}" height="${f(6 - i * 0.4)}" rx="3" opacity="${f(0.85 - i * 0.07)}"/>`;
        }).join('')}</g>` +
        `<path d="M90 120q12-12 24 0q12-12 24 0M160 90q8-8 16 0q8-8 16 0M430 140q10-10 20 0q10-10 20 0" fill="none" stroke="#1c0a00" stroke-width="3" stroke-linecap="round"/>`,
    };
  },

  'lumen-candle': (v, r, id) => {
    const flame = (x, y, s) =>
      `<g transform="translate(${x} ${y}) scale(${s})"><circle cy="-30" r="90" fill="url(#${id}-halo)"/><path d="M0-78C16-52 24-32 20-14A20 20 0 0 1-20-14C-24-32-14-52 0-78Z" fill="url(#${id}-fl)"/><path d="M0-40C7-30 10-22 8-14A8 8 0 0 1-8-14C-10-22-6-30 0-40Z" fill="#fffbeb"/><path d="M0 0V-12" stroke="#292524" stroke-width="3"/></g>`;
    const candle = (x, top, w, col, shade) =>
      `<rect x="${x - w / 2}" y="${top}" width="${w}" height="${500 - top}" fill="url(#${id}-wax)"/><ellipse cx="${x}" cy="${top}" rx="${w / 2}" ry="${w * 0.14}" fill="${col}"/>` +
      `<path d="M${x - w / 2} ${top}c0 ${w * 0.4} ${w * 0.16} ${w * 0.4} ${w * 0.16} ${w * 0.9}s${w * 0.12} 0 ${w * 0.12}-${w * 0.6}s${w * 0.1}-${w * 0.2} ${w * 0.2} 0" fill="${col}"/><ellipse cx="${x}" cy="${top}" rx="${w / 2 - 6}" ry="${w * 0.1}" fill="${shade}" opacity=".35"/>`;
    const defs =
      rad(`${id}-halo`, [
        [0, '#fde68a', 0.55],
        [0.4, '#f59e0b', 0.18],
        [1, '#f59e0b', 0],
      ]) +
      lin(
        `${id}-fl`,
        [
          [0, '#fef3c7'],
          [0.6, '#fbbf24'],
          [1, '#ea580c'],
        ],
        0,
        1,
        0,
        0,
      );
    if (v === 1) {
      return {
        dark: true,
        defs:
          defs +
          rad(
            `${id}-bg`,
            [
              [0, '#44403c'],
              [1, '#0c0a09'],
            ],
            0.5,
            0.35,
            0.75,
          ) +
          lin(
            `${id}-wax`,
            [
              [0, '#fef3c7'],
              [0.6, '#fde68a'],
              [1, '#d6b56a'],
            ],
            0,
            0,
            1,
            0,
          ),
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="300" cy="190" r="260" fill="#f59e0b" opacity=".07"/><ellipse cx="300" cy="500" rx="210" ry="26" fill="#fbbf24" opacity=".16"/>` +
          candle(300, 260, 110, '#fef3c7', '#b45309') +
          flame(300, 254, 1.25) +
          `<rect x="80" y="500" width="440" height="6" rx="3" fill="#78716c" opacity=".5"/>${field(r, 12, 120, 60, 360, 180, 0.8, 2, '#fde68a', 0.6)}`,
      };
    }
    return {
      dark: true,
      defs:
        defs +
        lin(`${id}-bg`, [
          [0, '#2e1065'],
          [1, '#581c87'],
        ]) +
        lin(
          `${id}-wax`,
          [
            [0, '#fecdd3'],
            [0.6, '#fda4af'],
            [1, '#e11d48'],
          ],
          0,
          0,
          1,
          0,
        ),
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/>${field(r, 30, 0, 0, 600, 300, 0.5, 1.5, '#fff', 0.5)}<ellipse cx="300" cy="500" rx="250" ry="30" fill="#fbbf24" opacity=".14"/>` +
        candle(190, 360, 80, '#ffe4e6', '#9f1239') +
        candle(300, 280, 90, '#ffe4e6', '#9f1239') +
        candle(410, 330, 80, '#ffe4e6', '#9f1239') +
        flame(190, 355, 0.85) +
        flame(300, 274, 1) +
        flame(410, 325, 0.85) +
        `<rect x="60" y="500" width="480" height="100" fill="#1e0b3a"/>`,
    };
  },

  'lumen-prism': (v, r, id) => {
    const spectrum = ['#ef4444', '#f97316', '#facc15', '#22c55e', '#06b6d4', '#3b82f6', '#8b5cf6'];
    if (v === 1) {
      const defs =
        lin(
          `${id}-bg`,
          [
            [0, '#0f172a'],
            [1, '#1e1b4b'],
          ],
          0,
          0,
          1,
          1,
        ) +
        lin(
          `${id}-gl`,
          [
            [0, '#e0f2fe', 0.55],
            [1, '#a5b4fc', 0.15],
          ],
          0,
          0,
          1,
          1,
        ) +
        glow(`${id}-g`, 5);
      const fan = spectrum
        .map((c, i) => `<path d="M372 300L610 ${f(190 + i * 34)}L610 ${f(224 + i * 34)}Z" fill="${c}" opacity=".85"/>`)
        .join('');
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/>${field(r, 30, 0, 0, 600, 520, 0.5, 1.4, '#fff', 0.5)}` +
          `<path d="M0 360L262 290" stroke="#fff" stroke-width="8" filter="url(#${id}-g)"/>${fan}` +
          `<path d="M300 150L420 390H180Z" fill="url(#${id}-gl)" stroke="#e0f2fe" stroke-width="3" stroke-linejoin="round"/><path d="M300 150L330 390H270Z" fill="#fff" opacity=".12"/>` +
          `<path d="M262 290L372 300" stroke="#fff" stroke-width="4" opacity=".7"/>`,
      };
    }
    const defs =
      rad(`${id}-bg`, [
        [0, '#ffffff'],
        [1, '#fbf6ec'],
      ]) +
      lin(
        `${id}-c1`,
        [
          [0, '#e0f2fe'],
          [1, '#c7d2fe'],
        ],
        0,
        0,
        1,
        1,
      );
    const rays = spectrum
      .map((c, i) => {
        const t = (i / 7) * Math.PI * 2 - Math.PI / 2 + 0.2;
        return `<path d="M300 280L${f(300 + 400 * Math.cos(t - 0.11))} ${f(280 + 400 * Math.sin(t - 0.11))}L${f(300 + 400 * Math.cos(t + 0.11))} ${f(280 + 400 * Math.sin(t + 0.11))}Z" fill="${c}" opacity=".22"/>`;
      })
      .join('');
    const hex6 = (rr) =>
      poly(
        Array.from({ length: 6 }, (_, i) => [
          300 + rr * Math.cos((i * Math.PI) / 3 - Math.PI / 2),
          280 + rr * Math.sin((i * Math.PI) / 3 - Math.PI / 2),
        ]),
      );
    const facets = Array.from({ length: 6 }, (_, i) => {
      const a0 = (i * Math.PI) / 3 - Math.PI / 2,
        a1 = a0 + Math.PI / 3;
      return `<path d="${poly([
        [300, 280],
        [300 + 130 * Math.cos(a0), 280 + 130 * Math.sin(a0)],
        [300 + 130 * Math.cos(a1), 280 + 130 * Math.sin(a1)],
      ])}" fill="${spectrum[i + 1]}" opacity="${0.12 + (i % 3) * 0.08}"/>`;
    }).join('');
    return {
      defs,
      dark: false,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/>${rays}<path d="${hex6(130)}" fill="url(#${id}-c1)" stroke="#6366f1" stroke-width="3" stroke-linejoin="round"/>${facets}` +
        `<path d="${hex6(62)}" fill="#fff" opacity=".7"/><path d="M300 150V410M187.4 215L412.6 345M187.4 345L412.6 215" stroke="#6366f1" stroke-width="1.5" opacity=".45"/><path d="${sparks(r, 7, 60, 60, 480, 400, 5, 11)}" fill="#f59e0b"/>`,
    };
  },

  'dark-nebula': (v, r, id) => {
    const cols = v === 1 ? ['#c026d3', '#7c3aed', '#22d3ee', '#f472b6'] : ['#14b8a6', '#f59e0b', '#0ea5e9', '#fde68a'];
    const defs =
      rad(`${id}-bg`, [
        [0, v === 1 ? '#1e1b4b' : '#0c1a2a'],
        [1, '#02030a'],
      ]) +
      cols
        .map((c, i) =>
          rad(`${id}-n${i}`, [
            [0, c, 0.85],
            [0.5, c, 0.35],
            [1, c, 0],
          ]),
        )
        .join('') +
      blur(`${id}-bl`, 14) +
      glow(`${id}-gl`, 3);
    let cloud = '';
    if (v === 1) {
      for (let i = 0; i < 9; i++)
        cloud += `<ellipse cx="${f(r.range(150, 450))}" cy="${f(r.range(150, 400))}" rx="${f(r.range(80, 180))}" ry="${f(r.range(40, 100))}" transform="rotate(${Math.round(r.range(-50, 10))} 300 280)" fill="url(#${id}-n${i % 4})"/>`;
      cloud += `<path d="M120 330C220 260 300 360 420 250C460 220 500 240 520 220" fill="none" stroke="#02030a" stroke-width="26" opacity=".7"/>`;
    } else {
      for (let arm = 0; arm < 2; arm++) {
        let d = '';
        for (let i = 0; i <= 40; i++) {
          const t = i * 0.16,
            rr = 12 + 26 * t,
            a = t + arm * Math.PI;
          d += `${i ? 'L' : 'M'}${f(300 + rr * Math.cos(a))} ${f(280 + rr * Math.sin(a) * 0.62)}`;
        }
        cloud += `<path d="${d}" fill="none" stroke="url(#${id}-n${arm})" stroke-width="46" stroke-linecap="round"/><path d="${d}" fill="none" stroke="${cols[arm + 2]}" stroke-width="8" opacity=".55" stroke-linecap="round"/>`;
      }
      cloud += `<ellipse cx="300" cy="280" rx="70" ry="44" fill="url(#${id}-n3)"/>`;
    }
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/>${field(r, 90, 0, 0, 600, 600, 0.4, 1.3, '#fff', 0.7)}` +
        `<g filter="url(#${id}-bl)"${v === 2 ? ' transform="rotate(-18 300 280)"' : ''}>${cloud}</g>` +
        (v === 2 ? `<circle cx="300" cy="280" r="18" fill="#fffbeb" filter="url(#${id}-gl)"/>` : '') +
        `<g filter="url(#${id}-gl)"><path d="${sparks(r, 7, 40, 40, 520, 460, 6, 14)}" fill="#fff"/></g>${field(r, 30, 100, 100, 400, 360, 0.6, 1.8, '#fff')}`,
    };
  },

  // ------------------------------------------------ collectibles of gifts, exchanges, chain-up and BAZAAR

  'bazaar-fox': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(`${id}-bg`, [
          [0, '#1c0b2b'],
          [0.6, '#4a1d3a'],
          [1, '#7c2d12'],
        ]) +
        rad(`${id}-h`, [
          [0, '#fbbf24', 0.55],
          [1, '#fbbf24', 0],
        ]);
      const bulbs = Array.from({ length: 11 }, (_, i) => {
        const x = 20 + i * 56,
          y = 40 + 40 * Math.sin((i / 10) * Math.PI);
        return `<circle cx="${f(x)}" cy="${f(y)}" r="26" fill="url(#${id}-h)"/><circle cx="${f(x)}" cy="${f(y)}" r="8" fill="${i % 2 ? '#fde68a' : '#fb923c'}"/>`;
      }).join('');
      let awn = '';
      for (let i = 0; i < 10; i++)
        awn += `<path d="M${i * 60} 470h60v-40q-30 26-60 0z" fill="${i % 2 ? '#fde68a' : '#b91c1c'}" opacity=".9"/>`;
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/>${field(r, 30, 0, 60, 600, 200, 0.5, 1.4, '#fff', 0.5)}` +
          `<path d="M-10 30Q300 110 610 30" fill="none" stroke="#000" stroke-width="2" opacity=".5"/>${bulbs}` +
          place(300, 262, 0.74, foxFacets(['#ea580c', '#f97316', '#fb923c', '#c2410c'], ['#fff7ed', '#fde7d3'])) +
          `<rect y="470" width="600" height="130" fill="#12061a"/>${awn}`,
      };
    }
    const defs = lin(`${id}-bg`, [
      [0, '#fff7ed'],
      [1, '#fed7aa'],
    ]);
    let stripes = '';
    for (let i = 0; i < 10; i += 2) stripes += `<rect x="${i * 60}" width="60" height="96" fill="#c2410c"/>`;
    let scallop = 'M0 96';
    for (let i = 0; i < 10; i++) scallop += 'q30 30 60 0';
    return {
      defs,
      dark: false,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><rect width="600" height="96" fill="#fff"/>${stripes}<path d="${scallop}V0H0z" fill="#9a3412" opacity=".2"/>` +
        `<circle cx="300" cy="300" r="190" fill="#fdba74"/><circle cx="300" cy="300" r="190" fill="none" stroke="#9a3412" stroke-width="6" stroke-dasharray="2 14" stroke-linecap="round"/>` +
        place(300, 300, 0.62, foxFacets(['#b91c1c', '#dc2626', '#ef4444', '#991b1b'], ['#fff7ed', '#ffe4e6'], '#450a0a')) +
        `<path d="${sparks(r, 6, 40, 130, 520, 300, 5, 10)}" fill="#c2410c"/>`,
    };
  },

  'gift-star-fox-cub': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(`${id}-bg`, [
          [0, '#ede9fe'],
          [1, '#fbcfe8'],
        ]) + glow(`${id}-gl`, 3);
      return {
        defs,
        dark: false,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/><g opacity=".35">${place(300, 230, 0.9, foxStars(`${id}-gl`, '#7c3aed', '#8b5cf6', '#f472b6', '#8b5cf6'))}</g>` +
          `<ellipse cx="300" cy="470" rx="150" ry="18" fill="#7c3aed" opacity=".15"/>` +
          place(300, 340, 0.5, foxFacets(['#fb923c', '#fdba74', '#fed7aa', '#f97316'], ['#ffffff', '#fff7ed'], '#9a3412', '#431407')) +
          `<path d="${sparks(r, 8, 40, 40, 520, 380, 4, 9)}" fill="#fff"/>`,
      };
    }
    const defs =
      lin(`${id}-bg`, [
        [0, '#0b1033'],
        [1, '#312e81'],
      ]) +
      rad(`${id}-moon`, [
        [0, '#fefce8'],
        [1, '#fde68a'],
      ]) +
      glow(`${id}-gl`, 4);
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/>${field(r, 60, 0, 0, 600, 560, 0.5, 1.5, '#fff', 0.7)}` +
        `<circle cx="300" cy="250" r="150" fill="url(#${id}-moon)" opacity=".95"/><g opacity=".2" fill="#eab308"><circle cx="240" cy="200" r="22"/><circle cx="370" cy="310" r="28"/></g>` +
        place(300, 270, 0.46, foxStars(`${id}-gl`, '#312e81', '#1e1b4b', '#ea580c', '#1e1b4b')) +
        `<path d="${area((x) => 470 - 30 * Math.exp(-(((x - 300) / 200) ** 2)))}" fill="#1e1b4b"/>`,
    };
  },

  'star-fox-constellation': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(`${id}-sky`, [
          [0, '#020617'],
          [1, '#172554'],
        ]) +
        rad(`${id}-mw`, [
          [0, '#38bdf8', 0.3],
          [1, '#38bdf8', 0],
        ]) +
        glow(`${id}-gl`, 4);
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-sky)"/><ellipse cx="300" cy="280" rx="420" ry="120" transform="rotate(28 300 280)" fill="url(#${id}-mw)"/>` +
          `${field(r, 90, 0, 0, 600, 600, 0.4, 1.5, '#fff', 0.7)}` +
          place(180, 200, 0.52, foxStars(`${id}-gl`)) +
          place(420, 330, 0.52, foxStars(`${id}-gl`, '#bae6fd', '#fff', '#fde047', '#38bdf8')) +
          `<path d="M300 232L318 232M300 232L340 290" stroke="#e0f2fe" stroke-width="2" stroke-dasharray="4 8" opacity=".7"/>`,
      };
    }
    const defs =
      lin(`${id}-sky`, [
        [0, '#1e1b4b'],
        [0.6, '#155e75'],
        [1, '#0f766e'],
      ]) + glow(`${id}-gl`, 3);
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-sky)"/>${field(r, 60, 0, 0, 600, 380, 0.5, 1.5, '#fff', 0.8)}` +
        `<path d="${area((x) => 440 - 40 * Math.sin(x / 190))}" fill="#042f2e"/>` +
        place(180, 310, 0.5, foxFacets(['#ea580c', '#f97316', '#fb923c', '#c2410c'], ['#fff7ed', '#fde7d3'])) +
        place(420, 310, -0.5, foxFacets(['#0891b2', '#22d3ee', '#67e8f9', '#0e7490'], ['#ecfeff', '#cffafe'], '#164e63', '#083344')) +
        `<g filter="url(#${id}-gl)"><path d="${spark(300, 120, 18)}${spark(240, 90, 8)}${spark(362, 86, 8)}" fill="#fef9c3"/></g>`,
    };
  },

  'star-fox-comet': (v, r, id) => {
    const tail = (x0, y0, x1, y1, w, c) =>
      `<path d="M${x0} ${y0}L${x1 - w * 0.5} ${y1 - w}A${w} ${w} 0 0 1 ${x1 + w * 0.5} ${y1 + w}Z" fill="url(#${id}-tail)"/><circle cx="${x1}" cy="${y1}" r="${w * 0.7}" fill="${c}" filter="url(#${id}-gl)"/>`;
    if (v === 1) {
      const defs =
        lin(`${id}-sky`, [
          [0, '#030712'],
          [1, '#1e1b4b'],
        ]) +
        lin(
          `${id}-tail`,
          [
            [0, '#a5f3fc', 0],
            [1, '#e0f2fe', 0.75],
          ],
          0,
          1,
          1,
          0,
        ) +
        glow(`${id}-gl`, 5);
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-sky)"/>${field(r, 80, 0, 0, 600, 600, 0.4, 1.4, '#fff', 0.7)}` +
          tail(40, 520, 330, 250, 44, '#f0f9ff') +
          place(420, 200, 0.5, foxStars(`${id}-gl`, '#e0f2fe', '#fff', '#fb923c', '#fb923c')),
      };
    }
    const defs =
      lin(`${id}-bg`, [
        [0, '#3b0764'],
        [1, '#9d174d'],
      ]) +
      lin(
        `${id}-tail`,
        [
          [0, '#fde68a', 0],
          [1, '#fef3c7', 0.8],
        ],
        0,
        1,
        1,
        0,
      ) +
      glow(`${id}-gl`, 6);
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/>${field(r, 40, 0, 0, 600, 560, 0.5, 1.5, '#fff', 0.6)}` +
        tail(-20, 300, 520, 90, 26, '#fffbeb') +
        tail(60, 560, 470, 420, 16, '#fde68a') +
        place(290, 290, 0.62, foxFacets(['#ea580c', '#f97316', '#fb923c', '#c2410c'], ['#fff7ed', '#fde7d3'])),
    };
  },

  'bazaar-crane': (v, r, id) => {
    const coin = (x, y, s) =>
      `<g transform="translate(${x} ${y}) scale(${s})"><circle r="26" fill="#fbbf24" stroke="#b45309" stroke-width="3"/><rect x="-8" y="-8" width="16" height="16" fill="${v === 1 ? '#991b1b' : '#fff7ed'}" stroke="#b45309" stroke-width="2"/></g>`;
    if (v === 1) {
      const defs = rad(`${id}-bg`, [
        [0, '#dc2626'],
        [1, '#7f1d1d'],
      ]);
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="300" cy="270" r="200" fill="#fbbf24" opacity=".22"/><circle cx="300" cy="270" r="150" fill="#fde68a" opacity=".25"/>` +
          `<g fill="none" stroke="#fcd34d" stroke-width="4" opacity=".5"><path d="M60 120c-20-30 30-50 40-20c10-30 60-10 40 20M460 470c-20-30 30-50 40-20c10-30 60-10 40 20"/></g>` +
          crane('#fde68a', '#f59e0b', '#b45309', '#fef3c7') +
          coin(110, 420, 1) +
          coin(170, 455, 0.8) +
          coin(490, 150, 0.9),
      };
    }
    const defs = lin(`${id}-bg`, [
      [0, '#fffbeb'],
      [1, '#fde68a'],
    ]);
    return {
      defs,
      dark: false,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="300" cy="250" r="170" fill="#dc2626"/>` +
        `<g fill="none" stroke="#b45309" stroke-width="5" stroke-linecap="round" opacity=".7"><path d="M40 480q40-40 80 0t80 0M400 480q40-40 80 0t80 0M60 120q30-30 60 0"/></g>` +
        crane('#fecaca', '#ffffff', '#fee2e2', '#ffffff') +
        coin(480, 420, 0.9) +
        coin(120, 330, 0.7),
    };
  },

  'gift-member-crane': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(`${id}-bg`, [
          [0, '#fdf2f8'],
          [1, '#f9a8d4'],
        ]) +
        lin(
          `${id}-card`,
          [
            [0, '#db2777'],
            [1, '#831843'],
          ],
          0,
          0,
          1,
          1,
        );
      return {
        defs,
        dark: false,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/>` +
          `<g transform="rotate(-8 300 380)"><rect x="110" y="290" width="380" height="230" rx="22" fill="url(#${id}-card)"/><rect x="140" y="330" width="56" height="42" rx="8" fill="#fcd34d"/><path d="M140 351h56M168 330v42" stroke="#b45309" stroke-width="2"/>` +
          `<rect x="140" y="450" width="200" height="12" rx="6" fill="#fff" opacity=".6"/><rect x="140" y="474" width="120" height="10" rx="5" fill="#fff" opacity=".35"/><circle cx="430" cy="470" r="22" fill="#fff" opacity=".25"/></g>` +
          place(300, 250, 0.62, crane('#fbcfe8', '#ec4899', '#be185d', '#fdf2f8')),
      };
    }
    const defs = lin(`${id}-bg`, [
      [0, '#831843'],
      [1, '#4c1d95'],
    ]);
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><g fill="none" stroke="#f9a8d4"><circle cx="300" cy="290" r="210" stroke-width="3" opacity=".5"/><circle cx="300" cy="290" r="180" stroke-width="1.5" stroke-dasharray="3 9" opacity=".7"/></g>` +
        `<path d="${sparks(r, 12, 30, 30, 540, 460, 4, 10)}" fill="#fce7f3"/>` +
        crane('#ffffff', '#fbcfe8', '#f472b6', '#fdf2f8'),
    };
  },

  'swap-starter-card': (v, r, id) => {
    if (v === 1) {
      const defs = rad(`${id}-bg`, [
        [0, '#f0fdf4'],
        [1, '#86efac'],
      ]);
      return {
        defs,
        dark: false,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/><g fill="#16a34a" opacity=".12">${Array.from({ length: 12 }, (_, i) => `<path d="M300 270L${f(300 + 500 * Math.cos((i * Math.PI) / 6))} ${f(270 + 500 * Math.sin((i * Math.PI) / 6))}L${f(300 + 500 * Math.cos((i * Math.PI) / 6 + 0.2))} ${f(270 + 500 * Math.sin((i * Math.PI) / 6 + 0.2))}Z"/>`).join('')}</g>` +
          `<g transform="translate(300 270) rotate(-4)"><rect x="-114" y="-160" width="240" height="340" rx="20" fill="#14532d" opacity=".25" transform="translate(10 12)"/>${tradingCard('#15803d', '#f0fdf4', '#bbf7d0', '#16a34a')}</g>` +
          `<path d="${sparks(r, 6, 40, 40, 520, 400, 6, 12)}" fill="#fff"/>`,
      };
    }
    const defs = lin(`${id}-bg`, [
      [0, '#052e16'],
      [1, '#166534'],
    ]);
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/>${field(r, 30, 0, 0, 600, 520, 0.6, 1.8, '#bbf7d0', 0.5)}` +
        `<g transform="translate(230 290) rotate(-14) scale(.8)">${tradingCard('#86efac', '#052e16', '#14532d', '#86efac')}</g>` +
        `<g transform="translate(370 280) rotate(10) scale(.8)">${tradingCard('#fde047', '#f0fdf4', '#dcfce7', '#15803d')}</g>`,
    };
  },

  'swap-club-badge': (v, r, id) => {
    const shield = 'M300 90L450 140V290C450 380 390 440 300 480C210 440 150 380 150 290V140Z';
    if (v === 1) {
      const defs =
        lin(`${id}-bg`, [
          [0, '#ecfdf5'],
          [1, '#a7f3d0'],
        ]) +
        GOLD(id) +
        lin(`${id}-sh`, [
          [0, '#22c55e'],
          [1, '#14532d'],
        ]);
      const leaf = (s) =>
        `<g transform="translate(300 0) scale(${s} 1) translate(-300 0)" fill="#15803d" opacity=".55">${Array.from({ length: 6 }, (_, i) => `<ellipse cx="${128 - i * 4}" cy="${420 - i * 48}" rx="12" ry="26" transform="rotate(${-30 + i * 8} ${128 - i * 4} ${420 - i * 48})"/>`).join('')}</g>`;
      return {
        defs,
        dark: false,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/>${leaf(1)}${leaf(-1)}` +
          `<path d="${shield}" fill="url(#${id}-gold)"/><path d="${shield}" fill="url(#${id}-sh)" transform="translate(300 285) scale(.88) translate(-300 -285)"/>` +
          `<g transform="translate(300 280)">${swapArrows(72, 20, '#fde68a', '#ffffff')}</g><path d="${starPts(300, 280, 5, 22, 9)}" fill="#fde68a"/>`,
      };
    }
    const defs =
      rad(`${id}-bg`, [
        [0, '#166534'],
        [1, '#022c22'],
      ]) + GOLD(id);
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><g fill="#bbf7d0" opacity=".08">${Array.from({ length: 16 }, (_, i) => `<path d="M300 260L${f(300 + 500 * Math.cos((i * Math.PI) / 8))} ${f(260 + 500 * Math.sin((i * Math.PI) / 8))}L${f(300 + 500 * Math.cos((i * Math.PI) / 8 + 0.12))} ${f(260 + 500 * Math.sin((i * Math.PI) / 8 + 0.12))}Z"/>`).join('')}</g>` +
        `<path d="M240 330L200 470L240 450L262 486L290 350ZM360 330L400 470L360 450L338 486L310 350Z" fill="#dc2626"/>` +
        `<circle cx="300" cy="260" r="140" fill="url(#${id}-gold)"/><circle cx="300" cy="260" r="118" fill="#15803d"/><circle cx="300" cy="260" r="104" fill="none" stroke="#fde68a" stroke-width="2" stroke-dasharray="4 7"/>` +
        `<g transform="translate(300 260)">${swapArrows(62, 18, '#fde68a', '#bbf7d0')}</g>`,
    };
  },

  'perks-pin': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(`${id}-bg`, [
          [0, '#f5f3ff'],
          [1, '#c4b5fd'],
        ]) + GOLD(id);
      return {
        defs,
        dark: false,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="300" cy="270" r="210" fill="#fff" opacity=".4"/><path d="${sparks(r, 8, 40, 40, 520, 380, 5, 10)}" fill="#7c3aed" opacity=".5"/>` +
          `<g transform="translate(300 265) rotate(-10) scale(1.4)">${enamelPin('#7c3aed', '#f472b6', 'heart', id)}</g>`,
      };
    }
    const defs =
      lin(`${id}-bg`, [
        [0, '#1e3a8a'],
        [1, '#172554'],
      ]) +
      GOLD(id) +
      `<pattern id="${id}-tw" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="12" fill="#fff" opacity=".05"/></pattern>`;
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><rect width="600" height="600" fill="url(#${id}-tw)"/>` +
        `<path d="M70 0V600M530 0V600" stroke="#fbbf24" stroke-width="3" stroke-dasharray="10 8" opacity=".5"/>` +
        `<g transform="translate(300 265) rotate(8) scale(1.4)">${enamelPin('#ede9fe', '#6d28d9', 'star', id)}</g>`,
    };
  },

  'gift-welcome-lantern': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(`${id}-bg`, [
          [0, '#fdf2f8'],
          [1, '#fbcfe8'],
        ]) +
        lin(
          `${id}-lan`,
          [
            [0, '#f43f5e'],
            [0.5, '#e11d48'],
            [1, '#9f1239'],
          ],
          0,
          0,
          1,
          0,
        );
      const blossom = (x, y, s) =>
        `<g transform="translate(${x} ${y}) scale(${s})">${[0, 72, 144, 216, 288].map((a) => `<circle cy="-12" r="10" fill="#fff" transform="rotate(${a})"/>`).join('')}<circle r="6" fill="#f59e0b"/></g>`;
      return {
        defs,
        dark: false,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/><path d="M0 80C120 60 200 120 330 90S520 40 600 70" fill="none" stroke="#78350f" stroke-width="6" stroke-linecap="round"/>` +
          blossom(90, 72, 1.2) +
          blossom(200, 98, 0.9) +
          blossom(470, 66, 1.1) +
          blossom(560, 78, 0.8) +
          `<path d="M300 92V150" stroke="#78350f" stroke-width="4"/>` +
          paperLantern(300, 290, 2.3, `url(#${id}-lan)`, '#f59e0b', '#881337') +
          `<path d="${sparks(r, 8, 40, 140, 520, 320, 4, 9)}" fill="#f43f5e" opacity=".5"/>`,
      };
    }
    const defs =
      lin(`${id}-bg`, [
        [0, '#2e1065'],
        [1, '#500724'],
      ]) +
      rad(`${id}-door`, [
        [0, '#fde68a'],
        [1, '#f59e0b'],
      ]) +
      rad(`${id}-h`, [
        [0, '#fb7185', 0.6],
        [1, '#fb7185', 0],
      ]);
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/>${field(r, 30, 0, 0, 600, 200, 0.5, 1.4, '#fff', 0.6)}` +
        `<rect x="200" y="180" width="200" height="320" rx="100" ry="100" fill="url(#${id}-door)" opacity=".9"/><path d="M200 500V280A100 100 0 0 1 400 280V500" fill="none" stroke="#1c0a1f" stroke-width="24"/>` +
        `<rect x="80" y="500" width="440" height="100" fill="#1c0a1f"/>` +
        `<circle cx="130" cy="260" r="110" fill="url(#${id}-h)"/><circle cx="470" cy="260" r="110" fill="url(#${id}-h)"/>` +
        paperLantern(130, 250, 1.1, '#e11d48', '#fbbf24', '#881337') +
        paperLantern(470, 250, 1.1, '#e11d48', '#fbbf24', '#881337'),
    };
  },

  'bazaar-last-lantern': (v, r, id) => {
    const defs =
      lin(`${id}-sky`, [
        [0, '#0c0a1d'],
        [1, v === 1 ? '#3b1d12' : '#1e1b4b'],
      ]) +
      rad(`${id}-h`, [
        [0, '#fbbf24', 0.7],
        [0.4, '#f97316', 0.25],
        [1, '#f97316', 0],
      ]);
    if (v === 1) {
      const row = [80, 170, 260, 340, 430, 520];
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-sky)"/>${field(r, 40, 0, 0, 600, 300, 0.5, 1.4, '#fff', 0.6)}` +
          `<path d="M-10 110Q300 190 610 110" fill="none" stroke="#57534e" stroke-width="3"/>` +
          row
            .map((x, i) => {
              const y = 110 + 80 * Math.sin((x / 600) * Math.PI) * 0.9 + 60;
              return i === 3
                ? `<circle cx="${x}" cy="${f(y)}" r="150" fill="url(#${id}-h)"/>${paperLantern(x, f(y), 1, '#f97316', '#fde68a', '#9a3412')}`
                : paperLantern(x, f(y), 0.8, '#44403c', '#57534e', '#292524');
            })
            .join('') +
          `<path d="M0 470V440l60-30h110l30 30h150l40-40h110l60 40v30z" fill="#0c0a09"/><rect y="470" width="600" height="130" fill="#0c0a09"/>`,
      };
    }
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-sky)"/>${field(r, 70, 0, 0, 600, 380, 0.5, 1.5, '#fff', 0.7)}` +
        `<path d="${area((x) => 400 - 24 * Math.sin(x / 120 + 1))}" fill="#0f0d22"/><rect y="420" width="600" height="180" fill="#0b0a1a"/>` +
        `<g opacity=".5"><rect x="322" y="440" width="36" height="90" rx="18" fill="#f97316"/></g><g stroke="#fbbf24" stroke-width="2" opacity=".35"><path d="M260 470h160M300 500h80M230 540h120"/></g>` +
        skyLantern(340, 200, 1.4, `${id}-h`, '#fb923c'),
    };
  },

  'gift-new-year-rabbit': (v, r, id) => {
    if (v === 1) {
      const defs = rad(`${id}-bg`, [
        [0, '#dc2626'],
        [1, '#7f1d1d'],
      ]);
      const blossom = (x, y, s) =>
        `<g transform="translate(${x} ${y}) scale(${s})">${[0, 72, 144, 216, 288].map((a) => `<circle cy="-12" r="10" fill="#fecdd3" transform="rotate(${a})"/>`).join('')}<circle r="6" fill="#fbbf24"/></g>`;
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="300" cy="280" r="210" fill="none" stroke="#fbbf24" stroke-width="4" opacity=".6"/><circle cx="300" cy="280" r="190" fill="#fbbf24" opacity=".14"/>` +
          `<path d="M60 80q60-30 110 10M430 70q60-10 110 30" fill="none" stroke="#451a03" stroke-width="6" stroke-linecap="round"/>` +
          blossom(110, 70, 1) +
          blossom(160, 90, 0.7) +
          blossom(480, 75, 1.1) +
          blossom(540, 100, 0.8) +
          `<path d="M150 420c-30 0-30-34 0-34c4-24 40-24 44 0c24-6 36 18 18 34zM360 430c-30 0-30-34 0-34c4-24 40-24 44 0c24-6 36 18 18 34z" fill="#fcd34d" opacity=".8"/>` +
          `<g transform="translate(300 420)">${rabbit('#ffffff', '#fda4af', '#7f1d1d')}</g>`,
      };
    }
    const defs =
      lin(`${id}-bg`, [
        [0, '#1c0a00'],
        [1, '#7f1d1d'],
      ]) +
      GOLD(id) +
      glow(`${id}-gl`, 3);
    const burst = (x, y, R, col) =>
      `<g stroke="${col}" stroke-width="3" stroke-linecap="round" filter="url(#${id}-gl)">${Array.from({ length: 14 }, (_, i) => {
        const a = (i / 14) * Math.PI * 2;
        return `<path d="M${f(x + R * 0.4 * Math.cos(a))} ${f(y + R * 0.4 * Math.sin(a))}L${f(x + R * Math.cos(a))} ${f(y + R * Math.sin(a))}"/>`;
      }).join('')}</g>`;
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/>` +
        burst(130, 130, 80, '#fbbf24') +
        burst(470, 110, 64, '#f472b6') +
        burst(500, 300, 44, '#fde68a') +
        `<circle cx="300" cy="330" r="150" fill="#b91c1c"/><circle cx="300" cy="330" r="150" fill="none" stroke="url(#${id}-gold)" stroke-width="10"/>` +
        `<g transform="translate(290 440) scale(.85)">${rabbit(`url(#${id}-gold)`)}</g>`,
    };
  },

  'gift-afterglow-owl': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(`${id}-bg`, [
          [0, '#4c1d95'],
          [0.5, '#db2777'],
          [1, '#f97316'],
        ]) +
        rad(`${id}-eye`, [
          [0, '#fffbeb'],
          [1, '#fb923c'],
        ]);
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="300" cy="470" r="230" fill="#fde68a" opacity=".35"/><circle cx="300" cy="470" r="160" fill="#fef3c7" opacity=".45"/>` +
          `<path d="${sparks(r, 6, 40, 30, 520, 140, 4, 8)}" fill="#fff" opacity=".8"/>` +
          owl(['#fed7aa', '#fb923c', '#f97316', '#c2410c', '#7c2d12'], id) +
          `<path d="${area((x) => 500 + 10 * Math.sin(x / 70))}" fill="#3b0764"/>`,
      };
    }
    const defs =
      lin(`${id}-bg`, [
        [0, '#fb923c'],
        [0.6, '#f43f5e'],
        [1, '#581c87'],
      ]) +
      rad(`${id}-eye`, [
        [0, '#fef9c3'],
        [1, '#fbbf24'],
      ]);
    const sil = owl(['#2e1065', '#2e1065', '#2e1065', '#2e1065', '#fbbf24'], id);
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><circle cx="300" cy="300" r="200" fill="#fde68a" opacity=".85"/>` +
        `<g fill="none" stroke="#fde68a" stroke-width="2" opacity=".5"><path d="M0 180h600M0 220h600M0 400h600" stroke-dasharray="40 30"/></g>` +
        `<g transform="translate(300 470) scale(.85) translate(-300 -494)">${sil}</g>` +
        `<path d="M20 480C180 458 420 470 580 446" fill="none" stroke="#2e1065" stroke-width="20" stroke-linecap="round"/><path d="M440 466c24-30 60-30 80-20c-24 14-50 20-80 20z" fill="#2e1065"/>` +
        `<path d="${area((x) => 520 + 10 * Math.sin(x / 60))}" fill="#2e1065"/>`,
    };
  },

  'chain-iron-owl': (v, r, id) => {
    const grid = `<pattern id="${id}-grid" width="30" height="30" patternUnits="userSpaceOnUse"><path d="M30 0H0V30" fill="none" stroke="#a5b4fc" stroke-width="1" opacity=".18"/></pattern>`;
    if (v === 1) {
      const defs =
        rad(`${id}-bg`, [
          [0, '#3730a3'],
          [1, '#1e1b4b'],
        ]) +
        grid +
        rad(`${id}-eye`, [
          [0, '#fef3c7'],
          [1, '#f97316'],
        ]);
      const rivets = [
        [230, 200],
        [370, 200],
        [214, 300],
        [386, 300],
        [240, 400],
        [360, 400],
        [300, 460],
      ]
        .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="5" fill="#e5e7eb"/><circle cx="${x + 1}" cy="${y + 1}" r="2" fill="#374151"/>`)
        .join('');
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-bg)"/><rect width="600" height="600" fill="url(#${id}-grid)"/><circle cx="300" cy="300" r="210" fill="#818cf8" opacity=".12"/>` +
          owl(['#9ca3af', '#6b7280', '#4b5563', '#374151', '#d97706'], id) +
          rivets,
      };
    }
    const defs =
      lin(`${id}-bg`, [
        [0, '#0b1020'],
        [1, '#1e1b4b'],
      ]) +
      grid +
      glow(`${id}-gl`, 3);
    const wire = owl(['a', 'b', 'c', 'd', 'e'], id).replace(/fill="[^"]*"/g, 'fill="#312e81" fill-opacity=".35"');
    const nodes = [
      [200, 190],
      [400, 190],
      [300, 170],
      [214, 118],
      [386, 118],
      [178, 262],
      [422, 262],
      [220, 320],
      [380, 320],
      [300, 330],
      [204, 428],
      [396, 428],
      [300, 492],
    ];
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><rect width="600" height="600" fill="url(#${id}-grid)"/>` +
        `<g stroke="#67e8f9" stroke-width="2.5" stroke-linejoin="round" filter="url(#${id}-gl)">${wire}</g>` +
        `<g fill="#cffafe">${nodes.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="5"/>`).join('')}</g>` +
        `<path d="M60 80h60v40M540 80h-60v40M60 420v40h60M540 420v40h-60" fill="none" stroke="#67e8f9" stroke-width="3" opacity=".6"/>`,
    };
  },

  'gift-aurora-code-lynx': (v, r, id) => {
    if (v === 1) {
      const defs =
        lin(`${id}-sky`, [
          [0, '#020617'],
          [1, '#134e4a'],
        ]) +
        ['#5eead4', '#a78bfa']
          .map((b, i) =>
            lin(`${id}-b${i}`, [
              [0, b, 0],
              [0.7, b, 0.35],
              [1, '#f0fdfa', 0.8],
            ]),
          )
          .join('') +
        blur(`${id}-bl`, 8) +
        rad(`${id}-gl`, [
          [0, '#99f6e4', 0.55],
          [1, '#99f6e4', 0],
        ]);
      return {
        defs,
        dark: true,
        body:
          `<rect width="600" height="600" fill="url(#${id}-sky)"/>${field(r, 50, 0, 0, 600, 320, 0.5, 1.6, '#fff', 0.8)}` +
          `<path d="${curtain(r, 150, 40, 110)}" fill="url(#${id}-b0)" filter="url(#${id}-bl)"/><path d="${curtain(r, 220, 30, 80)}" fill="url(#${id}-b1)" filter="url(#${id}-bl)"/>` +
          `<path d="${area((x) => 440 - 50 * Math.exp(-(((x - 300) / 170) ** 2)))}" fill="#e0f2fe"/><path d="${area((x) => 490 + 10 * Math.sin(x / 60))}" fill="#bae6fd"/>` +
          `<circle cx="300" cy="300" r="150" fill="url(#${id}-gl)"/><g transform="translate(300 398) scale(.8) translate(-300 -389)">${lynx('#042f2e')}</g>`,
      };
    }
    const defs = lin(`${id}-bg`, [
      [0, '#f0f9ff'],
      [1, '#bae6fd'],
    ]);
    const flake = (x, y, s, w) =>
      `<g transform="translate(${f(x)} ${f(y)}) scale(${f(s)})" stroke-width="${w}"><path d="M0-10V10M-8.7-5L8.7 5M-8.7 5L8.7-5M-3-7L0-4 3-7M-3 7L0 4 3 7"/></g>`;
    return {
      defs,
      dark: false,
      body:
        `<rect width="600" height="600" fill="url(#${id}-bg)"/><g fill="none" stroke="#fff" stroke-linecap="round">${flake(300, 250, 20, 0.6)}${Array.from({ length: 12 }, () => flake(r.range(20, 580), r.range(20, 480), r.range(0.8, 1.8), 2)).join('')}</g>` +
        `<ellipse cx="300" cy="420" rx="170" ry="22" fill="#7dd3fc" opacity=".5"/>` +
        `<g transform="translate(300 420) scale(.9) translate(-300 -389)">${lynx('#0c4a6e')}</g><g fill="#e0f2fe"><circle cx="282" cy="228" r="5"/><circle cx="318" cy="228" r="5"/></g>`,
    };
  },

  'aurora-dawn-print': (v, r, id) => {
    const art = GOODS['aurora-dawn'](v, r, `${id}a`);
    const [x, y, w, h] = [140, 110, 320, 320];
    if (v === 1) {
      const defs =
        art.defs +
        lin(`${id}-wall`, [
          [0, '#f5f5f4'],
          [1, '#d6d3d1'],
        ]) +
        lin(
          `${id}-wood`,
          [
            [0, '#78350f'],
            [1, '#451a03'],
          ],
          0,
          0,
          1,
          1,
        );
      return {
        defs,
        dark: false,
        body:
          `<rect width="600" height="600" fill="url(#${id}-wall)"/><path d="M300 0V60" stroke="#57534e" stroke-width="2"/><path d="M300 60L190 ${y - 40}M300 60L410 ${y - 40}" stroke="#57534e" stroke-width="2"/>` +
          `<rect x="${x - 58}" y="${y - 38}" width="${w + 116}" height="${h + 76}" fill="#000" opacity=".15" transform="translate(8 10)"/>` +
          `<rect x="${x - 58}" y="${y - 38}" width="${w + 116}" height="${h + 76}" fill="url(#${id}-wood)"/><rect x="${x - 40}" y="${y - 20}" width="${w + 80}" height="${h + 40}" fill="#fafaf9"/>` +
          `<svg x="${x}" y="${y}" width="${w}" height="${h}" viewBox="0 0 600 600">${art.body}</svg>` +
          `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="none" stroke="#d6d3d1" stroke-width="2"/>`,
      };
    }
    const defs =
      art.defs +
      rad(
        `${id}-spot`,
        [
          [0, '#fef3c7', 0.35],
          [1, '#fef3c7', 0],
        ],
        0.5,
        0.3,
        0.6,
      ) +
      GOLD(id);
    return {
      defs,
      dark: true,
      body:
        `<rect width="600" height="600" fill="#1c1917"/><rect width="600" height="600" fill="url(#${id}-spot)"/>` +
        `<rect x="${x - 30}" y="${y - 30}" width="${w + 60}" height="${h + 60}" fill="url(#${id}-gold)"/><rect x="${x - 14}" y="${y - 14}" width="${w + 28}" height="${h + 28}" fill="#292524"/>` +
        `<svg x="${x}" y="${y}" width="${w}" height="${h}" viewBox="0 0 600 600">${art.body}</svg>` +
        `<rect x="260" y="${y + h + 60}" width="80" height="14" rx="3" fill="#a8a29e" opacity=".6"/>`,
    };
  },
};

/** One picture of a collectible: its drawing, and its name as the caption (and the title), exactly as the seed spells it. */
function goods(code, name, draw, v) {
  const id = `g${code
    .split('-')
    .map((s) => s[0])
    .join('')}${v}`;
  const r = seeded(`goods/${code}#${v}`);
  const { defs, body, dark } = draw(v, r, id);
  const ink = dark ? '#ffffff' : '#1f2937',
    veil = dark ? '#000000' : '#ffffff';
  const size = Math.min(28, Math.floor(520 / (name.length * 0.62)));
  const half = (name.length * size * 0.62 + (name.length - 1) * 1.5) / 2;
  return svgDoc(
    600,
    600,
    name,
    defs +
      lin(`${id}-lb`, [
        [0, veil, 0],
        [1, veil, dark ? 0.6 : 0.7],
      ]),
    `${body}<rect y="450" width="600" height="150" fill="url(#${id}-lb)"/>` +
      (half < 230
        ? `<path d="M${f(300 - half - 52)} 561h30M${f(300 + half + 22)} 561h30" stroke="${ink}" stroke-width="1.5" opacity=".6"/>`
        : '') +
      text(300, 561 + size * 0.36, size, name, `class="caption" text-anchor="middle" font-weight="600" letter-spacing="1.5" fill="${ink}"`),
  );
}

// ---------------------------------------------------------------- main

const collectibles = demoCollectibles();
const problems = [
  ...collectibles.filter((c) => !GOODS[c.code]).map((c) => `no drawing for ${c.code} (${c.name}): add one to GOODS`),
  ...Object.keys(GOODS)
    .filter((code) => !collectibles.some((c) => c.code === code))
    .map((code) => `GOODS has a drawing for ${code}, which the seed does not create`),
  ...collectibles
    .filter((c, i) => collectibles.findIndex((d) => d.code === c.code) !== i)
    .map((c) => `two collectibles share the code ${c.code}: each needs pictures of its own`),
];
if (problems.length) throw new Error(problems.join('\n'));

// Start clean, so pictures of collectibles or channels that are gone do not linger.
for (const folder of ['goods', 'brands']) rmSync(path.join(PUBLIC, folder), { recursive: true, force: true });
for (const [key, c] of Object.entries(CHANNELS)) brandImages(key, c);
for (const { code, name } of collectibles) {
  write(`goods/${code}.svg`, goods(code, name, GOODS[code], 1));
  write(`goods/${code}-2.svg`, goods(code, name, GOODS[code], 2));
}

const largest = written.reduce((a, b) => (b[1] > a[1] ? b : a));
const total = written.reduce((sum, [, bytes]) => sum + bytes, 0);
console.log(
  `wrote ${written.length} SVG files (${readdirSync(path.join(PUBLIC, 'brands')).length} brand folders, ${Math.round(total / 1024)} KiB) under ${path.relative(process.cwd(), PUBLIC) || PUBLIC}; largest ${largest[0]} (${largest[1]} bytes)`,
);
