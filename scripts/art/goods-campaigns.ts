/**
 * The pictures of the collectibles that gifts, exchanges and chain-up give, and of BAZAAR's: a cover and a second
 * picture each, 600 x 600, drawn under the caption that goods.ts adds.
 */
import { onDark, onLight, type Pair } from './drawing';
import {
  crane,
  enamelPin,
  foxFacets,
  foxStars,
  GOLD,
  lynx,
  OWL_JOINTS,
  owl,
  paperLantern,
  place,
  rabbit,
  RED_FOX,
  skyLantern,
  swapArrows,
  tradingCard,
} from './figures';
import { AURORA_DAWN, milkyWay, polarNight } from './goods-sales';
import { below, blossom, bump, dots, gridCell, snowfall, snowflake, sparkle, sparkles, star, sunburst } from './shapes';
import { ACROSS, at, DIAGONAL, f, fading, Picture, points, RISING } from './svg';

/** Market lights on a string: a warm halo round each bulb. */
const marketBulbs = (halo: string): string =>
  Array.from({ length: 11 }, (_, i) => {
    const x = f(20 + i * 56),
      y = f(40 + 40 * Math.sin((i / 10) * Math.PI));
    return `<circle cx="${x}" cy="${y}" r="26" fill="${halo}"/><circle cx="${x}" cy="${y}" r="8" fill="${i % 2 ? '#fde68a' : '#fb923c'}"/>`;
  }).join('');

const BAZAAR_FOX: Pair = [
  // The night market's fox under the market lights, above a striped awning.
  onDark((p) => {
    const night = p.linear('bg', ['#1c0b2b', at(0.6, '#4a1d3a'), '#7c2d12']);
    const halo = p.radial('h', fading('#fbbf24', 0.55));
    let awning = '';
    for (let i = 0; i < 10; i++)
      awning += `<path d="M${i * 60} 470h60v-40q-30 26-60 0z" fill="${i % 2 ? '#fde68a' : '#b91c1c'}" opacity=".9"/>`;
    p.fill(night).draw(dots(p.random, 30, [0, 60, 600, 200], [0.5, 1.4], '#fff', 0.5));
    p.draw(`<path d="M-10 30Q300 110 610 30" fill="none" stroke="#000" stroke-width="2" opacity=".5"/>${marketBulbs(halo)}`);
    p.draw(place(300, 262, 0.74, foxFacets(RED_FOX)), `<rect y="470" width="600" height="130" fill="#12061a"/>${awning}`);
  }),
  // The fox in red paper on a market stall's sign, under its striped canopy.
  onLight((p) => {
    const paper = p.linear('bg', ['#fff7ed', '#fed7aa']);
    let stripes = '';
    for (let i = 0; i < 10; i += 2) stripes += `<rect x="${i * 60}" width="60" height="96" fill="#c2410c"/>`;
    const scallops = 'M0 96' + 'q30 30 60 0'.repeat(10);
    p.fill(paper).draw(`<rect width="600" height="96" fill="#fff"/>${stripes}<path d="${scallops}V0H0z" fill="#9a3412" opacity=".2"/>`);
    p.draw(
      `<circle cx="300" cy="300" r="190" fill="#fdba74"/><circle cx="300" cy="300" r="190" fill="none" stroke="#9a3412" stroke-width="6" stroke-dasharray="2 14" stroke-linecap="round"/>`,
    );
    p.draw(
      place(
        300,
        300,
        0.62,
        foxFacets({ fur: ['#b91c1c', '#dc2626', '#ef4444', '#991b1b'], cheeks: ['#fff7ed', '#ffe4e6'], ear: '#450a0a' }),
      ),
    );
    p.draw(`<path d="${sparkles(p.random, 6, [40, 130, 520, 300], [5, 10])}" fill="#c2410c"/>`);
  }),
];

/** The cub: a small fox in light fur. */
const CUB = { fur: ['#fb923c', '#fdba74', '#fed7aa', '#f97316'], cheeks: ['#ffffff', '#fff7ed'], ear: '#9a3412', ink: '#431407' };

const GIFT_STAR_FOX_CUB: Pair = [
  // The cub sitting under its parent's constellation.
  onLight((p) => {
    const bg = p.linear('bg', ['#ede9fe', '#fbcfe8']);
    const shine = p.glow('gl', 3);
    p.fill(bg).draw(`<g opacity=".35">${place(300, 230, 0.9, foxStars(shine, '#7c3aed', '#8b5cf6', '#f472b6', '#8b5cf6'))}</g>`);
    p.draw(`<ellipse cx="300" cy="470" rx="150" ry="18" fill="#7c3aed" opacity=".15"/>`, place(300, 340, 0.5, foxFacets(CUB)));
    p.draw(`<path d="${sparkles(p.random, 8, [40, 40, 520, 380], [4, 9])}" fill="#fff"/>`);
  }),
  // The cub's constellation drawn on the moon, over a dark hill.
  onDark((p) => {
    const sky = p.linear('bg', ['#0b1033', '#312e81']);
    const moon = p.radial('moon', ['#fefce8', '#fde68a']);
    const shine = p.glow('gl', 4);
    p.fill(sky).draw(dots(p.random, 60, [0, 0, 600, 560], [0.5, 1.5], '#fff', 0.7));
    p.draw(
      `<circle cx="300" cy="250" r="150" fill="${moon}" opacity=".95"/><g opacity=".2" fill="#eab308"><circle cx="240" cy="200" r="22"/><circle cx="370" cy="310" r="28"/></g>`,
    );
    p.draw(
      place(300, 270, 0.46, foxStars(shine, '#312e81', '#1e1b4b', '#ea580c', '#1e1b4b')),
      `<path d="${below(bump(470, 30, 300, 200))}" fill="#1e1b4b"/>`,
    );
  }),
];

const STAR_FOX_CONSTELLATION: Pair = [
  // Two fox constellations across the Milky Way, joined by a dotted line.
  onDark((p) => {
    const shine = milkyWay(p, { sky: '#172554', band: fading('#38bdf8', 0.3), y: 280, width: 120, tilt: 28, stars: 90, sizes: [0.4, 1.5] });
    p.draw(place(180, 200, 0.52, foxStars(shine)), place(420, 330, 0.52, foxStars(shine, '#bae6fd', '#fff', '#fde047', '#38bdf8')));
    p.draw(`<path d="M300 232L318 232M300 232L340 290" stroke="#e0f2fe" stroke-width="2" stroke-dasharray="4 8" opacity=".7"/>`);
  }),
  // A red fox and a blue one face to face under one star.
  onDark((p) => {
    const sky = p.linear('sky', ['#1e1b4b', at(0.6, '#155e75'), '#0f766e']);
    const shine = p.glow('gl', 3);
    p.fill(sky).draw(
      dots(p.random, 60, [0, 0, 600, 380], [0.5, 1.5], '#fff', 0.8),
      `<path d="${below((x) => 440 - 40 * Math.sin(x / 190))}" fill="#042f2e"/>`,
    );
    p.draw(
      place(180, 310, 0.5, foxFacets(RED_FOX)),
      place(
        420,
        310,
        -0.5,
        foxFacets({ fur: ['#0891b2', '#22d3ee', '#67e8f9', '#0e7490'], cheeks: ['#ecfeff', '#cffafe'], ear: '#164e63', ink: '#083344' }),
      ),
    );
    p.draw(`<g filter="${shine}"><path d="${sparkle(300, 120, 18)}${sparkle(240, 90, 8)}${sparkle(362, 86, 8)}" fill="#fef9c3"/></g>`);
  }),
];

/** A comet flying toward (x1, y1) from (x0, y0): its tail in the picture's `tail` paint, its head glowing. */
const comet = (tail: string, glow: string, x0: number, y0: number, x1: number, y1: number, w: number, head: string): string =>
  `<path d="M${x0} ${y0}L${x1 - w * 0.5} ${y1 - w}A${w} ${w} 0 0 1 ${x1 + w * 0.5} ${y1 + w}Z" fill="${tail}"/><circle cx="${x1}" cy="${y1}" r="${w * 0.7}" fill="${head}" filter="${glow}"/>`;

const STAR_FOX_COMET: Pair = [
  // A comet streaking toward the fox's constellation.
  onDark((p) => {
    const sky = p.linear('sky', ['#030712', '#1e1b4b']);
    const tail = p.linear('tail', [at(0, '#a5f3fc', 0), at(1, '#e0f2fe', 0.75)], RISING);
    const shine = p.glow('gl', 5);
    p.fill(sky).draw(dots(p.random, 80, [0, 0, 600, 600], [0.4, 1.4], '#fff', 0.7), comet(tail, shine, 40, 520, 330, 250, 44, '#f0f9ff'));
    p.draw(place(420, 200, 0.5, foxStars(shine, '#e0f2fe', '#fff', '#fb923c', '#fb923c')));
  }),
  // The fox in paper under two golden comets.
  onDark((p) => {
    const sky = p.linear('bg', ['#3b0764', '#9d174d']);
    const tail = p.linear('tail', [at(0, '#fde68a', 0), at(1, '#fef3c7', 0.8)], RISING);
    const shine = p.glow('gl', 6);
    p.fill(sky).draw(dots(p.random, 40, [0, 0, 600, 560], [0.5, 1.5], '#fff', 0.6));
    p.draw(comet(tail, shine, -20, 300, 520, 90, 26, '#fffbeb'), comet(tail, shine, 60, 560, 470, 420, 16, '#fde68a'));
    p.draw(place(290, 290, 0.62, foxFacets(RED_FOX)));
  }),
];

/** A lucky coin with a square hole, in `hole`'s colour. */
const coin = (x: number, y: number, s: number, hole: string): string =>
  `<g transform="translate(${x} ${y}) scale(${s})"><circle r="26" fill="#fbbf24" stroke="#b45309" stroke-width="3"/><rect x="-8" y="-8" width="16" height="16" fill="${hole}" stroke="#b45309" stroke-width="2"/></g>`;

const BAZAAR_CRANE: Pair = [
  // A golden crane among lucky clouds and coins, on red.
  onDark((p) => {
    p.fill(p.radial('bg', ['#dc2626', '#7f1d1d']));
    p.draw(
      `<circle cx="300" cy="270" r="200" fill="#fbbf24" opacity=".22"/><circle cx="300" cy="270" r="150" fill="#fde68a" opacity=".25"/>`,
    );
    p.draw(
      `<g fill="none" stroke="#fcd34d" stroke-width="4" opacity=".5"><path d="M60 120c-20-30 30-50 40-20c10-30 60-10 40 20M460 470c-20-30 30-50 40-20c10-30 60-10 40 20"/></g>`,
    );
    p.draw(
      crane('#fde68a', '#f59e0b', '#b45309', '#fef3c7'),
      coin(110, 420, 1, '#991b1b'),
      coin(170, 455, 0.8, '#991b1b'),
      coin(490, 150, 0.9, '#991b1b'),
    );
  }),
  // A white crane before a red sun, over waves.
  onLight((p) => {
    p.fill(p.linear('bg', ['#fffbeb', '#fde68a'])).draw(`<circle cx="300" cy="250" r="170" fill="#dc2626"/>`);
    p.draw(
      `<g fill="none" stroke="#b45309" stroke-width="5" stroke-linecap="round" opacity=".7"><path d="M40 480q40-40 80 0t80 0M400 480q40-40 80 0t80 0M60 120q30-30 60 0"/></g>`,
    );
    p.draw(crane('#fecaca', '#ffffff', '#fee2e2', '#ffffff'), coin(480, 420, 0.9, '#fff7ed'), coin(120, 330, 0.7, '#fff7ed'));
  }),
];

const GIFT_MEMBER_CRANE: Pair = [
  // A crane rising from a member card.
  onLight((p) => {
    const bg = p.linear('bg', ['#fdf2f8', '#f9a8d4']);
    const card = p.linear('card', ['#db2777', '#831843'], DIAGONAL);
    p.fill(bg).draw(
      `<g transform="rotate(-8 300 380)"><rect x="110" y="290" width="380" height="230" rx="22" fill="${card}"/><rect x="140" y="330" width="56" height="42" rx="8" fill="#fcd34d"/><path d="M140 351h56M168 330v42" stroke="#b45309" stroke-width="2"/>`,
      `<rect x="140" y="450" width="200" height="12" rx="6" fill="#fff" opacity=".6"/><rect x="140" y="474" width="120" height="10" rx="5" fill="#fff" opacity=".35"/><circle cx="430" cy="470" r="22" fill="#fff" opacity=".25"/></g>`,
    );
    p.draw(place(300, 250, 0.62, crane('#fbcfe8', '#ec4899', '#be185d', '#fdf2f8')));
  }),
  // A white crane in a ring, on deep rose.
  onDark((p) => {
    p.fill(p.linear('bg', ['#831843', '#4c1d95']));
    p.draw(
      `<g fill="none" stroke="#f9a8d4"><circle cx="300" cy="290" r="210" stroke-width="3" opacity=".5"/><circle cx="300" cy="290" r="180" stroke-width="1.5" stroke-dasharray="3 9" opacity=".7"/></g>`,
    );
    p.draw(
      `<path d="${sparkles(p.random, 12, [30, 30, 540, 460], [4, 10])}" fill="#fce7f3"/>`,
      crane('#ffffff', '#fbcfe8', '#f472b6', '#fdf2f8'),
    );
  }),
];

const SWAP_STARTER_CARD: Pair = [
  // One starter card, and its shadow, in a green sunburst.
  onLight((p) => {
    p.fill(p.radial('bg', ['#f0fdf4', '#86efac'])).draw(`<g fill="#16a34a" opacity=".12">${sunburst(300, 270, 12, 0.2)}</g>`);
    p.draw(
      `<g transform="translate(300 270) rotate(-4)"><rect x="-114" y="-160" width="240" height="340" rx="20" fill="#14532d" opacity=".25" transform="translate(10 12)"/>${tradingCard('#15803d', '#f0fdf4', '#bbf7d0', '#16a34a')}</g>`,
    );
    p.draw(`<path d="${sparkles(p.random, 6, [40, 40, 520, 400], [6, 12])}" fill="#fff"/>`);
  }),
  // The two cards a trade-up takes, fanned.
  onDark((p) => {
    p.fill(p.linear('bg', ['#052e16', '#166534'])).draw(dots(p.random, 30, [0, 0, 600, 520], [0.6, 1.8], '#bbf7d0', 0.5));
    p.draw(`<g transform="translate(230 290) rotate(-14) scale(.8)">${tradingCard('#86efac', '#052e16', '#14532d', '#86efac')}</g>`);
    p.draw(`<g transform="translate(370 280) rotate(10) scale(.8)">${tradingCard('#fde047', '#f0fdf4', '#dcfce7', '#15803d')}</g>`);
  }),
];

const SWAP_CLUB_BADGE: Pair = [
  // A gold-rimmed shield with swap arrows, in a laurel.
  onLight((p) => {
    const bg = p.linear('bg', ['#ecfdf5', '#a7f3d0']);
    const gold = p.linear('gold', GOLD, DIAGONAL);
    const enamel = p.linear('sh', ['#22c55e', '#14532d']);
    const shield = 'M300 90L450 140V290C450 380 390 440 300 480C210 440 150 380 150 290V140Z';
    const leaves = Array.from({ length: 6 }, (_, i) => {
      const x = 128 - i * 4,
        y = 420 - i * 48;
      return `<ellipse cx="${x}" cy="${y}" rx="12" ry="26" transform="rotate(${-30 + i * 8} ${x} ${y})"/>`;
    }).join('');
    const laurel = (s: number) =>
      `<g transform="translate(300 0) scale(${s} 1) translate(-300 0)" fill="#15803d" opacity=".55">${leaves}</g>`;
    p.fill(bg).draw(laurel(1), laurel(-1));
    p.draw(
      `<path d="${shield}" fill="${gold}"/><path d="${shield}" fill="${enamel}" transform="translate(300 285) scale(.88) translate(-300 -285)"/>`,
    );
    p.draw(
      `<g transform="translate(300 280)">${swapArrows(72, 20, '#fde68a', '#ffffff')}</g><path d="${star(300, 280, 5, 22, 9)}" fill="#fde68a"/>`,
    );
  }),
  // The badge as a medal on a red ribbon.
  onDark((p) => {
    const bg = p.radial('bg', ['#166534', '#022c22']);
    const gold = p.linear('gold', GOLD, DIAGONAL);
    p.fill(bg).draw(`<g fill="#bbf7d0" opacity=".08">${sunburst(300, 260, 16, 0.12)}</g>`);
    p.draw(`<path d="M240 330L200 470L240 450L262 486L290 350ZM360 330L400 470L360 450L338 486L310 350Z" fill="#dc2626"/>`);
    p.draw(
      `<circle cx="300" cy="260" r="140" fill="${gold}"/><circle cx="300" cy="260" r="118" fill="#15803d"/><circle cx="300" cy="260" r="104" fill="none" stroke="#fde68a" stroke-width="2" stroke-dasharray="4 7"/>`,
    );
    p.draw(`<g transform="translate(300 260)">${swapArrows(62, 18, '#fde68a', '#bbf7d0')}</g>`);
  }),
];

const PERKS_PIN: Pair = [
  // A violet enamel pin with a heart.
  onLight((p) => {
    const bg = p.linear('bg', ['#f5f3ff', '#c4b5fd']);
    const gold = p.linear('gold', GOLD, DIAGONAL);
    p.fill(bg).draw(
      `<circle cx="300" cy="270" r="210" fill="#fff" opacity=".4"/><path d="${sparkles(p.random, 8, [40, 40, 520, 380], [5, 10])}" fill="#7c3aed" opacity=".5"/>`,
    );
    p.draw(`<g transform="translate(300 265) rotate(-10) scale(1.4)">${enamelPin('#7c3aed', '#f472b6', 'heart', gold)}</g>`);
  }),
  // A white one with a star, pinned on a lanyard's twill.
  onDark((p) => {
    const bg = p.linear('bg', ['#1e3a8a', '#172554']);
    const gold = p.linear('gold', GOLD, DIAGONAL);
    const twill = p.pattern('tw', 12, 12, '<rect width="6" height="12" fill="#fff" opacity=".05"/>', 'rotate(45)');
    p.fill(bg).fill(twill).draw(`<path d="M70 0V600M530 0V600" stroke="#fbbf24" stroke-width="3" stroke-dasharray="10 8" opacity=".5"/>`);
    p.draw(`<g transform="translate(300 265) rotate(8) scale(1.4)">${enamelPin('#ede9fe', '#6d28d9', 'star', gold)}</g>`);
  }),
];

const GIFT_WELCOME_LANTERN: Pair = [
  // A red lantern hanging from a blossoming branch.
  onLight((p) => {
    const bg = p.linear('bg', ['#fdf2f8', '#fbcfe8']);
    const silk = p.linear('lan', ['#f43f5e', '#e11d48', '#9f1239'], ACROSS);
    p.fill(bg).draw(
      `<path d="M0 80C120 60 200 120 330 90S520 40 600 70" fill="none" stroke="#78350f" stroke-width="6" stroke-linecap="round"/>`,
    );
    p.draw(
      blossom(90, 72, 1.2, '#fff', '#f59e0b'),
      blossom(200, 98, 0.9, '#fff', '#f59e0b'),
      blossom(470, 66, 1.1, '#fff', '#f59e0b'),
      blossom(560, 78, 0.8, '#fff', '#f59e0b'),
    );
    p.draw(`<path d="M300 92V150" stroke="#78350f" stroke-width="4"/>`, paperLantern(300, 290, 2.3, silk, '#f59e0b', '#881337'));
    p.draw(`<path d="${sparkles(p.random, 8, [40, 140, 520, 320], [4, 9])}" fill="#f43f5e" opacity=".5"/>`);
  }),
  // Two lanterns either side of an open, lit door.
  onDark((p) => {
    const bg = p.linear('bg', ['#2e1065', '#500724']);
    const doorway = p.radial('door', ['#fde68a', '#f59e0b']);
    const halo = p.radial('h', fading('#fb7185', 0.6));
    p.fill(bg).draw(dots(p.random, 30, [0, 0, 600, 200], [0.5, 1.4], '#fff', 0.6));
    p.draw(
      `<rect x="200" y="180" width="200" height="320" rx="100" ry="100" fill="${doorway}" opacity=".9"/><path d="M200 500V280A100 100 0 0 1 400 280V500" fill="none" stroke="#1c0a1f" stroke-width="24"/>`,
      `<rect x="80" y="500" width="440" height="100" fill="#1c0a1f"/>`,
    );
    p.draw(`<circle cx="130" cy="260" r="110" fill="${halo}"/><circle cx="470" cy="260" r="110" fill="${halo}"/>`);
    p.draw(paperLantern(130, 250, 1.1, '#e11d48', '#fbbf24', '#881337'), paperLantern(470, 250, 1.1, '#e11d48', '#fbbf24', '#881337'));
  }),
];

/** The last lantern's night: a sky, and the halo of a lit lantern. */
function lanternNight(p: Picture, dusk: string): string {
  p.fill(p.linear('sky', ['#0c0a1d', dusk]));
  return p.radial('h', [at(0, '#fbbf24', 0.7), at(0.4, '#f97316', 0.25), at(1, '#f97316', 0)]);
}

const BAZAAR_LAST_LANTERN: Pair = [
  // A row of dark lanterns over the market, one still lit.
  onDark((p) => {
    const halo = lanternNight(p, '#3b1d12');
    const row = [80, 170, 260, 340, 430, 520].map((x, i) => {
      const y = f(110 + 80 * Math.sin((x / 600) * Math.PI) * 0.9 + 60);
      return i === 3
        ? `<circle cx="${x}" cy="${y}" r="150" fill="${halo}"/>${paperLantern(x, y, 1, '#f97316', '#fde68a', '#9a3412')}`
        : paperLantern(x, y, 0.8, '#44403c', '#57534e', '#292524');
    });
    p.draw(
      dots(p.random, 40, [0, 0, 600, 300], [0.5, 1.4], '#fff', 0.6),
      `<path d="M-10 110Q300 190 610 110" fill="none" stroke="#57534e" stroke-width="3"/>`,
      ...row,
    );
    p.draw(
      `<path d="M0 470V440l60-30h110l30 30h150l40-40h110l60 40v30z" fill="#0c0a09"/><rect y="470" width="600" height="130" fill="#0c0a09"/>`,
    );
  }),
  // The last lantern let go, rising over dark water.
  onDark((p) => {
    const halo = lanternNight(p, '#1e1b4b');
    p.draw(dots(p.random, 70, [0, 0, 600, 380], [0.5, 1.5], '#fff', 0.7));
    p.draw(
      `<path d="${below((x) => 400 - 24 * Math.sin(x / 120 + 1))}" fill="#0f0d22"/><rect y="420" width="600" height="180" fill="#0b0a1a"/>`,
    );
    p.draw(
      `<g opacity=".5"><rect x="322" y="440" width="36" height="90" rx="18" fill="#f97316"/></g><g stroke="#fbbf24" stroke-width="2" opacity=".35"><path d="M260 470h160M300 500h80M230 540h120"/></g>`,
    );
    p.draw(skyLantern(340, 200, 1.4, halo, '#fb923c'));
  }),
];

const GIFT_NEW_YEAR_RABBIT: Pair = [
  // A white rabbit among plum blossom and lucky clouds, on New Year red.
  onDark((p) => {
    p.fill(p.radial('bg', ['#dc2626', '#7f1d1d']));
    p.draw(
      `<circle cx="300" cy="280" r="210" fill="none" stroke="#fbbf24" stroke-width="4" opacity=".6"/><circle cx="300" cy="280" r="190" fill="#fbbf24" opacity=".14"/>`,
    );
    p.draw(`<path d="M60 80q60-30 110 10M430 70q60-10 110 30" fill="none" stroke="#451a03" stroke-width="6" stroke-linecap="round"/>`);
    p.draw(
      blossom(110, 70, 1, '#fecdd3', '#fbbf24'),
      blossom(160, 90, 0.7, '#fecdd3', '#fbbf24'),
      blossom(480, 75, 1.1, '#fecdd3', '#fbbf24'),
      blossom(540, 100, 0.8, '#fecdd3', '#fbbf24'),
    );
    p.draw(
      `<path d="M150 420c-30 0-30-34 0-34c4-24 40-24 44 0c24-6 36 18 18 34zM360 430c-30 0-30-34 0-34c4-24 40-24 44 0c24-6 36 18 18 34z" fill="#fcd34d" opacity=".8"/>`,
      `<g transform="translate(300 420)">${rabbit('#ffffff', '#fda4af', '#7f1d1d')}</g>`,
    );
  }),
  // A golden rabbit in a medallion under fireworks.
  onDark((p) => {
    const bg = p.linear('bg', ['#1c0a00', '#7f1d1d']);
    const gold = p.linear('gold', GOLD, DIAGONAL);
    const shine = p.glow('gl', 3);
    const firework = (x: number, y: number, R: number, colour: string) => {
      const sparks = Array.from({ length: 14 }, (_, i) => {
        const a = (i / 14) * Math.PI * 2;
        return `<path d="M${f(x + R * 0.4 * Math.cos(a))} ${f(y + R * 0.4 * Math.sin(a))}L${f(x + R * Math.cos(a))} ${f(y + R * Math.sin(a))}"/>`;
      });
      return `<g stroke="${colour}" stroke-width="3" stroke-linecap="round" filter="${shine}">${sparks.join('')}</g>`;
    };
    p.fill(bg).draw(firework(130, 130, 80, '#fbbf24'), firework(470, 110, 64, '#f472b6'), firework(500, 300, 44, '#fde68a'));
    p.draw(
      `<circle cx="300" cy="330" r="150" fill="#b91c1c"/><circle cx="300" cy="330" r="150" fill="none" stroke="${gold}" stroke-width="10"/>`,
    );
    p.draw(`<g transform="translate(290 440) scale(.85)">${rabbit(gold)}</g>`);
  }),
];

const GIFT_AFTERGLOW_OWL: Pair = [
  // An owl in sunset colours against the afterglow.
  onDark((p) => {
    const sky = p.linear('bg', ['#4c1d95', '#db2777', '#f97316']);
    const eyes = p.radial('eye', ['#fffbeb', '#fb923c']);
    p.fill(sky).draw(
      `<circle cx="300" cy="470" r="230" fill="#fde68a" opacity=".35"/><circle cx="300" cy="470" r="160" fill="#fef3c7" opacity=".45"/>`,
    );
    p.draw(`<path d="${sparkles(p.random, 6, [40, 30, 520, 140], [4, 8])}" fill="#fff" opacity=".8"/>`);
    p.draw(
      owl(['#fed7aa', '#fb923c', '#f97316', '#c2410c', '#7c2d12'], eyes),
      `<path d="${below((x) => 500 + 10 * Math.sin(x / 70))}" fill="#3b0764"/>`,
    );
  }),
  // The owl's silhouette on a branch before the setting sun.
  onDark((p) => {
    const sky = p.linear('bg', ['#fb923c', at(0.6, '#f43f5e'), '#581c87']);
    const eyes = p.radial('eye', ['#fef9c3', '#fbbf24']);
    const silhouette = owl(['#2e1065', '#2e1065', '#2e1065', '#2e1065', '#fbbf24'], eyes);
    p.fill(sky).draw(`<circle cx="300" cy="300" r="200" fill="#fde68a" opacity=".85"/>`);
    p.draw(
      `<g fill="none" stroke="#fde68a" stroke-width="2" opacity=".5"><path d="M0 180h600M0 220h600M0 400h600" stroke-dasharray="40 30"/></g>`,
    );
    p.draw(`<g transform="translate(300 470) scale(.85) translate(-300 -494)">${silhouette}</g>`);
    p.draw(
      `<path d="M20 480C180 458 420 470 580 446" fill="none" stroke="#2e1065" stroke-width="20" stroke-linecap="round"/><path d="M440 466c24-30 60-30 80-20c-24 14-50 20-80 20z" fill="#2e1065"/>`,
    );
    p.draw(`<path d="${below((x) => 520 + 10 * Math.sin(x / 60))}" fill="#2e1065"/>`);
  }),
];

const CHAIN_IRON_OWL: Pair = [
  // The figurine: an owl of riveted iron plates on a blueprint grid.
  onDark((p) => {
    const bg = p.radial('bg', ['#3730a3', '#1e1b4b']);
    const grid = p.pattern('grid', 30, 30, gridCell('#a5b4fc', '.18'));
    const eyes = p.radial('eye', ['#fef3c7', '#f97316']);
    const rivets = points('230,200 370,200 214,300 386,300 240,400 360,400 300,460').map(
      ([x, y]) => `<circle cx="${x}" cy="${y}" r="5" fill="#e5e7eb"/><circle cx="${x + 1}" cy="${y + 1}" r="2" fill="#374151"/>`,
    );
    p.fill(bg).fill(grid).draw(`<circle cx="300" cy="300" r="210" fill="#818cf8" opacity=".12"/>`);
    p.draw(owl(['#9ca3af', '#6b7280', '#4b5563', '#374151', '#d97706'], eyes), ...rivets);
  }),
  // Its digital twin: the same owl as a glowing wire frame, in a viewfinder.
  onDark((p) => {
    const bg = p.linear('bg', ['#0b1020', '#1e1b4b']);
    const grid = p.pattern('grid', 30, 30, gridCell('#a5b4fc', '.18'));
    const shine = p.glow('gl', 3);
    // Every plate of the owl in one see-through fill, so its edges show (the colours given are replaced; the stroke
    // under its feet keeps 'd', no colour, and takes the frame's).
    const wire = owl(['a', 'b', 'c', 'd', 'e'], 'eyes').replace(/fill="[^"]*"/g, 'fill="#312e81" fill-opacity=".35"');
    p.fill(bg).fill(grid).draw(`<g stroke="#67e8f9" stroke-width="2.5" stroke-linejoin="round" filter="${shine}">${wire}</g>`);
    p.draw(`<g fill="#cffafe">${OWL_JOINTS.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="5"/>`).join('')}</g>`);
    p.draw(`<path d="M60 80h60v40M540 80h-60v40M60 420v40h60M540 420v40h-60" fill="none" stroke="#67e8f9" stroke-width="3" opacity=".6"/>`);
  }),
];

const GIFT_AURORA_CODE_LYNX: Pair = [
  // The lynx cub's silhouette on a snowdrift under the aurora.
  onDark((p) => {
    polarNight(p, 50, 320, [0.5, 1.6], '150,40,110 220,30,80');
    const glow = p.radial('gl', fading('#99f6e4', 0.55));
    p.draw(
      `<path d="${below(bump(440, 50, 300, 170))}" fill="#e0f2fe"/><path d="${below((x) => 490 + 10 * Math.sin(x / 60))}" fill="#bae6fd"/>`,
    );
    p.draw(
      `<circle cx="300" cy="300" r="150" fill="${glow}"/><g transform="translate(300 398) scale(.8) translate(-300 -389)">${lynx('#042f2e')}</g>`,
    );
  }),
  // The cub before a great snowflake.
  onLight((p) => {
    p.fill(p.linear('bg', ['#f0f9ff', '#bae6fd']));
    p.draw(
      `<g fill="none" stroke="#fff" stroke-linecap="round">${snowflake(300, 250, 20, 0.6)}${snowfall(p.random, 12, 480, [0.8, 1.8], 2)}</g>`,
    );
    p.draw(`<ellipse cx="300" cy="420" rx="170" ry="22" fill="#7dd3fc" opacity=".5"/>`);
    p.draw(
      `<g transform="translate(300 420) scale(.9) translate(-300 -389)">${lynx('#0c4a6e')}</g><g fill="#e0f2fe"><circle cx="282" cy="228" r="5"/><circle cx="318" cy="228" r="5"/></g>`,
    );
  }),
];

/** Aurora Dawn as a framed print (the chain-up twin's picture): its own picture drawn inside a frame. */
function auroraDawnPrint(v: 0 | 1, p: Picture): string {
  const print = new Picture(`${p.id}a`, 600, 600, p.random);
  AURORA_DAWN[v].draw(print);
  p.adopt(print);
  return `<svg x="140" y="110" width="320" height="320" viewBox="0 0 600 600">${print.body}</svg>`;
}

const AURORA_DAWN_PRINT: Pair = [
  // The print in a wooden frame with a mat, hanging on a wall.
  onLight((p) => {
    const print = auroraDawnPrint(0, p);
    const wall = p.linear('wall', ['#f5f5f4', '#d6d3d1']);
    const wood = p.linear('wood', ['#78350f', '#451a03'], DIAGONAL);
    p.fill(wall).draw(
      `<path d="M300 0V60" stroke="#57534e" stroke-width="2"/><path d="M300 60L190 70M300 60L410 70" stroke="#57534e" stroke-width="2"/>`,
    );
    p.draw(`<rect x="82" y="72" width="436" height="396" fill="#000" opacity=".15" transform="translate(8 10)"/>`);
    p.draw(`<rect x="82" y="72" width="436" height="396" fill="${wood}"/><rect x="100" y="90" width="400" height="360" fill="#fafaf9"/>`);
    p.draw(print, `<rect x="140" y="110" width="320" height="320" fill="none" stroke="#d6d3d1" stroke-width="2"/>`);
  }),
  // The print in a gilt frame under a gallery spotlight, with its label.
  onDark((p) => {
    const print = auroraDawnPrint(1, p);
    const spot = p.radial('spot', fading('#fef3c7', 0.35), [0.5, 0.3, 0.6]);
    const gold = p.linear('gold', GOLD, DIAGONAL);
    p.fill('#1c1917').fill(spot);
    p.draw(`<rect x="110" y="80" width="380" height="380" fill="${gold}"/><rect x="126" y="96" width="348" height="348" fill="#292524"/>`);
    p.draw(print, `<rect x="260" y="490" width="80" height="14" rx="3" fill="#a8a29e" opacity=".6"/>`);
  }),
];

export const CAMPAIGN_GOODS: Record<string, Pair> = {
  'bazaar-fox': BAZAAR_FOX,
  'gift-star-fox-cub': GIFT_STAR_FOX_CUB,
  'star-fox-constellation': STAR_FOX_CONSTELLATION,
  'star-fox-comet': STAR_FOX_COMET,
  'bazaar-crane': BAZAAR_CRANE,
  'gift-member-crane': GIFT_MEMBER_CRANE,
  'swap-starter-card': SWAP_STARTER_CARD,
  'swap-club-badge': SWAP_CLUB_BADGE,
  'perks-pin': PERKS_PIN,
  'gift-welcome-lantern': GIFT_WELCOME_LANTERN,
  'bazaar-last-lantern': BAZAAR_LAST_LANTERN,
  'gift-new-year-rabbit': GIFT_NEW_YEAR_RABBIT,
  'gift-afterglow-owl': GIFT_AFTERGLOW_OWL,
  'chain-iron-owl': CHAIN_IRON_OWL,
  'gift-aurora-code-lynx': GIFT_AURORA_CODE_LYNX,
  'aurora-dawn-print': AURORA_DAWN_PRINT,
};
