/**
 * The figures the demo's collectibles are drawn around, each in a fixed box so a picture places it with a transform:
 * koi, rabbit, crane, owl, phoenix, fox, lynx, lanterns, a trading card, swap arrows, an enamel pin. Colours come in;
 * a figure that needs a paint (a gradient, a glow) takes its `url(#…)` from the picture that declared it.
 */
import { at, f, facet, points, poly, type Point, type Stop } from './svg';
import { sparkle, star } from './shapes';

/** Polished gold, for rims, frames and medals (declared diagonally). */
export const GOLD: readonly Stop[] = ['#fef3c7', at(0.45, '#f59e0b'), '#92400e'];

/** Places a drawing made around (300, 280) at (x, y), scaled by s (a negative s mirrors it). */
export const place = (x: number, y: number, s: number, inner: string): string =>
  `<g transform="translate(${x} ${y}) scale(${s} ${Math.abs(s)}) translate(-300 -280)">${inner}</g>`;

/** A koi at the origin, head up, about 275 long: its body, and its tail and side fins. */
export const KOI_BODY = 'M0-110C36-106 46-40 30 20C20 60 8 84 0 95C-8 84-20 60-30 20C-46-40-36-106 0-110Z';
export const KOI_FINS =
  'M0 88C26 108 48 140 38 168C22 146 8 132 0 126C-8 132-22 146-38 168C-48 140-26 108 0 88ZM28-32C62-22 72 6 56 16C46 0 36-10 24-16ZM-28-32C-62-22-72 6-56 16C-46 0-36-10-24-16Z';
/** A lily pad at the origin, its notch at the centre. */
export const LILY_PAD = 'M0 0L52 -14A54 54 0 1 1 44 -30Z';

/** A sitting rabbit facing right, about 200 x 230, origin at its feet; the inner ears and the eye are optional. */
export function rabbit(fill: string, inner?: string, eye?: string): string {
  return (
    `<g fill="${fill}"><ellipse cx="-30" cy="-60" rx="70" ry="60"/><circle cx="32" cy="-128" r="38"/><ellipse cx="22" cy="-198" rx="12" ry="46" transform="rotate(-12 22 -198)"/><ellipse cx="48" cy="-194" rx="12" ry="46" transform="rotate(14 48 -194)"/>` +
    `<circle cx="-98" cy="-50" r="18"/><ellipse cx="-50" cy="-6" rx="48" ry="14"/><ellipse cx="22" cy="-8" rx="26" ry="11"/></g>` +
    (inner
      ? `<ellipse cx="22" cy="-196" rx="5" ry="32" transform="rotate(-12 22 -196)" fill="${inner}"/><ellipse cx="48" cy="-192" rx="5" ry="32" transform="rotate(14 48 -192)" fill="${inner}"/>`
      : '') +
    (eye ? `<circle cx="48" cy="-134" r="5" fill="${eye}"/><circle cx="69" cy="-120" r="3.5" fill="${inner}"/>` : '')
  );
}

/** A faceted origami crane, roughly centred on (300, 300), in four paper shades. */
export function crane(c1: string, c2: string, c3: string, c4: string): string {
  return (
    `<path d="M288 320L430 100L352 332Z" fill="${c3}"/><path d="M288 320L430 100L318 326Z" fill="${c2}" opacity=".7"/><path d="M318 372L352 350L470 196Z" fill="${c2}"/>` +
    `<path d="M248 350L284 372L150 194Z" fill="${c1}"/><path d="M150 194L172 208L118 228Z" fill="${c3}"/>` +
    `<path d="M236 338L300 316L300 392Z" fill="${c2}"/><path d="M300 316L364 338L300 392Z" fill="${c3}"/>` +
    `<path d="M252 332L190 88L326 318Z" fill="${c4}"/><path d="M252 332L190 88L286 326Z" fill="${c1}" opacity=".45"/>`
  );
}

/** A faceted owl, about 260 x 400, centred on x = 300: four plumage shades, the beak's colour, the eyes' paint. */
export function owl([l1, l2, l3, l4, beak]: readonly string[], eyes: string): string {
  return (
    `<path d="M200 190L214 118L262 176Z" fill="${l3}"/><path d="M400 190L386 118L338 176Z" fill="${l2}"/>` +
    `<path d="M200 190L300 170L300 330L220 320L178 262Z" fill="${l1}"/><path d="M400 190L300 170L300 330L380 320L422 262Z" fill="${l2}"/>` +
    `<path d="M220 320L300 330L300 492L204 428Z" fill="${l2}"/><path d="M380 320L300 330L300 492L396 428Z" fill="${l3}"/>` +
    `<path d="M300 360L262 392L300 440L338 392Z" fill="${l4}" opacity=".7"/><path d="M262 392L238 420L270 436ZM338 392L362 420L330 436Z" fill="${l4}" opacity=".45"/>` +
    `<path d="M220 320L204 428L168 380L178 290Z" fill="${l3}"/><path d="M380 320L396 428L432 380L422 290Z" fill="${l4}"/>` +
    `<circle cx="254" cy="250" r="40" fill="${l4}"/><circle cx="346" cy="250" r="40" fill="${l4}"/><circle cx="254" cy="250" r="27" fill="${eyes}"/><circle cx="346" cy="250" r="27" fill="${eyes}"/>` +
    `<circle cx="254" cy="252" r="12" fill="#0b1020"/><circle cx="346" cy="252" r="12" fill="#0b1020"/><circle cx="259" cy="245" r="4.5" fill="#fff"/><circle cx="351" cy="245" r="4.5" fill="#fff"/>` +
    `<path d="M300 268L286 290L300 314L314 290Z" fill="${beak}"/><path d="M262 494h76" stroke="${l4}" stroke-width="8" stroke-linecap="round"/>`
  );
}
/** The owl's joints, where the wire-frame owl's lines meet. */
export const OWL_JOINTS: readonly Point[] = [
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

/**
 * A phoenix with spread wings made of flame feathers, centred on (cx, cy) and scaled by s: body, crest, beak and eye
 * colours (light to deep), and the two paints its feathers alternate.
 */
export function phoenix([body, crest, beak, eye]: readonly string[], [f1, f2]: readonly string[], cx = 300, cy = 290, s = 1): string {
  const feather = (x: number, y: number, ang: number, len: number, w: number, fill: string) =>
    `<path d="M0 0C${f(w)} ${f(-len * 0.3)} ${f(w * 0.8)} ${f(-len * 0.7)} 0 ${f(-len)}C${f(-w * 0.35)} ${f(-len * 0.62)} ${f(-w * 0.55)} ${f(-len * 0.3)} 0 0Z" fill="${fill}" transform="translate(${f(x)} ${f(y)}) rotate(${f(ang)})"/>`;
  let g = '';
  for (const side of [-1, 1]) {
    for (let i = 0; i < 7; i++) g += feather(cx + side * 14, cy - 10, side * (22 + i * 11), 210 - i * 17, 34 - i * 1.5, i % 2 ? f2! : f1!);
  }
  for (let i = -2; i <= 2; i++) g += feather(cx + i * 6, cy + 30, 180 + i * 16, 190 - Math.abs(i) * 25, 26, Math.abs(i) % 2 ? f1! : f2!);
  g += `<path d="M${cx} ${cy - 92}C${cx + 26} ${cy - 60} ${cx + 24} ${cy + 20} ${cx} ${cy + 52}C${cx - 24} ${cy + 20} ${cx - 26} ${cy - 60} ${cx} ${cy - 92}Z" fill="${body}"/>`;
  g += `<path d="M${cx} ${cy - 120}c-6-22 4-36 14-44c-2 14 6 20 2 34c10-8 22-6 26-2c-16 2-24 12-30 20z" fill="${crest}"/><circle cx="${cx}" cy="${cy - 104}" r="17" fill="${body}"/>`;
  g += `<path d="M${cx + 14} ${cy - 108}l18 6-18 5z" fill="${beak}"/><circle cx="${cx + 5}" cy="${cy - 107}" r="3.2" fill="${eye}"/>`;
  return s === 1 ? g : `<g transform="translate(${cx} ${cy}) scale(${s}) translate(${-cx} ${-cy})">${g}</g>`;
}

/** Points named by a letter, written "A 170,110 C 150,262 …". */
function named(list: string): [string, Point][] {
  const words = list.split(' ');
  return Array.from({ length: words.length / 2 }, (_, i) => [words[2 * i]!, points(words[2 * i + 1]!)[0]!]);
}
/** The point's mirror image across the picture's middle line. */
const mirrored = ([x, y]: Point): Point => [600 - x, y];

/**
 * The fox's head (Star Fox), about 300 x 350 and centred on x = 300, as points named by a letter. Its left half: ear
 * tip A, cheek C, brow E, jaw H, eye J, inner ear P Q R, nostril S; mirrored on the right as B D F I K, T U V, W. On the
 * middle line: forehead G, muzzle M, chin N, nose tip X.
 */
const FOX = new Map<string, Point>(named('A 170,110 C 150,262 E 245,200 H 175,340 J 245,300 P 180,150 Q 232,204 R 162,240 S 282,436'));
for (const [right, left] of ['BA', 'DC', 'FE', 'IH', 'KJ', 'TP', 'UQ', 'VR', 'WS']) FOX.set(right!, mirrored(FOX.get(left!)!));
for (const [name, point] of named('G 300,218 M 300,352 N 300,452 X 300,460')) FOX.set(name, point);

/** The fox's points by their names, in order. */
const fox = (names: string): Point[] => [...names].map((name) => FOX.get(name)!);

/** Fur for the faceted fox: four shades (light to deep in any order), two cheek whites, the ears' and the ink's colours. */
export type Fur = { fur: readonly string[]; cheeks: readonly string[]; ear?: string; ink?: string };
/** The fox in the sale's own orange. */
export const RED_FOX: Fur = { fur: ['#ea580c', '#f97316', '#fb923c', '#c2410c'], cheeks: ['#fff7ed', '#fde7d3'] };

/** The fox's head in faceted paper. */
export function foxFacets({ fur: [o1, o2, o3, o4], cheeks: [w1, w2], ear = '#7c2d12', ink = '#1c1917' }: Fur): string {
  // Each facet by its corners' names, painted in this order in the shade under it.
  const facets = 'ACE BFD PQR TUV EGJ FGK CEJ DFK JGM GKM CJH DKI HJN IKN JMN KMN SWX'.split(' ');
  const shades = [o4, o1, ear, ear, o3, o2, o2, o1, o3, o2, o1, o4, w1, w2, w2, w1, ink];
  return (
    facets.map((names, i) => facet(fox(names), shades[i]!)).join('') +
    `<path d="M232 292q16-14 30 4q-16 8-30-4zM368 292q-16-14-30 4q16 8 30-4z" fill="${ink}"/>`
  );
}

/** The fox's head as a constellation: faint fill, lines, glowing stars (through `glow`, a filter) and two warm eyes. */
export function foxStars(glow: string, line = '#c7d2fe', starColour = '#fff', eye = '#fdba74', fill = '#fb923c'): string {
  // Its outline, its lines (pairs of the points' names), a star on every point, and the eyes.
  const lines = 'AC AE EG GF FB BD CH DI HN IN EJ FK JM KM MN CE DF'.split(' ').map(fox);
  const stars = fox('ABCDEFGHIJKMN').map(([x, y], i) => sparkle(x, y, i % 3 ? 9 : 14));
  const eyes = fox('JK').map(([x, y]) => `M${x - 6} ${y}a6 6 0 1 0 12 0a6 6 0 1 0 -12 0`);
  return (
    `<path d="${poly(fox('AEGFBDINHC'))}" fill="${fill}" opacity=".1"/>` +
    `<path d="${lines.map(([p, q]) => `M${p![0]} ${p![1]}L${q![0]} ${q![1]}`).join('')}" stroke="${line}" stroke-width="2" opacity=".65"/>` +
    `<g filter="${glow}"><path d="${stars.join('')}" fill="${starColour}"/><path d="${eyes.join('')}" fill="${eye}"/></g>`
  );
}

/** The lynx sitting (Frost Lynx), feet near y = 389, centred on x = 300. */
export const lynx = (fill: string): string =>
  `<g fill="${fill}"><path d="M240 380C232 320 250 270 300 262C350 270 368 320 360 380Z"/><circle cx="300" cy="232" r="46"/><path d="M262 206L252 150L288 192ZM338 206L348 150L312 192Z"/><path d="M249 154l4-30 4 28zM351 154l-4-30-4 28z"/>` +
  `<path d="M256 240L228 270L262 262ZM344 240L372 270L338 262Z"/><ellipse cx="272" cy="380" rx="22" ry="9"/><ellipse cx="328" cy="380" rx="22" ry="9"/><path d="M356 360q26-6 26 14q-14 4-26-2z"/></g>`;

/** A round paper lantern centred on (x, y), about 100 x 150 at s = 1, with its cord and tassel. */
export const paperLantern = (x: number, y: number, s: number, body: string, trim: string, rib: string): string =>
  `<g transform="translate(${x} ${y}) scale(${s})"><path d="M0-70V-36" stroke="${trim}" stroke-width="3"/><rect x="-20" y="-44" width="40" height="12" rx="3" fill="${trim}"/><ellipse rx="50" ry="40" fill="${body}"/>` +
  `<path d="M0-40V40M-26-35C-36-12-36 12-26 35M26-35C36-12 36 12 26 35" fill="none" stroke="${rib}" stroke-width="2.5" opacity=".6"/><rect x="-20" y="32" width="40" height="12" rx="3" fill="${trim}"/><path d="M-6 44h12l-3 40h-6z" fill="${trim}"/></g>`;

/** A sky lantern (a glowing paper bag, open at the bottom) centred on (x, y), in its `halo` paint. */
export const skyLantern = (x: number, y: number, s: number, halo: string, body: string): string =>
  `<g transform="translate(${x} ${y}) scale(${s})"><circle r="90" fill="${halo}"/><path d="M-30-46h60l-8 86h-44z" fill="${body}"/><path d="M-10-46l-4 86M10-46l4 86" stroke="#fff" stroke-width="2" opacity=".4"/><ellipse cy="40" rx="22" ry="5" fill="#fff7d6"/><circle cy="46" r="6" fill="#fffbeb"/></g>`;

/** A trading card, 240 x 340, centred on the origin: frame, art window with a star, text lines, pips. */
export const tradingCard = (frame: string, inner: string, art: string, mark: string): string =>
  `<rect x="-120" y="-170" width="240" height="340" rx="20" fill="${frame}"/><rect x="-104" y="-154" width="208" height="308" rx="12" fill="${inner}"/>` +
  `<rect x="-88" y="-138" width="176" height="170" rx="8" fill="${art}"/><path d="${star(0, -50, 5, 58, 24)}" fill="${mark}"/>` +
  `<rect x="-88" y="52" width="120" height="12" rx="6" fill="${frame}" opacity=".7"/><rect x="-88" y="76" width="176" height="8" rx="4" fill="${frame}" opacity=".35"/><rect x="-88" y="94" width="140" height="8" rx="4" fill="${frame}" opacity=".35"/>` +
  `<g fill="${mark}"><circle cx="-60" cy="134" r="8"/><circle cx="-34" cy="134" r="8"/><circle cx="-8" cy="134" r="8" opacity=".35"/></g>`;

/**
 * Two arrows chasing each other round a circle of radius R at the origin (trading, swapping), drawn `w` wide, their
 * heads at their ends.
 */
export function swapArrows(R: number, w: number, c1: string, c2: string): string {
  const pt = (deg: number, rr = R): Point => [rr * Math.cos((deg * Math.PI) / 180), rr * Math.sin((deg * Math.PI) / 180)];
  const arc = (a0: number, a1: number) => {
    const [x0, y0] = pt(a0),
      [x1, y1] = pt(a1);
    return `M${f(x0)} ${f(y0)}A${R} ${R} 0 0 1 ${f(x1)} ${f(y1)}`;
  };
  const head = (deg: number, colour: string) => {
    const [x, y] = pt(deg),
      [tx, ty] = pt(deg + 90, 1),
      [nx, ny] = pt(deg, 1);
    const tip: Point = [x + tx * w * 1.4, y + ty * w * 1.4];
    return `<path d="${poly([tip, [x + nx * w * 1.2, y + ny * w * 1.2], [x - nx * w * 1.2, y - ny * w * 1.2]])}" fill="${colour}"/>`;
  };
  return `<g fill="none" stroke-width="${w}"><path d="${arc(200, 330)}" stroke="${c1}"/><path d="${arc(20, 150)}" stroke="${c2}"/></g>${head(330, c1)}${head(150, c2)}`;
}

/** An enamel pin at the origin, radius about 120: a rim in `gold` (a paint), an enamel face, a heart or star mark. */
export function enamelPin(face: string, mark: string, kind: 'heart' | 'star', gold: string): string {
  const markPath =
    kind === 'heart' ? 'M0 52C-62 12-70-30-38-48C-18-58 0-42 0-26C0-42 18-58 38-48C70-30 62 12 0 52Z' : star(0, 4, 5, 62, 26);
  return (
    `<ellipse cx="10" cy="128" rx="110" ry="16" fill="#000" opacity=".18"/><circle r="124" fill="${gold}"/><circle r="106" fill="${face}"/>` +
    `<path d="M-80-50A106 106 0 0 1 40-98" fill="none" stroke="#fff" stroke-width="10" stroke-linecap="round" opacity=".35"/>` +
    `<path d="${markPath}" fill="${gold}"/><path d="${markPath}" fill="${mark}" transform="scale(.82)"/>`
  );
}
