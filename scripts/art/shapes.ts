/**
 * The pieces of scenery the demo's pictures share: skies of dots and sparkles, hills, ridges and aurora curtains, rays,
 * stars, cubes, snowflakes and blossoms. Each returns SVG markup or path data; those that scatter take the picture's
 * Random, and draw in the order of its numbers, so the same call always draws the same thing.
 */
import type { Random } from './random';
import { f, poly, type Point } from './svg';

/** Where something is scattered: x, y, width, height. */
export type Box = readonly [number, number, number, number];
/** The smallest and the largest of what is scattered. */
export type Sizes = readonly [number, number];

/** A field of round dots (stars, bubbles, embers): zero-length round-capped strokes in three sizes. */
export function dots(r: Random, count: number, [x0, y0, w, h]: Box, [r0, r1]: Sizes, colour: string, opacity = 1): string {
  const buckets: string[][] = [[], [], []];
  for (let i = 0; i < count; i++) buckets[Math.min(2, Math.floor(r() * 3))]!.push(`M${f(x0 + r() * w)} ${f(y0 + r() * h)}h0`);
  const paths = buckets
    .map((b, k) => (b.length ? `<path d="${b.join('')}" stroke-width="${f(2 * (r0 + ((r1 - r0) * (k + 0.5)) / 3))}"/>` : ''))
    .join('');
  return `<g fill="none" stroke="${colour}" stroke-linecap="round"${opacity !== 1 ? ` opacity="${opacity}"` : ''}>${paths}</g>`;
}

/** A four-pointed sparkle of radius s, as path data. */
export const sparkle = (x: number, y: number, s: number): string =>
  `M${f(x)} ${f(y - s)}Q${f(x)} ${f(y)} ${f(x + s)} ${f(y)}Q${f(x)} ${f(y)} ${f(x)} ${f(y + s)}Q${f(x)} ${f(y)} ${f(x - s)} ${f(y)}Q${f(x)} ${f(y)} ${f(x)} ${f(y - s)}Z`;

/** Sparkles scattered over a box, as path data. */
export const sparkles = (r: Random, count: number, [x0, y0, w, h]: Box, [s0, s1]: Sizes): string =>
  Array.from({ length: count }, () => sparkle(x0 + r() * w, y0 + r() * h, r.range(s0, s1))).join('');

/** The closed area below the curve y = fn(x), down to the picture's bottom edge (hills, sea, snow), as path data. */
export function below(fn: (x: number) => number, w = 600, h = 600, step = 15): string {
  let d = `M0 ${h}`;
  for (let x = 0; x <= w; x += step) d += `L${x} ${f(fn(x))}`;
  return `${d}L${w} ${h}Z`;
}

/** A hill: a bump of `height` at x = `centre`, `spread` wide, on ground at `base`. */
export const bump =
  (base: number, height: number, centre: number, spread: number) =>
  (x: number): number =>
    base - height * Math.exp(-(((x - centre) / spread) ** 2));

/** A jagged mountain ridge between yTop and yBottom, as path data. */
export function ridge(r: Random, yTop: number, yBottom: number, w = 600, h = 600): string {
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

/** An aurora curtain: a ribbon whose lower edge waves about yBase, its thickness varying along x, as path data. */
export function curtain(r: Random, yBase: number, amplitude: number, thickness: number, w = 600): string {
  const ph = r() * 6.28,
    ph2 = r() * 6.28,
    k = r.range(1.2, 2.6);
  const top: Point[] = [],
    bottom: Point[] = [];
  for (let x = -30; x <= w + 30; x += 30) {
    const y = yBase + amplitude * Math.sin((x / w) * k * Math.PI + ph);
    const t = thickness * (0.55 + 0.45 * Math.sin((x / w) * 2.3 * Math.PI + ph2));
    top.push([x, y - t]);
    bottom.push([x, y]);
  }
  return poly([...top, ...bottom.reverse()]);
}

/** A ray from (cx, cy), `length` long, between two angles (radians), as path data. */
export function ray(cx: number, cy: number, length: number, from: number, to: number): string {
  const end = (a: number) => `${f(cx + length * Math.cos(a))} ${f(cy + length * Math.sin(a))}`;
  return `M${cx} ${cy}L${end(from)}L${end(to)}Z`;
}

/** A regular star (or seal) of n points, as path data. */
export function star(cx: number, cy: number, n: number, outer: number, inner: number, rotation = -90): string {
  const points: Point[] = [];
  for (let i = 0; i < n * 2; i++) {
    const a = ((rotation + (i * 180) / n) * Math.PI) / 180,
      rr = i % 2 ? inner : outer;
    points.push([cx + rr * Math.cos(a), cy + rr * Math.sin(a)]);
  }
  return poly(points);
}

/** An isometric cube of edge s standing on its bottom corner (x, y): top, left and right faces. */
export function cube(x: number, y: number, s: number, top: string, left: string, right: string): string {
  const h = s / 2;
  // The corners: the middle one where the three faces meet, then round the outline.
  const centre: Point = [x, y - s],
    peak: Point = [x, y - 2 * s],
    bottom: Point = [x, y],
    leftUp: Point = [x - s, y - s - h],
    rightUp: Point = [x + s, y - s - h],
    leftDown: Point = [x - s, y - h],
    rightDown: Point = [x + s, y - h];
  const face = (points: Point[], fill: string) => `<path d="${poly(points)}" fill="${fill}"/>`;
  return `<g>${face([centre, leftUp, peak, rightUp], top)}${face([leftUp, centre, bottom, leftDown], left)}${face([rightUp, centre, bottom, rightDown], right)}</g>`;
}

/** A six-armed snowflake at (x, y), scaled by s; stroked by the group it is drawn in. */
export const snowflake = (x: number, y: number, s: number, strokeWidth?: number): string =>
  `<g transform="translate(${f(x)} ${f(y)}) scale(${f(s)})"${strokeWidth === undefined ? '' : ` stroke-width="${strokeWidth}"`}><path d="M0-10V10M-8.7-5L8.7 5M-8.7 5L8.7-5M-3-7L0-4 3-7M-3 7L0 4 3 7"/></g>`;

/** A five-petalled blossom at (x, y), scaled by s. */
export const blossom = (x: number, y: number, s: number, petal: string, heart: string): string =>
  `<g transform="translate(${x} ${y}) scale(${s})">${[0, 72, 144, 216, 288].map((a) => `<circle cy="-12" r="10" fill="${petal}" transform="rotate(${a})"/>`).join('')}<circle r="6" fill="${heart}"/></g>`;

/** Snowflakes scattered over the picture, from the top down to `bottom`, stroked by the group they are drawn in. */
export const snowfall = (r: Random, count: number, bottom: number, [s0, s1]: Sizes, strokeWidth?: number): string =>
  Array.from({ length: count }, () => snowflake(r.range(20, 580), r.range(20, bottom), r.range(s0, s1), strokeWidth)).join('');

/** A sunburst: `count` rays round (cx, cy), each `width` radians wide, filled by the group they are drawn in. */
export const sunburst = (cx: number, cy: number, count: number, width: number): string =>
  Array.from({ length: count }, (_, i) => {
    const a = (i * Math.PI) / (count / 2);
    return `<path d="${ray(cx, cy, 500, a, a + width)}"/>`;
  }).join('');

/** One cell of a 30-pixel grid (a pattern's tile): its top and left lines. */
export const gridCell = (stroke: string, opacity: string): string =>
  `<path d="M30 0H0V30" fill="none" stroke="${stroke}" stroke-width="1" opacity="${opacity}"/>`;
