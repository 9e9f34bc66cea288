import 'server-only';
import { PNG } from 'pngjs';

/**
 * Self-hosted slider-captcha images (see ./captcha.ts), drawn here and PNG-encoded with pngjs.
 *
 * The background is a busy picture (diagonal two-colour gradient, translucent circles and rectangles, light noise) with
 * holes on the piece's row: the real gap, in the piece's jigsaw shape, and decoys in other jigsaw shapes. A person finds
 * the hole whose outline is the piece's; a program has to do the same, because nothing else ties the piece to its gap
 * (security finding 3: a 21-line template match found the old gap 40 times in 40):
 * - every hole's inside is a shadow with a texture of its own (value noise over a darkened local colour), drawn the
 *   same way for the gap and the decoys, so the gap is not the piece's pixels times a constant, nor any function of them;
 * - the piece is the picture's pixels with its own random brightness, contrast, tint and noise, so it is not the
 *   picture either.
 * What is left to match is the shape of an outline, as a person does. That is not secret (no self-hosted captcha stops a
 * determined program), which is why every answer also costs a proof of work (./proof-of-work.ts).
 */

// ---------------------------------------------------------------------------------------------------------------------
// PNG encoding
// ---------------------------------------------------------------------------------------------------------------------

function assertDimension(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1 || value > 0x7fffffff) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}

/** Encodes RGBA pixels (width*height*4 bytes, row-major) as a PNG (colour type 6, 8-bit, filter type 0 on every row). */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  assertDimension('width', width);
  assertDimension('height', height);
  const stride = width * 4;
  if (rgba.length !== stride * height) throw new RangeError(`rgba must hold width*height*4 = ${stride * height} bytes, got ${rgba.length}`);
  const png = new PNG({ width, height });
  png.data = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  // Every row unfiltered (filter type 0), as the hand-written encoder that pngjs replaced wrote them.
  return PNG.sync.write(png, { colorType: 6, inputHasAlpha: true, filterType: 0 });
}

// ---------------------------------------------------------------------------------------------------------------------
// Piece shapes
// ---------------------------------------------------------------------------------------------------------------------

/** Smallest piece the shape is drawn for: below this the tabs, blanks and rounded corners collapse into noise. */
const MIN_PIECE_SIZE = 12;

/** What one side of a piece does: a round tab sticks out, or a blank (the same round bite) goes in. */
export type Side = 'tab' | 'blank';
export type PieceShape = { readonly top: Side; readonly right: Side; readonly bottom: Side; readonly left: Side };
const SIDES = ['top', 'right', 'bottom', 'left'] as const;

/** Every jigsaw shape: each of the four sides a tab or a blank (16). */
export const PIECE_SHAPES: readonly PieceShape[] = Array.from({ length: 16 }, (_, bits) => ({
  top: bits & 1 ? 'tab' : 'blank',
  right: bits & 2 ? 'tab' : 'blank',
  bottom: bits & 4 ? 'tab' : 'blank',
  left: bits & 8 ? 'tab' : 'blank',
}));

/** The shape drawn when the caller names none: tabs on the right and on top, as the piece looked before shapes varied. */
export const DEFAULT_SHAPE: PieceShape = { top: 'tab', right: 'tab', bottom: 'blank', left: 'blank' };

/** On how many sides two shapes differ (0 to 4). */
export function shapeDifference(a: PieceShape, b: PieceShape): number {
  return SIDES.filter((side) => a[side] !== b[side]).length;
}

/**
 * A decoy's shape differs from the piece's on at least this many sides: one tab turned into a blank is easy to miss at
 * a glance on a phone; two sides (say, a bump on the left where the piece has a bite) are not.
 */
const MIN_DECOY_DIFFERENCE = 2;

/**
 * The piece shape as a mask: true where (px, py) inside a pieceSize square belongs to the piece. A rounded square body,
 * inset on every side by the tab radius, with a round tab (a disc centred on the side's midpoint) or a blank (the same
 * disc taken out) on each side; kept 1 px clear of the square's border so an outline drawn on the shape's edge is never
 * clipped. Pixels are tested at their centres; anything outside the square is false.
 */
export function pieceMask(pieceSize: number, shape: PieceShape = DEFAULT_SHAPE): (px: number, py: number) => boolean {
  if (!Number.isInteger(pieceSize) || pieceSize < MIN_PIECE_SIZE) {
    throw new RangeError(`pieceSize must be an integer of at least ${MIN_PIECE_SIZE}, got ${pieceSize}`);
  }
  const s = pieceSize;
  const margin = 1;
  const knob = Math.max(2, Math.round(s * 0.15)); // tab and blank radius, also how far a tab sticks out of the body
  const corner = Math.max(1, Math.round(s * 0.1)); // body corner radius
  const low = margin + knob;
  const high = s - margin - knob;
  const mid = s / 2;
  const centres = { top: [mid, low], right: [high, mid], bottom: [mid, high], left: [low, mid] } as const;
  const tabs = SIDES.filter((side) => shape[side] === 'tab').map((side) => centres[side]);
  const blanks = SIDES.filter((side) => shape[side] === 'blank').map((side) => centres[side]);
  const inDisc = (x: number, y: number, [cx, cy]: readonly [number, number]) => (x - cx) ** 2 + (y - cy) ** 2 <= knob * knob;

  return (px, py) => {
    if (px < 0 || py < 0 || px >= s || py >= s) return false;
    const x = px + 0.5;
    const y = py + 0.5;
    // Tabs and blanks sit on different sides and never touch each other, so the order of these tests does not matter.
    for (const c of tabs) if (inDisc(x, y, c)) return true;
    for (const c of blanks) if (inDisc(x, y, c)) return false;
    if (x < low || x > high || y < low || y > high) return false;
    // Rounded corners: distance to the body's square shrunk by the corner radius must be at most that radius.
    const qx = Math.min(Math.max(x, low + corner), high - corner);
    const qy = Math.min(Math.max(y, low + corner), high - corner);
    return (x - qx) ** 2 + (y - qy) ** 2 <= corner * corner;
  };
}

/** Cell values of a rasterised mask. */
const OUTSIDE = 0;
const INSIDE = 1;
/** Inside, with an outside pixel (or the square's border) among its 8 neighbours: where the outline goes. */
const EDGE = 2;

/** The mask as a pieceSize² grid of OUTSIDE / INSIDE / EDGE, row-major. */
function rasteriseMask(pieceSize: number, shape: PieceShape): Uint8Array {
  const inMask = pieceMask(pieceSize, shape);
  const grid = new Uint8Array(pieceSize * pieceSize);
  for (let py = 0; py < pieceSize; py++) {
    for (let px = 0; px < pieceSize; px++) {
      if (!inMask(px, py)) continue;
      let edge = false;
      for (let dy = -1; dy <= 1 && !edge; dy++) for (let dx = -1; dx <= 1 && !edge; dx++) edge = !inMask(px + dx, py + dy);
      grid[py * pieceSize + px] = edge ? EDGE : INSIDE;
    }
  }
  return grid;
}

// ---------------------------------------------------------------------------------------------------------------------
// Picture
// ---------------------------------------------------------------------------------------------------------------------

type Rgb = [number, number, number];
type Random = (n: number) => number;

/** HSL (h in degrees, s and l in [0, 1]) to RGB in [0, 255]. */
function hsl(h: number, s: number, l: number): Rgb {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** A random colour from the caller's random source, kept away from pure black and white. */
function randomColour(random: Random): Rgb {
  return hsl(random(360), 0.45 + random(45) / 100, 0.3 + random(45) / 100);
}

/**
 * xorshift32: a small, fast generator for the per-pixel noise only. Calling the caller's source (crypto.randomInt in
 * production) once per pixel would cost tens of milliseconds; the noise needs no secrecy, only to be different each time,
 * so it is seeded from that source instead.
 */
function xorshift32(seed: number): () => number {
  let state = seed >>> 0 || 0x9e3779b9; // the all-zero state is a fixed point
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
}

/** Alpha-blends `colour` over pixel i (index of its red byte) of an RGBA canvas. */
function blendPixel(canvas: Uint8ClampedArray, i: number, colour: Rgb, alpha: number): void {
  canvas[i] = canvas[i]! + (colour[0] - canvas[i]!) * alpha;
  canvas[i + 1] = canvas[i + 1]! + (colour[1] - canvas[i + 1]!) * alpha;
  canvas[i + 2] = canvas[i + 2]! + (colour[2] - canvas[i + 2]!) * alpha;
}

/** Number of shapes scattered over the gradient: 8 to 15. */
const MIN_SHAPES = 8;
const EXTRA_SHAPES = 8;
/**
 * Grain: each pixel, independently, has a 1 in GRAIN_ONE_IN chance of being lightened or darkened (equally on R, G and B)
 * by 1 to GRAIN_STRENGTH levels. Sparse on purpose: with filter 0 the diagonal gradient compresses to a few kB because
 * each row repeats the one above shifted by a pixel, and grain on every pixel breaks that (300x160: ~90 kB instead of
 * ~30 kB), which a data: URL on a phone pays for.
 */
const GRAIN_ONE_IN = 8;
const GRAIN_STRENGTH = 4;

/** Draws the busy picture into a new opaque RGBA canvas. */
function drawPicture(width: number, height: number, random: Random): Uint8ClampedArray {
  const canvas = new Uint8ClampedArray(width * height * 4);

  // 1. Diagonal gradient between two colours of clearly different hue, along one of the four diagonals.
  const hue = random(360);
  const from = hsl(hue, 0.55 + random(30) / 100, 0.45 + random(15) / 100);
  const to = hsl((hue + 90 + random(180)) % 360, 0.55 + random(30) / 100, 0.45 + random(15) / 100);
  const diagonal = random(4);
  const flipX = (diagonal & 1) === 1;
  const flipY = (diagonal & 2) === 2;
  const span = Math.max(1, width - 1 + height - 1);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = ((flipX ? width - 1 - x : x) + (flipY ? height - 1 - y : y)) / span;
      const i = (y * width + x) * 4;
      canvas[i] = from[0] + (to[0] - from[0]) * t;
      canvas[i + 1] = from[1] + (to[1] - from[1]) * t;
      canvas[i + 2] = from[2] + (to[2] - from[2]) * t;
      canvas[i + 3] = 255;
    }
  }

  // 2. Translucent circles and rectangles in random colours, sized relative to the picture, allowed to run off its edges.
  const unit = Math.min(width, height);
  const shapes = MIN_SHAPES + random(EXTRA_SHAPES);
  for (let n = 0; n < shapes; n++) {
    const colour = randomColour(random);
    const alpha = 0.3 + random(40) / 100;
    const cx = random(width);
    const cy = random(height);
    if (random(2) === 0) {
      const r = Math.round(unit * 0.06) + random(Math.max(1, Math.round(unit * 0.2)));
      for (let y = Math.max(0, cy - r); y <= Math.min(height - 1, cy + r); y++) {
        for (let x = Math.max(0, cx - r); x <= Math.min(width - 1, cx + r); x++) {
          if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) blendPixel(canvas, (y * width + x) * 4, colour, alpha);
        }
      }
    } else {
      const halfW = Math.round(unit * 0.05) + random(Math.max(1, Math.round(unit * 0.25)));
      const halfH = Math.round(unit * 0.04) + random(Math.max(1, Math.round(unit * 0.18)));
      for (let y = Math.max(0, cy - halfH); y <= Math.min(height - 1, cy + halfH); y++) {
        for (let x = Math.max(0, cx - halfW); x <= Math.min(width - 1, cx + halfW); x++)
          blendPixel(canvas, (y * width + x) * 4, colour, alpha);
      }
    }
  }

  // 3. Light grain, so flat areas are not flat.
  const next = xorshift32(random(0x100000000));
  for (let i = 0; i < canvas.length; i += 4) {
    if (next() % GRAIN_ONE_IN !== 0) continue;
    const v = next();
    const d = (1 + (v % GRAIN_STRENGTH)) * (v & 0x80000000 ? 1 : -1);
    canvas[i] = canvas[i]! + d;
    canvas[i + 1] = canvas[i + 1]! + d;
    canvas[i + 2] = canvas[i + 2]! + d;
  }
  return canvas;
}

// ---------------------------------------------------------------------------------------------------------------------
// Challenge
// ---------------------------------------------------------------------------------------------------------------------

const WHITE: Rgb = [255, 255, 255];

/**
 * How far outline pixels are blended towards white. The piece's outline is bold (it is the thing being moved); the
 * holes' is faint: their shape shows through the change of texture at their edge, and a bright outline on a decoy
 * crosses the piece's interior wherever the shapes differ, which raises a template matcher's error at every decoy and
 * so points it at the real gap. Measured with the red team's matcher over 200 challenges each (2026-11-24): this
 * design, 6 % real gaps found; the same with a 0.6 outline, 20 %; with holes at 0.5-0.65 of the row and a 0.6
 * outline, 39 %, above the 33 % of picking one of the three holes at random.
 */
const HOLE_OUTLINE = 0.15;
const PIECE_OUTLINE = 0.7;

/**
 * How bright a hole is, against the average luminance of its row: a little darker, so it reads as a shadow, but not
 * much, and not from the picture under the hole. Darker holes pull a template matcher into the one hole the piece's
 * interior fits whole, the real gap (same measurement: holes at 0.7-0.85 of the row, 17 %; at 0.5-0.65, 25 %). The
 * row's average is shared by every hole, so it says nothing about which one the piece came from; the picture under
 * each hole would (at the real gap, that is the piece's own brightness).
 */
const HOLE_LUMINANCE_MIN = 0.8;
const HOLE_LUMINANCE_SPREAD = 16; // hundredths: 0.80 to 0.95
/** Texture of a hole: smooth blotches of ±30 to ±46 levels, 4 to 8 px apart, and ±4 levels of grain. */
const HOLE_TEXTURE_MIN = 30;
const HOLE_TEXTURE_SPREAD = 17;

/**
 * Smooth noise in [-1, 1] over a size² square: random values on a lattice `cell` px apart, bilinearly interpolated.
 * Blotches a few pixels wide read as the texture of a shadow; per-pixel noise alone would read as grain.
 */
function valueNoise(size: number, cell: number, next: () => number): Float32Array {
  const nodes = Math.ceil(size / cell) + 2;
  const lattice = Float32Array.from({ length: nodes * nodes }, () => (next() / 0x100000000) * 2 - 1);
  const at = (ix: number, iy: number) => lattice[iy * nodes + ix]!;
  const out = new Float32Array(size * size);
  for (let y = 0; y < size; y++) {
    const y0 = Math.floor(y / cell);
    const fy = y / cell - y0;
    for (let x = 0; x < size; x++) {
      const x0 = Math.floor(x / cell);
      const fx = x / cell - x0;
      const top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * fx;
      const bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * fx;
      out[y * size + x] = top + (bottom - top) * fy;
    }
  }
  return out;
}

/** Luminance (ITU-R BT.601 weights) of a colour. */
function luminance(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/** Average luminance of the picture over the band of rows [y, y + rows). */
function rowLuminance(canvas: Uint8ClampedArray, width: number, y: number, rows: number): number {
  let sum = 0;
  for (let i = y * width * 4; i < (y + rows) * width * 4; i += 4) sum += luminance(canvas[i]!, canvas[i + 1]!, canvas[i + 2]!);
  return sum / (width * rows);
}

/** What the holes of one picture share: a greyish tint (one random hue) and the luminance of their row. */
type HoleLook = { tint: Rgb; rowLuminance: number };

/**
 * Draws a hole of the rasterised mask's shape at (x, y): the look's tint at this hole's own brightness with its own
 * blotchy texture. Nothing of the picture under the hole survives, so the hole holds no trace of the piece; the gap
 * and every decoy are drawn here alike, from independent random draws.
 */
function drawHole(
  canvas: Uint8ClampedArray,
  width: number,
  grid: Uint8Array,
  pieceSize: number,
  x: number,
  y: number,
  look: HoleLook,
  random: Random,
): void {
  const target = look.rowLuminance * (HOLE_LUMINANCE_MIN + random(HOLE_LUMINANCE_SPREAD) / 100);
  const lift = target - luminance(...look.tint);
  const base: Rgb = [look.tint[0] + lift, look.tint[1] + lift, look.tint[2] + lift];
  const amplitude = HOLE_TEXTURE_MIN + random(HOLE_TEXTURE_SPREAD);
  const noise = valueNoise(pieceSize, 4 + random(5), xorshift32(random(0x100000000)));
  const grain = xorshift32(random(0x100000000));
  for (let py = 0; py < pieceSize; py++) {
    for (let px = 0; px < pieceSize; px++) {
      const cell = grid[py * pieceSize + px];
      if (cell === OUTSIDE) continue;
      const i = ((y + py) * width + (x + px)) * 4;
      const v = amplitude * noise[py * pieceSize + px]! + ((grain() % 9) - 4);
      canvas[i] = base[0] + v;
      canvas[i + 1] = base[1] + v;
      canvas[i + 2] = base[2] + v;
      if (cell === EDGE) blendPixel(canvas, i, WHITE, HOLE_OUTLINE);
    }
  }
}

/**
 * Cuts the piece out of the picture at (x, y): opaque inside the mask (edge lightened into an outline), transparent
 * outside. Its pixels get their own jitter so that the piece is not a copy of the picture either: contrast 0.8 to 1.2
 * around its mean, brightness shifted 6 to 20 levels up or down, a small tint, and ±5 levels of noise on every pixel.
 * A person still sees the same colours and shapes.
 */
function cutPiece(
  picture: Uint8ClampedArray,
  width: number,
  grid: Uint8Array,
  pieceSize: number,
  x: number,
  y: number,
  random: Random,
): Uint8ClampedArray {
  const contrast = 0.8 + random(41) / 100;
  const shift = (random(2) === 0 ? -1 : 1) * (6 + random(15));
  const tint = [random(13) - 6, random(13) - 6, random(13) - 6] as const;
  const next = xorshift32(random(0x100000000));

  const mean = [0, 0, 0];
  let count = 0;
  for (let py = 0; py < pieceSize; py++) {
    for (let px = 0; px < pieceSize; px++) {
      if (grid[py * pieceSize + px] === OUTSIDE) continue;
      const from = ((y + py) * width + (x + px)) * 4;
      for (let c = 0; c < 3; c++) mean[c]! += picture[from + c]!;
      count++;
    }
  }
  for (let c = 0; c < 3; c++) mean[c]! /= Math.max(1, count);

  const piece = new Uint8ClampedArray(pieceSize * pieceSize * 4); // all zeros: transparent black
  for (let py = 0; py < pieceSize; py++) {
    for (let px = 0; px < pieceSize; px++) {
      const cell = grid[py * pieceSize + px];
      if (cell === OUTSIDE) continue;
      const from = ((y + py) * width + (x + px)) * 4;
      const to = (py * pieceSize + px) * 4;
      for (let c = 0; c < 3; c++)
        piece[to + c] = mean[c]! + (picture[from + c]! - mean[c]!) * contrast + shift + tint[c]! + ((next() % 11) - 5);
      piece[to + 3] = 255;
      if (cell === EDGE) blendPixel(piece, to, WHITE, PIECE_OUTLINE);
    }
  }
  return piece;
}

/** Free pixels between two holes' squares, so their outlines never touch. */
const HOLE_SPACING = 4;

/**
 * Where the holes go on one row: `count` x positions in [minX, width - pieceSize], sorted, squares HOLE_SPACING px apart,
 * spread at random. The caller picks which one is the gap, so the gap and the decoys come from one distribution and
 * a position says nothing about which is which. RangeError when they do not fit.
 */
export function placeHoles(options: { width: number; pieceSize: number; count: number; minX: number; random: Random }): number[] {
  const { width, pieceSize, count, minX, random } = options;
  const step = pieceSize + HOLE_SPACING;
  const slack = width - pieceSize - minX - (count - 1) * step;
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(minX) || minX < 0 || slack < 0) {
    throw new RangeError(`count must be a whole number of holes that fit on the row from minX = ${minX}, got ${count}`);
  }
  const offsets = Array.from({ length: count }, () => random(slack + 1)).sort((a, b) => a - b);
  return offsets.map((offset, i) => minX + offset + i * step);
}

/** A hole of a rendered challenge: where it is and its shape (for tests; the client only ever sees the pixels). */
export type Hole = { x: number; shape: PieceShape };

export type SliderChallengeImages = {
  /** PNG, width x height: a busy picture with, on row y, the gap in the piece's shape at x and decoys in other shapes. */
  background: Buffer;
  /** PNG with alpha, pieceSize x pieceSize: the picture's pixels at (x, y) with their own jitter, transparent outside the piece shape, with a light 1-2 px outline. */
  piece: Buffer;
  /** The gap (first, at x, in the piece's shape), then the decoys. */
  holes: Hole[];
};

/**
 * Renders one challenge. `random(n)` returns an integer in [0, n) (the caller passes crypto.randomInt), so tests can inject a seeded one.
 * Requirements: x in [pieceSize, width - pieceSize], y in [0, height - pieceSize], each decoy in [0, width - pieceSize]
 * and every two holes at least pieceSize apart; else throw RangeError naming the argument.
 */
export function renderSliderChallenge(options: {
  width: number;
  height: number;
  pieceSize: number;
  x: number;
  y: number;
  decoys: readonly number[];
  random: (n: number) => number;
}): SliderChallengeImages {
  const { width, height, pieceSize, x, y, decoys, random } = options;
  assertDimension('width', width);
  assertDimension('height', height);
  if (!Number.isInteger(pieceSize) || pieceSize < MIN_PIECE_SIZE || 2 * pieceSize > width || pieceSize > height) {
    throw new RangeError(`pieceSize must be an integer in [${MIN_PIECE_SIZE}, min(width / 2, height)], got ${pieceSize}`);
  }
  if (!Number.isInteger(x) || x < pieceSize || x > width - pieceSize) {
    throw new RangeError(`x must be an integer in [${pieceSize}, ${width - pieceSize}], got ${x}`);
  }
  if (!Number.isInteger(y) || y < 0 || y > height - pieceSize) {
    throw new RangeError(`y must be an integer in [0, ${height - pieceSize}], got ${y}`);
  }
  const positions = [x, ...decoys];
  for (const [i, d] of decoys.entries()) {
    if (!Number.isInteger(d) || d < 0 || d > width - pieceSize)
      throw new RangeError(`decoys must be integers in [0, ${width - pieceSize}], got ${d}`);
    if (positions.some((other, j) => j !== i + 1 && Math.abs(other - d) < pieceSize)) {
      throw new RangeError(`decoys must be at least ${pieceSize} px from the gap and from each other, got ${d}`);
    }
  }

  const picture = drawPicture(width, height, random);
  const shape = PIECE_SHAPES[random(PIECE_SHAPES.length)]!;
  const decoyShapes = PIECE_SHAPES.filter((other) => shapeDifference(shape, other) >= MIN_DECOY_DIFFERENCE);
  const grid = rasteriseMask(pieceSize, shape);
  // Cut the piece before any hole is drawn, so it carries the picture's own pixels (then its own jitter).
  const piece = cutPiece(picture, width, grid, pieceSize, x, y, random);
  // Measured before any hole is drawn, so every hole is judged against the same row.
  const look: HoleLook = { tint: hsl(random(360), 0.15 + random(20) / 100, 0.5), rowLuminance: rowLuminance(picture, width, y, pieceSize) };
  const holes: Hole[] = [{ x, shape }];
  for (const d of decoys) {
    const decoy = { x: d, shape: decoyShapes[random(decoyShapes.length)]! };
    drawHole(picture, width, rasteriseMask(pieceSize, decoy.shape), pieceSize, d, y, look, random);
    holes.push(decoy);
  }
  drawHole(picture, width, grid, pieceSize, x, y, look, random);

  const bytes = (canvas: Uint8ClampedArray) => new Uint8Array(canvas.buffer, canvas.byteOffset, canvas.byteLength);
  return { background: encodePng(width, height, bytes(picture)), piece: encodePng(pieceSize, pieceSize, bytes(piece)), holes };
}

/**
 * A whole slider challenge as the captcha serves it: `holes` holes placed on a random row from x = minHoleX on, one of
 * them picked at random as the gap, the others decoys. Returns the gap's position with the images.
 */
export function drawSliderChallenge(options: {
  width: number;
  height: number;
  pieceSize: number;
  holes: number;
  minHoleX: number;
  random: (n: number) => number;
}): SliderChallengeImages & { x: number; y: number } {
  const { width, height, pieceSize, random } = options;
  const xs = placeHoles({ width, pieceSize, count: options.holes, minX: options.minHoleX, random });
  const gap = random(xs.length);
  const x = xs[gap]!;
  const y = random(height - pieceSize);
  return { x, y, ...renderSliderChallenge({ width, height, pieceSize, x, y, decoys: xs.filter((_, i) => i !== gap), random }) };
}
