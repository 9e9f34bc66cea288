/**
 * The SVG the demo art is written in (docs/decisions.md, "Demo art"): numbers, text, colours, gradients, filters, and
 * the picture that collects its definitions and its drawing. Everything here writes text the same way on every run:
 * the art test (scripts/generate-art.test.ts) compares the files byte for byte.
 */
import type { Random } from './random';

export type Point = readonly [number, number];

const FONT = "system-ui, -apple-system, 'Segoe UI', sans-serif";

/** A coordinate to a tenth: small files, no visible loss. */
export const f = (n: number): number => Math.round(n * 10) / 10;

export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A closed outline through the points. */
export const poly = (points: readonly Point[]): string => 'M' + points.map(([x, y]) => `${f(x)} ${f(y)}`).join('L') + 'Z';

/** A text in the house font; `attributes` follow the size. */
export const text = (x: number, y: number, size: number, content: string, attributes: string): string =>
  `<text x="${x}" y="${y}" font-family="${FONT}" font-size="${size}" ${attributes}>${esc(content)}</text>`;

// ---------------------------------------------------------------- colours

const channels = (hex: string): number[] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const toHex = (rgb: number[]): string =>
  '#' +
  rgb
    .map((v) =>
      Math.round(Math.max(0, Math.min(255, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');

/** Linear blend of two #rrggbb colours: t = 0 gives a, t = 1 gives b. */
export function mix(a: string, b: string, t: number): string {
  const y = channels(b);
  return toHex(channels(a).map((v, i) => v + (y[i]! - v) * t));
}
/** The colour moved toward black by t. */
export const shade = (colour: string, t: number): string => mix(colour, '#000000', t);
/** The colour moved toward white by t. */
export const tint = (colour: string, t: number): string => mix(colour, '#ffffff', t);

// ---------------------------------------------------------------- gradients and filters

/**
 * A gradient's stop: a plain colour, or one placed `at` an offset (0 to 1), optionally see-through. As in CSS, a plain
 * colour sits at 0 when first, at 1 when last, and evenly between its placed neighbours otherwise.
 */
export type Stop = string | { offset?: number; colour: string; opacity?: number };
export const at = (offset: number, colour: string, opacity?: number): Stop => ({ offset, colour, opacity });
/** A colour from `opacity` to nothing: halos, glows, light that fades. */
export const fading = (colour: string, opacity: number): Stop[] => [at(0, colour, opacity), at(1, colour, 0)];

function stops(list: readonly Stop[]): string {
  const placed = list.map((s) => (typeof s === 'string' ? { colour: s } : s));
  const offsets = placed.map((s, i) => s.offset ?? (i === 0 ? 0 : i === placed.length - 1 ? 1 : undefined));
  for (let i = 0; i < offsets.length; i++) {
    if (offsets[i] !== undefined) continue;
    const before = i - 1; // placed already: the loop runs forward
    let after = i + 1;
    while (offsets[after] === undefined) after++;
    const from = offsets[before]!,
      to = offsets[after]!;
    for (let k = i; k < after; k++) offsets[k] = from + ((to - from) * (k - before)) / (after - before);
  }
  return placed
    .map(({ colour, opacity }, i) => {
      const see = opacity != null && opacity !== 1 ? ` stop-opacity="${opacity}"` : '';
      return `<stop offset="${offsets[i]}" stop-color="${colour}"${see}/>`;
    })
    .join('');
}

/** A linear gradient's direction: from (x1, y1) to (x2, y2) across the shape's box. */
export type Direction = readonly [number, number, number, number];
export const DOWN: Direction = [0, 0, 0, 1];
export const UP: Direction = [0, 1, 0, 0];
export const ACROSS: Direction = [0, 0, 1, 0];
/** Top left to bottom right. */
export const DIAGONAL: Direction = [0, 0, 1, 1];
/** Bottom left to top right. */
export const RISING: Direction = [0, 1, 1, 0];
/** A radial gradient's centre and radius across the shape's box. */
export type Focus = readonly [number, number, number];
export const CENTRE: Focus = [0.5, 0.5, 0.5];

export const linearGradient = (id: string, list: readonly Stop[], [x1, y1, x2, y2]: Direction = DOWN): string =>
  `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stops(list)}</linearGradient>`;
export const radialGradient = (id: string, list: readonly Stop[], [cx, cy, r]: Focus = CENTRE): string =>
  `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${stops(list)}</radialGradient>`;

const FILTER_BOX = 'x="-50%" y="-50%" width="200%" height="200%"';
const blurFilter = (id: string, deviation: number): string =>
  `<filter id="${id}" ${FILTER_BOX}><feGaussianBlur stdDeviation="${deviation}"/></filter>`;
/** The shape with its own blurred copy behind it. */
const glowFilter = (id: string, deviation: number): string =>
  `<filter id="${id}" ${FILTER_BOX}><feGaussianBlur stdDeviation="${deviation}" result="b"/><feMerge><feMergeNode in="b"/><feMergeNode in="SourceGraphic"/></feMerge></filter>`;

// ---------------------------------------------------------------- the picture

/** An SVG document; `title` (a name, never a locale's word) may be null. */
function svgDocument(width: number, height: number, title: string | null, defs: string, body: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `${title ? `<title>${esc(title)}</title>` : ''}${defs ? `<defs>${defs}</defs>` : ''}${body}</svg>\n`
  );
}

/**
 * One picture being drawn: its paints and filters (named within the picture, so two pictures never share an id) and
 * its drawing, each kept in the order given. A paint is declared before the drawing that uses it, and refers to as
 * the `url(#…)` its declaration returns.
 */
export class Picture {
  defs = '';
  body = '';

  constructor(
    readonly id: string,
    readonly width: number,
    readonly height: number,
    readonly random: Random,
  ) {}

  private define(name: string, markup: (id: string) => string): string {
    const id = `${this.id}-${name}`;
    this.defs += markup(id);
    return `url(#${id})`;
  }

  linear(name: string, list: readonly Stop[], direction: Direction = DOWN): string {
    return this.define(name, (id) => linearGradient(id, list, direction));
  }
  radial(name: string, list: readonly Stop[], focus: Focus = CENTRE): string {
    return this.define(name, (id) => radialGradient(id, list, focus));
  }
  blur(name: string, deviation: number): string {
    return this.define(name, (id) => blurFilter(id, deviation));
  }
  glow(name: string, deviation: number): string {
    return this.define(name, (id) => glowFilter(id, deviation));
  }
  /** A tile repeated in user space; `transform` turns the tiling (patternTransform). */
  pattern(name: string, width: number, height: number, tile: string, transform?: string): string {
    const turn = transform ? ` patternTransform="${transform}"` : '';
    return this.define(
      name,
      (id) => `<pattern id="${id}" width="${width}" height="${height}" patternUnits="userSpaceOnUse"${turn}>${tile}</pattern>`,
    );
  }
  clip(name: string, shapes: string): string {
    return this.define(name, (id) => `<clipPath id="${id}">${shapes}</clipPath>`);
  }
  /** Takes another picture's definitions in (one drawn inside this one). */
  adopt(inner: Picture): void {
    this.defs += inner.defs;
  }

  /** Draws on top of what is there. */
  draw(...markup: string[]): this {
    this.body += markup.join('');
    return this;
  }
  /** Covers the whole picture with a paint. */
  fill(paint: string): this {
    return this.draw(`<rect width="${this.width}" height="${this.height}" fill="${paint}"/>`);
  }

  svg(title: string | null): string {
    return svgDocument(this.width, this.height, title, this.defs, this.body);
  }
}

/** Groups of numbers written as SVG writes points, "x,y x,y …", or in longer groups ("y,sway,depth …"). */
export const numbers = (list: string): number[][] =>
  list
    .trim()
    .split(/\s+/)
    .map((group) => group.split(',').map(Number));

/** Points written as SVG writes them, "x,y x,y …". */
export const points = (list: string): Point[] => numbers(list).map(([x, y]): Point => [x!, y!]);

/** A flat shape through the points (a facet, a face, a side), filled. */
export const facet = (list: string | readonly Point[], fill: string, attributes = ''): string =>
  `<path d="${poly(typeof list === 'string' ? points(list) : list)}" fill="${fill}"${attributes}/>`;
