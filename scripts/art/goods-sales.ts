/**
 * The pictures of the collectibles on sale (AURORA, LUMEN, DARK) and of the blind box's prizes: a cover and a second
 * picture each, 600 x 600, drawn under the caption that goods.ts adds.
 */
import { onDark, onLight, type Pair } from './drawing';
import { crane, foxFacets, foxStars, KOI_BODY, KOI_FINS, LILY_PAD, lynx, owl, phoenix, rabbit, RED_FOX } from './figures';
import { below, bump, curtain, dots, ray, ridge, snowfall, sparkles, type Sizes } from './shapes';
import { ACROSS, at, DIAGONAL, f, facet, fading, mix, numbers, points, poly, text, UP, type Picture, type Point, type Stop } from './svg';

/** An aurora's scene: its sky, its curtains' colours and where they hang ("y,sway,depth …"), how many stars and how bright. */
type AuroraScene = { sky: readonly Stop[]; bands: readonly string[]; curtains: string; stars: number; starOpacity: number };

/** A polar night: stars, and aurora curtains striped with falling light. */
function auroraNight(p: Picture, { sky, bands, curtains, stars, starOpacity }: AuroraScene): void {
  const night = p.linear('sky', sky);
  const lights = bands.map((band, i) => p.linear(`b${i}`, [at(0, band, 0), at(0.7, band, 0.4), at(1, '#f8fafc', 0.85)]));
  const soft = p.blur('bl', 6);
  const rain = p.pattern('st', 9, 20, '<rect width="3" height="20" fill="#fff" opacity=".22"/>');
  p.fill(night).draw(dots(p.random, stars, [0, 0, 600, 380], [0.6, 1.9], '#fff', starOpacity));
  numbers(curtains).forEach(([y, sway, depth], i) => {
    const d = curtain(p.random, y!, sway!, depth!);
    p.draw(`<path d="${d}" fill="${lights[i]}" filter="${soft}"/><path d="${d}" fill="${rain}" opacity=".6" filter="${soft}"/>`);
  });
}

/** A dark forest of firs along the bottom, as path data. */
function firs(p: Picture): string {
  let trees = '';
  for (let i = 0; i < 11; i++) {
    const x = 20 + i * 56 + p.random.range(-14, 14),
      h = p.random.range(80, 170),
      base = 520,
      w = h * 0.42;
    // Three tiers, each wider than the one above.
    for (let k = 0; k < 3; k++) {
      const top = base - h + k * h * 0.24,
        bot = top + h * 0.45;
      trees += `M${f(x)} ${f(top)}L${f(x + w * (0.3 + k * 0.1))} ${f(bot)}L${f(x - w * (0.3 + k * 0.1))} ${f(bot)}Z`;
    }
  }
  return trees;
}

/** Aurora Dawn: the northern lights over mountains at night (its cover), and over a fir forest at dusk. */
export const AURORA_DAWN: Pair = [
  onDark((p) => {
    auroraNight(p, {
      sky: ['#020617', at(0.55, '#0b2a3c'), '#11626a'],
      bands: ['#5eead4', '#34d399', '#a78bfa'],
      curtains: '170,60,150 250,50,170 320,30,120',
      stars: 70,
      starOpacity: 0.85,
    });
    p.draw(`<path d="${ridge(p.random, 340, 440)}" fill="#0c3338"/>`, `<path d="${ridge(p.random, 420, 500)}" fill="#03181a"/>`);
  }),
  onDark((p) => {
    auroraNight(p, {
      sky: ['#1e1b4b', at(0.45, '#6d28d9'), at(0.8, '#f472b6'), '#fdba74'],
      bands: ['#f0abfc', '#c4b5fd', '#6ee7b7'],
      curtains: '150,45,120 220,60,150 280,40,110',
      stars: 35,
      starOpacity: 0.6,
    });
    p.draw(`<path d="${ridge(p.random, 340, 440)}" fill="#3b1d5e"/>`);
    p.draw(`<path d="${below((x) => 500 + 14 * Math.sin(x / 80))}" fill="#160a28"/><path d="${firs(p)}" fill="#160a28"/>`);
  }),
];

const TIDE_WHALE: Pair = [
  // A humpback rising through shafts of light in the deep.
  onDark((p) => {
    const sea = p.linear('sea', ['#0e7490', at(0.45, '#0c4a6e'), '#020617']);
    const skin = p.linear('wh', ['#1e3a5f', at(0.6, '#334e73'), '#a5b4c8'], [0, 0, 0.3, 1]);
    const shaft = p.linear('ray', fading('#fff', 0.22));
    // Shafts of light from the surface: where each starts, and how wide.
    const light = points('120,60 250,45 380,70 500,40').map(([x, w]) => `<path d="M${x} 0h${w}l${w * 2} 600h-${w * 2}z"/>`);
    p.fill(sea).draw(`<g fill="${shaft}">${light.join('')}</g>`, dots(p.random, 24, [30, 300, 540, 260], [1, 3], '#bae6fd', 0.35));
    p.draw(
      `<g transform="rotate(-14 300 300)"><path d="M500 250C460 190 320 180 230 230C180 258 150 285 118 312L72 276C80 318 88 336 104 350C88 368 80 392 82 420L126 372C196 362 266 352 336 344C420 334 488 300 500 250Z" fill="${skin}"/>`,
      `<path d="M338 330C326 382 296 420 250 444C300 432 346 396 366 330Z" fill="#2b4566"/><g stroke="#cbd5e1" stroke-width="3" opacity=".45" stroke-linecap="round"><path d="M360 326L470 296M350 334L462 306M340 341L452 314"/></g>`,
      `<circle cx="452" cy="262" r="6" fill="#e2e8f0"/><g fill="#94a3b8" opacity=".7"><circle cx="300" cy="218" r="5"/><circle cx="270" cy="226" r="4"/><circle cx="390" cy="214" r="4"/></g></g>`,
      `<g fill="none" stroke="#e0f2fe" stroke-width="2.5" opacity=".6"><circle cx="520" cy="160" r="10"/><circle cx="536" cy="120" r="7"/><circle cx="526" cy="86" r="5"/><circle cx="544" cy="56" r="4"/></g>`,
    );
  }),
  // Its tail, diving into a sunset sea.
  onDark((p) => {
    const sky = p.linear('sky', ['#4c1d95', '#db2777', '#fdba74']);
    const sea = p.linear('sea', ['#1e3a8a', '#0f172a']);
    const sun = p.radial('sun', ['#fff7ed', '#fde68a', at(1, '#fde68a', 0)]);
    const fluke = 'M300 446C296 400 294 360 300 320C270 312 226 268 170 266C196 284 232 314 262 340C276 352 286 366 288 446Z';
    const glitter = [0, 1, 2, 3, 4, 5].map(
      (i) => `<rect x="${f(300 - (80 - i * 11))}" y="${394 + i * 16}" width="${f(2 * (80 - i * 11))}" height="4" rx="2"/>`,
    );
    p.fill(sky).draw(`<circle cx="300" cy="360" r="190" fill="${sun}"/><circle cx="300" cy="360" r="78" fill="#fff1d6"/>`);
    p.draw(`<path d="${below((x) => 380 + 3 * Math.sin(x / 40))}" fill="${sea}"/><g fill="#fde68a" opacity=".55">${glitter.join('')}</g>`);
    p.draw(`<g fill="#0b1329"><path d="${fluke}"/><path d="${fluke}" transform="translate(600 0) scale(-1 1)"/></g>`);
    p.draw(`<path d="M250 446c20-10 80-10 100 0c-20 12-80 12-100 0z" fill="#1e3a8a" stroke="#bfdbfe" stroke-width="2" opacity=".8"/>`);
    p.draw(
      dots(p.random, 12, [180, 300, 240, 130], [1.5, 3.5], '#e0f2fe', 0.7),
      `<path d="${below((x) => 520 + 10 * Math.sin(x / 50 + 1))}" fill="#0b1329" opacity=".6"/>`,
    );
  }),
];

const NEON_KOI: Pair = [
  // Two koi in neon outline, circling a night pond.
  onDark((p) => {
    const pond = p.radial('bg', ['#1e1b4b', '#020617']);
    const neon = p.glow('gl', 7);
    const koi = (x: number, y: number, rot: number, colour: string) =>
      `<g transform="translate(${x} ${y}) rotate(${rot})" filter="${neon}" stroke="${colour}" stroke-width="4" stroke-linejoin="round"><path d="${KOI_FINS}" fill="${colour}" fill-opacity=".1"/><path d="${KOI_BODY}" fill="${mix(colour, '#0f0c29', 0.8)}"/><circle cx="-12" cy="-80" r="3" fill="${colour}"/><circle cx="12" cy="-80" r="3" fill="${colour}"/></g>`;
    const ripples = [90, 150, 210, 255].map(
      (radius, i) => `<circle cx="300" cy="280" r="${radius}" stroke-width="${2 - i * 0.3}"${i % 2 ? ' stroke-dasharray="4 10"' : ''}/>`,
    );
    p.fill(pond).draw(`<g fill="none" stroke="#818cf8" opacity=".35">${ripples.join('')}</g>`);
    p.draw(
      `<g fill="#14532d" opacity=".7"><path d="${LILY_PAD}" transform="translate(100 110) rotate(20)"/><path d="${LILY_PAD}" transform="translate(505 450) rotate(200) scale(.8)"/></g>`,
    );
    p.draw(koi(395, 282, -12, '#f472b6'), koi(205, 278, 168, '#22d3ee'), dots(p.random, 14, [60, 60, 480, 440], [1, 2.5], '#e0e7ff', 0.6));
  }),
  // The same two, spotted, among lily pads by day.
  onLight((p) => {
    const pond = p.radial('bg', ['#ccfbf1', at(0.6, '#5eead4'), '#0f766e']);
    const koi = (x: number, y: number, rot: number, spot: string) =>
      `<g transform="translate(${x} ${y}) rotate(${rot})"><path d="${KOI_FINS}" fill="#fff7ed" opacity=".85"/><path d="${KOI_BODY}" fill="#fffbf5"/>` +
      `<g fill="${spot}"><path d="M-18-96C-6-106 14-104 22-92C14-80-8-80-18-96Z"/><ellipse cx="6" cy="-26" rx="18" ry="30"/><ellipse cx="-8" cy="40" rx="11" ry="18"/></g><circle cx="-13" cy="-84" r="3.2" fill="#1f2937"/><circle cx="13" cy="-84" r="3.2" fill="#1f2937"/></g>`;
    const pad = (x: number, y: number, s: number, rot: number) =>
      `<g transform="translate(${x} ${y}) rotate(${rot}) scale(${s})"><path d="${LILY_PAD}" fill="#15803d"/><path d="M0 0L-30 -30M0 0L-36 14M0 0L4 40" stroke="#166534" stroke-width="3"/></g>`;
    const petals = [0, 72, 144, 216, 288].map(
      (a) => `<path d="M0 0C-14 -22 -10 -42 0 -52C10 -42 14 -22 0 0Z" fill="#f9a8d4" transform="rotate(${a})"/>`,
    );
    p.fill(pond).draw(
      `<g fill="none" stroke="#ffffff" opacity=".55"><circle cx="300" cy="280" r="120" stroke-width="3"/><circle cx="300" cy="280" r="190" stroke-width="2"/><circle cx="300" cy="280" r="260"/></g>`,
    );
    p.draw(pad(100, 110, 1.1, 20), pad(510, 440, 0.9, 200), pad(470, 110, 0.6, 120));
    p.draw(`<g transform="translate(100 110)">${petals.join('')}<circle r="8" fill="#fde047"/></g>`);
    p.draw(koi(205, 285, 200, '#ea580c'), koi(395, 275, 20, '#dc2626'));
  }),
];

const MOON_RABBIT: Pair = [
  // The rabbit on the full moon, pounding starlight in its mortar.
  onDark((p) => {
    const sky = p.linear('sky', ['#0b1033', '#312e81']);
    const moon = p.radial('moon', ['#fefce8', at(0.75, '#fde68a'), '#fbbf24']);
    const halo = p.radial('halo', [at(0.6, '#fde68a', 0.35), at(1, '#fde68a', 0)]);
    const cloud = (x: number, y: number, s: number, opacity: number) =>
      `<path d="M${x} ${y}h${120 * s}a${22 * s} ${22 * s} 0 0 0 -${30 * s} -${30 * s}a${34 * s} ${34 * s} 0 0 0 -${62 * s} -${8 * s}a${26 * s} ${26 * s} 0 0 0 -${28 * s} ${38 * s}z" fill="#c7d2fe" opacity="${opacity}"/>`;
    p.fill(sky).draw(dots(p.random, 50, [0, 0, 600, 520], [0.6, 1.8], '#fff', 0.8));
    p.draw(
      `<circle cx="300" cy="270" r="250" fill="${halo}"/><circle cx="300" cy="270" r="185" fill="${moon}"/>`,
      `<g fill="#eab308" opacity=".22"><circle cx="220" cy="200" r="28"/><circle cx="380" cy="170" r="18"/><circle cx="400" cy="330" r="34"/><circle cx="250" cy="380" r="16"/></g>`,
    );
    p.draw(
      `<g transform="translate(270 410)">${rabbit('#1e1b4b')}</g><g fill="#1e1b4b"><path d="M360 370h86c-4 40-22 50-43 50s-39-10-43-50z"/><rect x="384" y="420" width="38" height="10" rx="4"/></g>`,
    );
    p.draw(
      `<path d="M318 320L412 362" stroke="#1e1b4b" stroke-width="12" stroke-linecap="round"/><path d="${sparkles(p.random, 5, [360, 300, 90, 60], [4, 9])}" fill="#fff"/>`,
    );
    p.draw(cloud(70, 470, 1.3, 0.35), cloud(380, 500, 1.2, 0.3));
  }),
  // A white rabbit on a hill under a crescent, in pastel dusk.
  onLight((p) => {
    const sky = p.linear('sky', ['#fbcfe8', at(0.6, '#ddd6fe'), '#a5b4fc']);
    const hill = p.linear('hill', ['#f5f3ff', '#c4b5fd']);
    p.fill(sky).draw(`<circle cx="430" cy="150" r="150" fill="#fff" opacity=".25"/>`);
    p.draw(
      `<path d="M452 50a100 100 0 1 0 70 170a82 82 0 0 1-70-170z" fill="#fffbeb"/><path d="${sparkles(p.random, 12, [30, 30, 540, 300], [4, 10])}" fill="#fff"/>`,
    );
    p.draw(`<path d="${below(bump(470, 60, 260, 170))}" fill="${hill}"/>`);
    p.draw(`<g transform="translate(250 445) scale(-0.9 0.9) rotate(-8)">${rabbit('#ffffff', '#f9a8d4', '#4c1d95')}</g>`);
    p.draw(dots(p.random, 10, [40, 480, 520, 60], [2, 4], '#fff', 0.7));
  }),
];

/** The jade dragon's head at (x, y), turned by rot degrees: horns, jaw, eye and whiskers. */
const dragonHead = (x: number, y: number, rot: number, body: string, dark: string, gold: string): string =>
  `<g transform="translate(${x} ${y}) rotate(${rot})"><path d="M-6-20C10-44 20-60 10-78M6-16C30-40 44-48 46-66" fill="none" stroke="${gold}" stroke-width="6" stroke-linecap="round"/>` +
  `<path d="M-18-24C20-34 56-24 82-6L84 6C60 16 30 22-18 24Z" fill="${body}"/><path d="M20 10C40 14 62 12 84 6L80 18C56 26 36 24 20 10Z" fill="${dark}"/><circle cx="34" cy="-8" r="6" fill="${gold}"/><circle cx="35" cy="-8" r="2.5" fill="#111"/>` +
  `<path d="M78 4C110 10 130 40 150 30M74 -2C104 -20 120 -6 146 -24" fill="none" stroke="${gold}" stroke-width="3" stroke-linecap="round"/></g>`;

const JADE_DRAGON: Pair = [
  // A jade dragon winding up through golden clouds toward its pearl.
  onDark((p) => {
    const night = p.radial('bg', ['#065f46', '#022c22']);
    const jade = p.linear('body', ['#6ee7b7', '#047857'], DIAGONAL);
    const pearl = p.radial('pearl', ['#ffffff', at(0.6, '#fef3c7'), at(1, '#f59e0b', 0.2)]);
    const shine = p.glow('gl', 10);
    const d = 'M110 480C40 380 190 320 250 390S430 480 450 360S300 230 380 150';
    const cloud = (x: number, y: number, s: number) =>
      `<path d="M${x} ${y}c${-30 * s} 0 ${-30 * s} ${-34 * s} 0 ${-34 * s}c${4 * s} ${-24 * s} ${40 * s} ${-24 * s} ${44 * s} 0c${24 * s} ${-6 * s} ${36 * s} ${18 * s} ${18 * s} ${34 * s}z" fill="none" stroke="#fcd34d" stroke-width="4" opacity=".55"/>`;
    p.fill(night).draw(cloud(90, 170, 1.4), cloud(470, 520, 1.1), cloud(500, 230, 0.9));
    p.draw(`<circle cx="490" cy="110" r="34" fill="${pearl}" filter="${shine}"/>`);
    p.draw(
      `<path d="${d}" fill="none" stroke="#064e3b" stroke-width="58" stroke-linecap="round"/><path d="${d}" fill="none" stroke="${jade}" stroke-width="48" stroke-linecap="round"/>`,
      `<path d="${d}" fill="none" stroke="#d1fae5" stroke-width="40" stroke-dasharray="3 13" opacity=".45"/><path d="${d}" fill="none" stroke="#fcd34d" stroke-width="3" stroke-dasharray="14 10" opacity=".8"/>`,
    );
    p.draw(dragonHead(380, 150, -40, '#34d399', '#047857', '#fcd34d'), dots(p.random, 16, [30, 30, 540, 500], [1, 2.5], '#a7f3d0', 0.5));
  }),
  // A golden dragon coiled round a jade pearl.
  onLight((p) => {
    const ground = p.radial('bg', ['#ecfdf5', '#6ee7b7']);
    const gold = p.linear('body', ['#fde68a', '#b45309'], DIAGONAL);
    const pearl = p.radial('pearl', ['#ffffff', at(0.7, '#a7f3d0'), '#10b981']);
    // A spiral inward from the top, its radius shrinking as it turns.
    const coil: Point[] = [];
    for (let i = 0; i <= 34; i++) {
      const t = -100 + i * 10.6,
        rr = 190 - i * 2.6,
        a = (t * Math.PI) / 180;
      coil.push([300 + rr * Math.cos(a), 280 + rr * Math.sin(a)]);
    }
    const d = 'M' + coil.map(([x, y]) => `${f(x)} ${f(y)}`).join('L');
    const [ex, ey] = coil[coil.length - 1]!,
      [px, py] = coil[coil.length - 2]!;
    p.fill(ground).draw(
      `<circle cx="300" cy="280" r="236" fill="none" stroke="#047857" stroke-width="2" stroke-dasharray="2 8" opacity=".6"/>`,
    );
    p.draw(`<circle cx="300" cy="280" r="46" fill="${pearl}"/><circle cx="286" cy="266" r="10" fill="#fff" opacity=".8"/>`);
    p.draw(
      `<path d="${d}" fill="none" stroke="#78350f" stroke-width="46" stroke-linecap="round" stroke-linejoin="round"/><path d="${d}" fill="none" stroke="${gold}" stroke-width="38" stroke-linecap="round" stroke-linejoin="round"/>`,
      `<path d="${d}" fill="none" stroke="#fffbeb" stroke-width="30" stroke-dasharray="3 11" opacity=".5"/><path d="${d}" fill="none" stroke="#047857" stroke-width="3" stroke-dasharray="12 9"/>`,
    );
    p.draw(dragonHead(f(ex), f(ey), f((Math.atan2(ey - py, ex - px) * 180) / Math.PI), '#fbbf24', '#b45309', '#047857'));
  }),
];

/** A night across the Milky Way: the sky down to `sky`, the galaxy's band tilted by `tilt` degrees, and stars. */
type MilkyWay = { sky: string; band: readonly Stop[]; y: number; width: number; tilt: number; stars: number; sizes: Sizes };

/** Draws the Milky Way's night, and returns the glow for the stars of a constellation drawn on it. */
export function milkyWay(p: Picture, { sky, band, y, width, tilt, stars, sizes }: MilkyWay): string {
  const night = p.linear('sky', ['#020617', sky]);
  const galaxy = p.radial('mw', band);
  const shine = p.glow('gl', 4);
  p.fill(night).draw(`<ellipse cx="300" cy="${y}" rx="420" ry="${width}" transform="rotate(${tilt} 300 ${y})" fill="${galaxy}"/>`);
  p.draw(dots(p.random, stars, [0, 0, 600, 600], sizes, '#fff', 0.7));
  return shine;
}

const STAR_FOX: Pair = [
  // The fox as a constellation across the Milky Way.
  onDark((p) => {
    const shine = milkyWay(p, {
      sky: '#1e1b4b',
      band: fading('#818cf8', 0.35),
      y: 300,
      width: 110,
      tilt: -32,
      stars: 80,
      sizes: [0.5, 1.6],
    });
    p.draw(foxStars(shine));
  }),
  // The fox in faceted paper, on warm light.
  onLight((p) => {
    p.fill(p.linear('bg', ['#fef3c7', '#fdba74'], DIAGONAL));
    p.draw(
      `<circle cx="300" cy="290" r="230" fill="#fff" opacity=".35"/><path d="${sparkles(p.random, 8, [20, 20, 560, 480], [5, 10])}" fill="#fff"/>`,
    );
    p.draw(foxFacets(RED_FOX));
  }),
];

/** Aurora's night sky as its campaigns show it: stars down to `starsTo`, and two aurora curtains ("y,sway,depth …"). */
export function polarNight(p: Picture, stars: number, starsTo: number, sizes: Sizes, curtains: string): void {
  const sky = p.linear('sky', ['#020617', '#134e4a']);
  const lights = ['#5eead4', '#a78bfa'].map((band, i) => p.linear(`b${i}`, [at(0, band, 0), at(0.7, band, 0.35), at(1, '#f0fdfa', 0.8)]));
  const soft = p.blur('bl', 8);
  p.fill(sky).draw(dots(p.random, stars, [0, 0, 600, starsTo], sizes, '#fff', 0.8));
  p.draw(
    ...numbers(curtains).map(
      ([y, sway, depth], i) => `<path d="${curtain(p.random, y!, sway!, depth!)}" fill="${lights[i]}" filter="${soft}"/>`,
    ),
  );
}

const AURORA_MYSTERY_BOX: Pair = [
  // A gift box with a question mark under the aurora.
  onDark((p) => {
    polarNight(p, 45, 300, [0.6, 1.7], '150,40,120 210,30,90');
    const box = p.linear('box', ['#14b8a6', '#0f766e']);
    const lid = p.linear('lid', ['#5eead4', '#14b8a6']);
    const glow = p.radial('gl', fading('#5eead4', 0.6));
    p.draw(`<ellipse cx="300" cy="476" rx="220" ry="40" fill="${glow}"/>`);
    p.draw(
      `<rect x="170" y="272" width="260" height="200" rx="10" fill="${box}"/><rect x="150" y="222" width="300" height="62" rx="10" fill="${lid}"/><rect x="150" y="276" width="300" height="8" fill="#0f766e" opacity=".4"/>`,
      `<rect x="281" y="222" width="38" height="250" fill="#fbbf24"/><rect x="170" y="350" width="260" height="36" fill="#fbbf24"/>`,
      `<path d="M300 222C268 168 200 170 222 210C232 226 270 228 300 222ZM300 222C332 168 400 170 378 210C368 226 330 228 300 222Z" fill="#fcd34d" stroke="#d97706" stroke-width="3"/><circle cx="300" cy="220" r="14" fill="#f59e0b"/>`,
      `<circle cx="300" cy="368" r="44" fill="#fffbeb" stroke="#d97706" stroke-width="4"/>`,
      text(300, 390, 62, '?', `text-anchor="middle" font-weight="800" fill="#0f766e"`),
      `<path d="${sparkles(p.random, 9, [60, 180, 480, 300], [5, 12])}" fill="#fff"/>`,
    );
  }),
  // The box opened in a beam of light, its lid flying off and a glowing question mark rising.
  onDark((p) => {
    const bg = p.linear('bg', ['#312e81', '#831843']);
    const beam = p.linear('beam', [at(0, '#fdf4ff', 0), at(1, '#fdf4ff', 0.75)]);
    const shine = p.glow('gl', 8);
    p.fill(bg).draw(dots(p.random, 40, [0, 0, 600, 520], [0.6, 2], '#fff', 0.7));
    p.draw(`<path d="M170 330L60 30H540L430 330L300 395Z" fill="${beam}" opacity=".6"/>`);
    // The open box, seen from above a corner: two sides, its mouth, the ribbon down each side.
    p.draw(facet('170,330 300,395 300,520 170,455', '#c026d3'), facet('430,330 300,395 300,520 430,455', '#86198f'));
    p.draw(facet('170,330 300,265 430,330 300,395', '#fdf4ff', ' opacity=".9"'));
    p.draw(facet('222,356 248,369 248,494 222,481', '#fde047'), facet('378,356 352,369 352,494 378,481', '#eab308'));
    const lid = [
      facet('-140,0 0,-68 140,0 0,68', '#e879f9'),
      facet('-140,0 0,68 0,92 -140,24', '#a21caf'),
      facet('140,0 0,68 0,92 140,24', '#701a75'),
      facet('-30,-53 110,15 84,28 -56,-40', '#fde047'),
    ];
    p.draw(`<g transform="translate(300 150) rotate(-14)">${lid.join('')}</g>`);
    p.draw(`<g filter="${shine}">${text(300, 330, 120, '?', `text-anchor="middle" font-weight="800" fill="#ffffff"`)}</g>`);
    p.draw(`<path d="${sparkles(p.random, 10, [80, 40, 440, 300], [5, 12])}" fill="#fff"/>`);
  }),
];

const LANTERN_FESTIVAL: Pair = [
  // Sky lanterns rising over a town by the river, their light on the water.
  onDark((p) => {
    const sky = p.linear('sky', ['#0f0a2e', at(0.55, '#3b0764'), '#9a3412']);
    const water = p.linear('w', ['#1e1038', '#05030f']);
    const paper = p.radial('l', ['#fffbeb', '#fcd34d', '#ea580c']);
    const halo = p.radial('h', fading('#fbbf24', 0.5));
    const soft = p.blur('bl', 3);
    // Far ones small and high, near ones large and low; drawn far to near.
    const flock = Array.from({ length: 15 }, () => {
      const y = p.random.range(40, 380);
      return [p.random.range(40, 560), y, 8 + (y / 380) * 20] as const;
    }).sort((a, b) => a[2] - b[2]);
    let lanterns = '',
      reflections = '';
    for (const [x, y, s] of flock) {
      lanterns += `<circle cx="${f(x)}" cy="${f(y)}" r="${f(s * 2.6)}" fill="${halo}"/><path d="M${f(x - s * 0.75)} ${f(y - s)}h${f(s * 1.5)}l${f(-s * 0.2)} ${f(s * 2)}h${f(-s * 1.1)}z" fill="${paper}"/>`;
      if (s > 14)
        reflections += `<rect x="${f(x - s * 0.5)}" y="${f(420 + (420 - y) * 0.12)}" width="${f(s)}" height="${f(s * 2.5)}" rx="${f(s * 0.5)}" fill="#fbbf24" opacity=".5"/>`;
    }
    p.fill(sky).draw(dots(p.random, 40, [0, 0, 600, 260], [0.5, 1.5], '#fff', 0.6));
    p.draw(
      `<path d="M0 420V392l40-6 10-30h16l8 24 40-4 20-28 24 26 60-8 14-40h12l16 46 70 2 30-22 40 14 60-10 24-30 20 30 60 8v36z" fill="#12081f"/>`,
      `<rect y="420" width="600" height="180" fill="${water}"/><g filter="${soft}">${reflections}</g>`,
      `<g stroke="#fcd34d" stroke-width="2" opacity=".3"><path d="M80 470h90M300 500h130M200 540h80M420 456h60"/></g>${lanterns}`,
    );
  }),
  // Two strings of red lanterns on a warm evening.
  onLight((p) => {
    const bg = p.linear('bg', ['#fff7ed', '#fed7aa']);
    const silk = p.linear('lan', ['#ef4444', '#dc2626', '#991b1b'], ACROSS);
    const lantern = (x: number, y: number, s: number) =>
      `<g transform="translate(${x} ${y}) scale(${s})"><path d="M0-60V-36" stroke="#78350f" stroke-width="3"/><rect x="-20" y="-40" width="40" height="10" rx="3" fill="#f59e0b"/><ellipse cx="0" cy="0" rx="48" ry="38" fill="${silk}"/>` +
      `<path d="M0-38V38M-24-33C-34-10-34 10-24 33M24-33C34-10 34 10 24 33" fill="none" stroke="#7f1d1d" stroke-width="2" opacity=".6"/><rect x="-20" y="30" width="40" height="10" rx="3" fill="#f59e0b"/><path d="M-6 40h12l-2 34h-8z" fill="#fbbf24"/></g>`;
    // Where each lantern hangs from its string; they alternate in size.
    const upper = points('80,120 200,150 320,160 440,148 560,118');
    const lower = points('40,300 170,330 300,338 430,330 560,300');
    p.fill(bg).draw(`<circle cx="300" cy="600" r="260" fill="#fdba74" opacity=".35"/>`);
    p.draw(`<path d="M-10 90Q300 210 610 90M-10 270Q300 380 610 270" fill="none" stroke="#78350f" stroke-width="3"/>`);
    p.draw(
      ...upper.map(([x, y], i) => lantern(x, y + 40, i % 2 ? 0.85 : 1.05)),
      ...lower.map(([x, y], i) => lantern(x, y + 40, i % 2 ? 1.1 : 0.8)),
    );
    p.draw(`<path d="${sparkles(p.random, 10, [20, 20, 560, 480], [4, 8])}" fill="#f59e0b" opacity=".8"/>`);
  }),
];

/** Paper in four shades, light to deep, for a flock of cranes. */
const CRANE_PAPERS: readonly (readonly [string, string, string, string])[] = [
  ['#fde68a', '#f59e0b', '#b45309', '#fef3c7'],
  ['#c7d2fe', '#6366f1', '#4338ca', '#e0e7ff'],
  ['#fecaca', '#ef4444', '#b91c1c', '#fee2e2'],
  ['#a7f3d0', '#10b981', '#047857', '#d1fae5'],
];

const PAPER_CRANE: Pair = [
  // One folded crane on a pastel sheet, its creases showing.
  onLight((p) => {
    const sheet = p.linear('bg', ['#e0f2fe', '#fce7f3'], DIAGONAL);
    const shadow = p.radial('sh', fading('#64748b', 0.35));
    p.fill(sheet).draw(`<circle cx="420" cy="200" r="150" fill="#fecdd3" opacity=".7"/>`);
    p.draw(`<g fill="none" stroke="#94a3b8" stroke-width="1.5" opacity=".5"><path d="M0 120L600 420M0 420L600 120M300 0V600"/></g>`);
    p.draw(`<ellipse cx="300" cy="470" rx="170" ry="20" fill="${shadow}"/>`, crane('#fb7185', '#e11d48', '#be123c', '#fda4af'));
  }),
  // A flock of cranes in four colours, flying at night.
  onDark((p) => {
    p.fill(p.linear('bg', ['#1e1b4b', '#0f766e'], DIAGONAL));
    p.draw(
      `<circle cx="300" cy="280" r="200" fill="#fde68a" opacity=".12"/><circle cx="300" cy="280" r="130" fill="#fde68a" opacity=".12"/>`,
    );
    p.draw(dots(p.random, 30, [0, 0, 600, 520], [0.6, 1.6], '#fff', 0.6));
    // Where each crane flies, how large, and in which paper.
    const flock = [
      [300, 270, 0.78, 0],
      [130, 130, 0.34, 1],
      [470, 120, 0.4, 2],
      [110, 420, 0.3, 3],
      [480, 400, 0.36, 1],
      [300, 80, 0.22, 3],
    ] as const;
    for (const [x, y, s, paper] of flock)
      p.draw(`<g transform="translate(${x} ${y}) scale(${s}) translate(-300 -300)">${crane(...CRANE_PAPERS[paper]!)}</g>`);
  }),
];

const CRYSTAL_OWL: Pair = [
  // An owl of ice crystal, glowing blue in the dark.
  onDark((p) => {
    const night = p.radial('bg', ['#1e3a8a', '#0b1020'], [0.5, 0.4, 0.7]);
    const eyes = p.radial('eye', ['#fef9c3', '#22d3ee']);
    const soft = p.blur('bl', 20);
    p.fill(night).draw(`<circle cx="300" cy="300" r="170" fill="#38bdf8" opacity=".25" filter="${soft}"/>`);
    p.draw(`<path d="${sparkles(p.random, 14, [30, 30, 540, 460], [4, 10])}" fill="#e0f2fe" opacity=".85"/>`);
    p.draw(owl(['#bae6fd', '#7dd3fc', '#38bdf8', '#0ea5e9', '#fef3c7'], eyes));
    // Light catching the facets.
    p.draw(
      `<path d="M200 190L300 170L262 176ZM400 190L338 176L300 170Z" fill="#fff" opacity=".5"/><path d="M220 320L300 330L250 350Z" fill="#fff" opacity=".25"/>`,
    );
  }),
  // The owl in violet crystal, on a branch under the moon.
  onLight((p) => {
    const sky = p.linear('bg', ['#f5f3ff', '#c4b5fd']);
    const eyes = p.radial('eye', ['#fef3c7', '#f59e0b']);
    p.fill(sky).draw(`<circle cx="470" cy="120" r="70" fill="#fffbeb"/><circle cx="470" cy="120" r="95" fill="#fffbeb" opacity=".35"/>`);
    p.draw(`<path d="${sparkles(p.random, 10, [30, 30, 540, 300], [4, 9])}" fill="#fff"/>`);
    p.draw(
      `<path d="M40 500C200 476 420 500 570 470" fill="none" stroke="#4c1d95" stroke-width="18" stroke-linecap="round"/><path d="M470 478c20-20 50-24 70-14c-20 10-40 14-70 14z" fill="#6d28d9"/>`,
    );
    p.draw(
      `<g transform="translate(300 480) scale(.92) translate(-300 -494)">${owl(['#e9d5ff', '#c084fc', '#a855f7', '#7e22ce', '#f59e0b'], eyes)}</g>`,
    );
  }),
];

const EMBER_PHOENIX: Pair = [
  // A phoenix of flame among embers.
  onDark((p) => {
    const night = p.radial('bg', ['#7c2d12', at(0.6, '#431407'), '#1c0a00'], [0.5, 0.45, 0.7]);
    const flames = [p.linear('f1', ['#dc2626', '#f97316', '#fde047']), p.linear('f2', ['#b91c1c', '#fb923c'])];
    const soft = p.blur('bl', 1.2);
    p.fill(night).draw(`<circle cx="300" cy="280" r="200" fill="#f97316" opacity=".12"/>`);
    p.draw(
      phoenix(['#fde047', '#f97316', '#fef08a', '#7c2d12'], flames),
      `<g filter="${soft}">${dots(p.random, 40, [40, 40, 520, 480], [1, 3.5], '#fdba74')}</g>`,
    );
  }),
  // The phoenix in cold fire, in a ring of light.
  onDark((p) => {
    const night = p.linear('bg', ['#0b1033', '#1e1b4b']);
    const flames = [p.linear('f1', ['#7e22ce', '#6366f1', '#a5f3fc']), p.linear('f2', ['#581c87', '#818cf8'])];
    const glow = p.radial('gl', fading('#a5f3fc', 0.35));
    p.fill(night).draw(`<circle cx="300" cy="280" r="240" fill="${glow}"/>`);
    p.draw(
      `<circle cx="300" cy="280" r="236" fill="none" stroke="#a5b4fc" stroke-width="2" opacity=".5"/><circle cx="300" cy="280" r="222" fill="none" stroke="#a5b4fc" stroke-width="1" stroke-dasharray="2 7" opacity=".6"/>`,
    );
    p.draw(
      phoenix(['#e0f2fe', '#a78bfa', '#fde68a', '#1e1b4b'], flames, 300, 300, 0.88),
      `<path d="${sparkles(p.random, 12, [40, 40, 520, 460], [3, 8])}" fill="#e0f2fe"/>`,
    );
  }),
];

const FROST_LYNX: Pair = [
  // The lynx's face in faceted ice, in falling snow.
  onLight((p) => {
    const sky = p.linear('bg', ['#f0f9ff', '#7dd3fc']);
    const eyes = p.radial('eye', ['#fef9c3', '#eab308']);
    const ice = { a: '#e0f2fe', b: '#bae6fd', c: '#7dd3fc', d: '#38bdf8', ink: '#0c4a6e', white: '#ffffff' };
    p.fill(sky).draw(
      `<g stroke="#fff" stroke-width="2" stroke-linecap="round" fill="none" opacity=".9">${snowfall(p.random, 14, 520, [0.7, 1.8])}</g>`,
    );
    // The ruff: four tufts down each cheek.
    for (const side of [-1, 1])
      for (let i = 0; i < 4; i++) {
        const y = 260 + i * 40;
        p.draw(
          facet(
            [
              [300 + side * (120 + i * 8), y],
              [300 + side * (175 + i * 4), y + 40],
              [300 + side * (118 + i * 6), y + 40],
            ],
            i % 2 ? ice.b : ice.a,
          ),
        );
      }
    // Ears with their black tufts, then the face, light from the left.
    p.draw(facet('190,96 168,226 246,192', ice.c), facet('410,96 432,226 354,192', ice.d));
    p.draw(`<path d="M190 96V50M410 96V50" stroke="${ice.ink}" stroke-width="7" stroke-linecap="round"/>`);
    p.draw(facet('192,124 182,210 232,190', ice.ink), facet('408,124 418,210 368,190', ice.ink));
    p.draw(facet('168,226 246,192 300,206 300,300 180,320', ice.b), facet('432,226 354,192 300,206 300,300 420,320', ice.c));
    p.draw(facet('180,320 300,300 300,430 210,400', ice.a), facet('420,320 300,300 300,430 390,400', ice.b));
    p.draw(facet('300,300 262,346 300,372 338,346', ice.white));
    p.draw(
      `<path d="M228 272q22-24 46 0q-24 14-46 0zM372 272q-22-24-46 0q24 14 46 0z" fill="${eyes}" stroke="${ice.ink}" stroke-width="3"/><path d="M250 262v20M350 262v20" stroke="${ice.ink}" stroke-width="5" stroke-linecap="round"/>`,
      `<path d="M284 332h32l-16 16z" fill="${ice.ink}"/><path d="M300 348v18M300 366q-14 12-28 4M300 366q14 12 28 4" fill="none" stroke="${ice.ink}" stroke-width="3" stroke-linecap="round"/>`,
    );
  }),
  // The lynx sitting on a snowdrift against the moon.
  onDark((p) => {
    const sky = p.linear('bg', ['#0b1033', '#1e3a8a']);
    const moon = p.radial('moon', ['#f8fafc', '#cbd5e1']);
    p.fill(sky).draw(dots(p.random, 50, [0, 0, 600, 420], [0.5, 1.6], '#fff', 0.8));
    p.draw(`<circle cx="300" cy="250" r="170" fill="${moon}"/><circle cx="300" cy="250" r="200" fill="#e2e8f0" opacity=".1"/>`);
    p.draw(
      `<path d="${below(bump(420, 50, 300, 150))}" fill="#e0f2fe"/><path d="${below((x) => 470 + 12 * Math.sin(x / 60))}" fill="#bae6fd"/>`,
    );
    p.draw(lynx('#0b1226'));
    p.draw(
      `<g fill="none" stroke="#e0f2fe" stroke-width="2" stroke-linecap="round" opacity=".8">${snowfall(p.random, 10, 500, [0.6, 1.3])}</g>`,
    );
  }),
];

const LUMEN_SUNRISE: Pair = [
  // The sun rising behind layered amber hills.
  onDark((p) => {
    const sky = p.linear('sky', ['#fef3c7', '#fdba74']);
    const sun = p.radial('sun', ['#fffbeb', at(0.55, '#fde047'), at(1, '#fde047', 0)]);
    const rays = Array.from({ length: 16 }, (_, i) => {
      const t = Math.PI + (i / 15) * Math.PI;
      return ray(300, 330, 700, t - 0.045, t + 0.045);
    });
    p.fill(sky).draw(
      `<path d="${rays.join('')}" fill="#fff" opacity=".3"/><circle cx="300" cy="330" r="200" fill="${sun}"/><circle cx="300" cy="330" r="84" fill="#fffbeb"/>`,
    );
    ['#fbbf24', '#f59e0b', '#d97706', '#b45309', '#78350f'].forEach((colour, i) => {
      const phase = p.random() * 6,
        sway = 26 - i * 3;
      p.draw(`<path d="${below((x) => 340 + i * 48 + sway * Math.sin(x / (90 + i * 20) + phase))}" fill="${colour}"/>`);
    });
    p.draw(
      `<path d="M120 150q10-10 20 0q10-10 20 0M180 118q7-7 14 0q7-7 14 0M440 170q8-8 16 0q8-8 16 0" fill="none" stroke="#78350f" stroke-width="3" stroke-linecap="round"/>`,
    );
  }),
  // A striped sun setting into the sea, its glitter on the water.
  onDark((p) => {
    const sky = p.linear('sky', ['#451a03', at(0.55, '#b45309'), '#fcd34d']);
    const sun = p.linear('sun', ['#fef3c7', '#f97316']);
    const sea = p.linear('sea', ['#78350f', '#1c0a00']);
    // The sun's lower half cut in bands that thin toward the horizon.
    const bands = [0, 1, 2, 3, 4, 5].map(
      (i) => `<rect x="0" y="${100 + i * 42 - (i > 2 ? (i - 2) * 6 : 0)}" width="600" height="${i > 2 ? 42 - (i - 2) * 8 : 42}"/>`,
    );
    const cut = p.clip('cut', `${bands.join('')}<rect y="0" width="600" height="100"/>`);
    p.fill(sky).draw(dots(p.random, 25, [0, 0, 600, 200], [0.5, 1.4], '#fff', 0.5));
    p.draw(`<circle cx="300" cy="340" r="190" fill="${sun}" clip-path="${cut}"/><rect y="340" width="600" height="260" fill="${sea}"/>`);
    const glitter = Array.from({ length: 9 }, (_, i) => {
      const w = 300 - i * 28 + p.random.range(-12, 12);
      return `<rect x="${f(300 - w / 2 + p.random.range(-20, 20))}" y="${352 + i * 20}" width="${f(w)}" height="${f(6 - i * 0.4)}" rx="3" opacity="${f(0.85 - i * 0.07)}"/>`;
    });
    p.draw(`<g fill="#fcd34d">${glitter.join('')}</g>`);
    p.draw(
      `<path d="M90 120q12-12 24 0q12-12 24 0M160 90q8-8 16 0q8-8 16 0M430 140q10-10 20 0q10-10 20 0" fill="none" stroke="#1c0a00" stroke-width="3" stroke-linecap="round"/>`,
    );
  }),
];

/** Candlelight: a flame and its halo (declared first: both candle pictures share them), and candles of wax. */
function candlelight(p: Picture) {
  const halo = p.radial('halo', [at(0, '#fde68a', 0.55), at(0.4, '#f59e0b', 0.18), at(1, '#f59e0b', 0)]);
  const fire = p.linear('fl', ['#fef3c7', at(0.6, '#fbbf24'), '#ea580c'], UP);
  return {
    flame: (x: number, y: number, s: number) =>
      `<g transform="translate(${x} ${y}) scale(${s})"><circle cy="-30" r="90" fill="${halo}"/><path d="M0-78C16-52 24-32 20-14A20 20 0 0 1-20-14C-24-32-14-52 0-78Z" fill="${fire}"/><path d="M0-40C7-30 10-22 8-14A8 8 0 0 1-8-14C-10-22-6-30 0-40Z" fill="#fffbeb"/><path d="M0 0V-12" stroke="#292524" stroke-width="3"/></g>`,
    /** A candle standing on y = 500, its top at `top`, `w` wide, melted wax running down from its rim. */
    candle: (wax: string, x: number, top: number, w: number, colour: string, shadow: string) =>
      `<rect x="${x - w / 2}" y="${top}" width="${w}" height="${500 - top}" fill="${wax}"/><ellipse cx="${x}" cy="${top}" rx="${w / 2}" ry="${w * 0.14}" fill="${colour}"/>` +
      `<path d="M${x - w / 2} ${top}c0 ${w * 0.4} ${w * 0.16} ${w * 0.4} ${w * 0.16} ${w * 0.9}s${w * 0.12} 0 ${w * 0.12}-${w * 0.6}s${w * 0.1}-${w * 0.2} ${w * 0.2} 0" fill="${colour}"/><ellipse cx="${x}" cy="${top}" rx="${w / 2 - 6}" ry="${w * 0.1}" fill="${shadow}" opacity=".35"/>`,
  };
}

const LUMEN_CANDLE: Pair = [
  // One tall candle in a dark room.
  onDark((p) => {
    const { flame, candle } = candlelight(p);
    const room = p.radial('bg', ['#44403c', '#0c0a09'], [0.5, 0.35, 0.75]);
    const wax = p.linear('wax', ['#fef3c7', at(0.6, '#fde68a'), '#d6b56a'], ACROSS);
    p.fill(room).draw(
      `<circle cx="300" cy="190" r="260" fill="#f59e0b" opacity=".07"/><ellipse cx="300" cy="500" rx="210" ry="26" fill="#fbbf24" opacity=".16"/>`,
    );
    p.draw(candle(wax, 300, 260, 110, '#fef3c7', '#b45309'), flame(300, 254, 1.25));
    p.draw(
      `<rect x="80" y="500" width="440" height="6" rx="3" fill="#78716c" opacity=".5"/>`,
      dots(p.random, 12, [120, 60, 360, 180], [0.8, 2], '#fde68a', 0.6),
    );
  }),
  // Three rose candles at dusk.
  onDark((p) => {
    const { flame, candle } = candlelight(p);
    const dusk = p.linear('bg', ['#2e1065', '#581c87']);
    const wax = p.linear('wax', ['#fecdd3', at(0.6, '#fda4af'), '#e11d48'], ACROSS);
    p.fill(dusk).draw(
      dots(p.random, 30, [0, 0, 600, 300], [0.5, 1.5], '#fff', 0.5),
      `<ellipse cx="300" cy="500" rx="250" ry="30" fill="#fbbf24" opacity=".14"/>`,
    );
    p.draw(
      candle(wax, 190, 360, 80, '#ffe4e6', '#9f1239'),
      candle(wax, 300, 280, 90, '#ffe4e6', '#9f1239'),
      candle(wax, 410, 330, 80, '#ffe4e6', '#9f1239'),
    );
    p.draw(
      flame(190, 355, 0.85),
      flame(300, 274, 1),
      flame(410, 325, 0.85),
      `<rect x="60" y="500" width="480" height="100" fill="#1e0b3a"/>`,
    );
  }),
];

const SPECTRUM = ['#ef4444', '#f97316', '#facc15', '#22c55e', '#06b6d4', '#3b82f6', '#8b5cf6'];

const LUMEN_PRISM: Pair = [
  // A beam of white light split by a glass prism into the spectrum.
  onDark((p) => {
    const night = p.linear('bg', ['#0f172a', '#1e1b4b'], DIAGONAL);
    const glass = p.linear('gl', [at(0, '#e0f2fe', 0.55), at(1, '#a5b4fc', 0.15)], DIAGONAL);
    const shine = p.glow('g', 5);
    const fan = SPECTRUM.map((c, i) => `<path d="M372 300L610 ${f(190 + i * 34)}L610 ${f(224 + i * 34)}Z" fill="${c}" opacity=".85"/>`);
    p.fill(night).draw(dots(p.random, 30, [0, 0, 600, 520], [0.5, 1.4], '#fff', 0.5));
    p.draw(`<path d="M0 360L262 290" stroke="#fff" stroke-width="8" filter="${shine}"/>${fan.join('')}`);
    p.draw(
      `<path d="M300 150L420 390H180Z" fill="${glass}" stroke="#e0f2fe" stroke-width="3" stroke-linejoin="round"/><path d="M300 150L330 390H270Z" fill="#fff" opacity=".12"/>`,
    );
    p.draw(`<path d="M262 290L372 300" stroke="#fff" stroke-width="4" opacity=".7"/>`);
  }),
  // A hexagonal crystal seen from above, throwing the spectrum round it.
  onLight((p) => {
    const paper = p.radial('bg', ['#ffffff', '#fbf6ec']);
    const crystal = p.linear('c1', ['#e0f2fe', '#c7d2fe'], DIAGONAL);
    const rays = SPECTRUM.map((c, i) => {
      const t = (i / 7) * Math.PI * 2 - Math.PI / 2 + 0.2;
      return `<path d="${ray(300, 280, 400, t - 0.11, t + 0.11)}" fill="${c}" opacity=".22"/>`;
    });
    const corner = (i: number, radius: number): Point => [
      300 + radius * Math.cos((i * Math.PI) / 3 - Math.PI / 2),
      280 + radius * Math.sin((i * Math.PI) / 3 - Math.PI / 2),
    ];
    const hexagon = (radius: number) => poly([0, 1, 2, 3, 4, 5].map((i) => corner(i, radius)));
    const facets = [0, 1, 2, 3, 4, 5].map((i) => {
      const a0 = (i * Math.PI) / 3 - Math.PI / 2,
        a1 = a0 + Math.PI / 3;
      const face = poly([
        [300, 280],
        [300 + 130 * Math.cos(a0), 280 + 130 * Math.sin(a0)],
        [300 + 130 * Math.cos(a1), 280 + 130 * Math.sin(a1)],
      ]);
      return `<path d="${face}" fill="${SPECTRUM[i + 1]}" opacity="${0.12 + (i % 3) * 0.08}"/>`;
    });
    p.fill(paper).draw(
      ...rays,
      `<path d="${hexagon(130)}" fill="${crystal}" stroke="#6366f1" stroke-width="3" stroke-linejoin="round"/>`,
      ...facets,
    );
    p.draw(
      `<path d="${hexagon(62)}" fill="#fff" opacity=".7"/><path d="M300 150V410M187.4 215L412.6 345M187.4 345L412.6 215" stroke="#6366f1" stroke-width="1.5" opacity=".45"/>`,
    );
    p.draw(`<path d="${sparkles(p.random, 7, [60, 60, 480, 400], [5, 11])}" fill="#f59e0b"/>`);
  }),
];

/** A nebula in deep space, in four colours: its clouds (drawn blurred, from the picture's paints n0…n3), stars over it. */
function nebula(
  p: Picture,
  centre: string,
  colours: readonly string[],
  clouds: (glows: string[], colours: readonly string[]) => string,
  spiral: boolean,
): void {
  const space = p.radial('bg', [centre, '#02030a']);
  const glows = colours.map((c, i) => p.radial(`n${i}`, [at(0, c, 0.85), at(0.5, c, 0.35), at(1, c, 0)]));
  const soft = p.blur('bl', 14);
  const shine = p.glow('gl', 3);
  const cloud = clouds(glows, colours);
  p.fill(space).draw(dots(p.random, 90, [0, 0, 600, 600], [0.4, 1.3], '#fff', 0.7));
  p.draw(`<g filter="${soft}"${spiral ? ' transform="rotate(-18 300 280)"' : ''}>${cloud}</g>`);
  if (spiral) p.draw(`<circle cx="300" cy="280" r="18" fill="#fffbeb" filter="${shine}"/>`);
  p.draw(
    `<g filter="${shine}"><path d="${sparkles(p.random, 7, [40, 40, 520, 460], [6, 14])}" fill="#fff"/></g>`,
    dots(p.random, 30, [100, 100, 400, 360], [0.6, 1.8], '#fff'),
  );
}

const DARK_NEBULA: Pair = [
  // Clouds of violet and cyan gas, crossed by a dark lane of dust.
  onDark((p) =>
    nebula(
      p,
      '#1e1b4b',
      ['#c026d3', '#7c3aed', '#22d3ee', '#f472b6'],
      (glows) => {
        let cloud = '';
        for (let i = 0; i < 9; i++)
          cloud += `<ellipse cx="${f(p.random.range(150, 450))}" cy="${f(p.random.range(150, 400))}" rx="${f(p.random.range(80, 180))}" ry="${f(p.random.range(40, 100))}" transform="rotate(${Math.round(p.random.range(-50, 10))} 300 280)" fill="${glows[i % 4]}"/>`;
        return (
          cloud +
          `<path d="M120 330C220 260 300 360 420 250C460 220 500 240 520 220" fill="none" stroke="#02030a" stroke-width="26" opacity=".7"/>`
        );
      },
      false,
    ),
  ),
  // A spiral galaxy in teal and gold.
  onDark((p) =>
    nebula(
      p,
      '#0c1a2a',
      ['#14b8a6', '#f59e0b', '#0ea5e9', '#fde68a'],
      (glows, colours) => {
        let cloud = '';
        for (let arm = 0; arm < 2; arm++) {
          let d = '';
          for (let i = 0; i <= 40; i++) {
            const t = i * 0.16,
              rr = 12 + 26 * t,
              a = t + arm * Math.PI;
            d += `${i ? 'L' : 'M'}${f(300 + rr * Math.cos(a))} ${f(280 + rr * Math.sin(a) * 0.62)}`;
          }
          cloud += `<path d="${d}" fill="none" stroke="${glows[arm]}" stroke-width="46" stroke-linecap="round"/><path d="${d}" fill="none" stroke="${colours[arm + 2]}" stroke-width="8" opacity=".55" stroke-linecap="round"/>`;
        }
        return cloud + `<ellipse cx="300" cy="280" rx="70" ry="44" fill="${glows[3]}"/>`;
      },
      true,
    ),
  ),
];

export const SALE_GOODS: Record<string, Pair> = {
  'aurora-dawn': AURORA_DAWN,
  'tide-whale': TIDE_WHALE,
  'neon-koi': NEON_KOI,
  'moon-rabbit': MOON_RABBIT,
  'jade-dragon': JADE_DRAGON,
  'star-fox': STAR_FOX,
  'aurora-mystery-box': AURORA_MYSTERY_BOX,
  'lantern-festival': LANTERN_FESTIVAL,
  'paper-crane': PAPER_CRANE,
  'crystal-owl': CRYSTAL_OWL,
  'ember-phoenix': EMBER_PHOENIX,
  'frost-lynx': FROST_LYNX,
  'lumen-sunrise': LUMEN_SUNRISE,
  'lumen-candle': LUMEN_CANDLE,
  'lumen-prism': LUMEN_PRISM,
  'dark-nebula': DARK_NEBULA,
};
