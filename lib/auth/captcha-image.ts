import 'server-only';
import { deflateSync } from 'node:zlib';

/**
 * Self-hosted slider-captcha images (see ./captcha.ts), drawn and PNG-encoded with Node built-ins only.
 *
 * The background is a busy picture (diagonal two-colour gradient, translucent circles and rectangles, light noise) with a
 * darkened, outlined gap in the shape of the piece; the piece is the same pixels cut out of the picture before darkening.
 * A fainter decoy gap on the same row keeps "find the darkest piece-shaped patch along row y" from being quite as
 * trivial, while a person still sees at once which hole the piece fits.
 */

// ---------------------------------------------------------------------------------------------------------------------
// PNG encoding
// ---------------------------------------------------------------------------------------------------------------------

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** CRC-32 (ISO 3309, polynomial 0xEDB88320) lookup table, as PNG chunks use. Own code: `zlib.crc32` needs Node ≥ 20.15. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** One PNG chunk: length, type, data, CRC over type and data. */
function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

function assertDimension(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1 || value > 0x7fffffff) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}

/** Encodes RGBA pixels (width*height*4 bytes, row-major) as a PNG (colour type 6, 8-bit, filter 0 per row, zlib deflate, correct CRC32 per chunk). */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  assertDimension('width', width);
  assertDimension('height', height);
  const stride = width * 4;
  if (rgba.length !== stride * height) throw new RangeError(`rgba must hold width*height*4 = ${stride * height} bytes, got ${rgba.length}`);

  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: truecolour with alpha
  ihdr[10] = 0; // compression: deflate
  ihdr[11] = 0; // filter method 0 (adaptive; every row below uses filter type 0, "None")
  ihdr[12] = 0; // no interlace

  // Each scanline is its filter-type byte followed by the row's pixels.
  const raw = Buffer.alloc((stride + 1) * height);
  for (let row = 0; row < height; row++) raw.set(rgba.subarray(row * stride, (row + 1) * stride), row * (stride + 1) + 1);

  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0))]);
}

// ---------------------------------------------------------------------------------------------------------------------
// Piece shape
// ---------------------------------------------------------------------------------------------------------------------

/** Smallest piece the shape is drawn for: below this the knobs and rounded corners collapse into noise. */
const MIN_PIECE_SIZE = 8;

/**
 * The piece shape as a mask: true where (px, py) inside a pieceSize square belongs to the piece (a rounded square with a
 * semicircular knob on the right and on top is fine, or any jigsaw-like shape that stays inside the square).
 *
 * Here: a rounded square in the lower-left of the square with a round knob on its right side and one on its top, kept
 * 1 px clear of the square's border so an outline drawn on the shape's edge is never clipped. Pixels are tested at
 * their centres; anything outside the square is false.
 */
export function pieceMask(pieceSize: number): (px: number, py: number) => boolean {
  if (!Number.isInteger(pieceSize) || pieceSize < MIN_PIECE_SIZE) {
    throw new RangeError(`pieceSize must be an integer of at least ${MIN_PIECE_SIZE}, got ${pieceSize}`);
  }
  const s = pieceSize;
  const margin = 1;
  const knob = Math.max(2, Math.round(s * 0.15)); // knob radius, also how far it sticks out of the body
  const corner = Math.max(1, Math.round(s * 0.12)); // body corner radius
  const left = margin;
  const right = s - margin - knob;
  const top = margin + knob;
  const bottom = s - margin;
  const knobs = [
    { cx: right, cy: (top + bottom) / 2 }, // right knob, centred on the body's right edge
    { cx: (left + right) / 2, cy: top }, // top knob, centred on the body's top edge
  ];

  return (px, py) => {
    if (px < 0 || py < 0 || px >= s || py >= s) return false;
    const x = px + 0.5;
    const y = py + 0.5;
    for (const k of knobs) if ((x - k.cx) ** 2 + (y - k.cy) ** 2 <= knob * knob) return true;
    if (x < left || x > right || y < top || y > bottom) return false;
    // Rounded corners: distance to the body's rectangle shrunk by the corner radius must be at most that radius.
    const qx = Math.min(Math.max(x, left + corner), right - corner);
    const qy = Math.min(Math.max(y, top + corner), bottom - corner);
    return (x - qx) ** 2 + (y - qy) ** 2 <= corner * corner;
  };
}

/** Cell values of a rasterised mask. */
const OUTSIDE = 0;
const INSIDE = 1;
/** Inside, with an outside pixel (or the square's border) among its 8 neighbours: where the outline goes. */
const EDGE = 2;

/** The mask as a pieceSize² grid of OUTSIDE / INSIDE / EDGE, row-major. */
function rasteriseMask(pieceSize: number): Uint8Array {
  const inMask = pieceMask(pieceSize);
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
        for (let x = Math.max(0, cx - halfW); x <= Math.min(width - 1, cx + halfW); x++) blendPixel(canvas, (y * width + x) * 4, colour, alpha);
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

/** How a hole is drawn: how far the inside is blended towards black, and the outline towards white. */
type HoleStyle = { darken: number; outline: number };
/** The real gap: clearly darker, with a clear light outline. */
const GAP: HoleStyle = { darken: 0.5, outline: 0.6 };
/** The decoy: the same shape, fainter. */
const DECOY: HoleStyle = { darken: 0.2, outline: 0.25 };
/** The piece's own outline: how far its edge pixels are blended towards white. */
const PIECE_OUTLINE = 0.7;

/** Draws a hole of the rasterised mask's shape at (x, y) into the canvas. */
function drawHole(canvas: Uint8ClampedArray, width: number, grid: Uint8Array, pieceSize: number, x: number, y: number, style: HoleStyle): void {
  for (let py = 0; py < pieceSize; py++) {
    for (let px = 0; px < pieceSize; px++) {
      const cell = grid[py * pieceSize + px];
      if (cell === OUTSIDE) continue;
      const i = ((y + py) * width + (x + px)) * 4;
      if (cell === EDGE) {
        blendPixel(canvas, i, WHITE, style.outline);
      } else {
        canvas[i] = canvas[i]! * (1 - style.darken);
        canvas[i + 1] = canvas[i + 1]! * (1 - style.darken);
        canvas[i + 2] = canvas[i + 2]! * (1 - style.darken);
      }
    }
  }
}

/** Copies the mask's pixels at (x, y) out of the picture: opaque inside (edge lightened), fully transparent outside. */
function cutPiece(picture: Uint8ClampedArray, width: number, grid: Uint8Array, pieceSize: number, x: number, y: number): Uint8ClampedArray {
  const piece = new Uint8ClampedArray(pieceSize * pieceSize * 4); // all zeros: transparent black
  for (let py = 0; py < pieceSize; py++) {
    for (let px = 0; px < pieceSize; px++) {
      const cell = grid[py * pieceSize + px];
      if (cell === OUTSIDE) continue;
      const from = ((y + py) * width + (x + px)) * 4;
      const to = (py * pieceSize + px) * 4;
      piece[to] = picture[from]!;
      piece[to + 1] = picture[from + 1]!;
      piece[to + 2] = picture[from + 2]!;
      piece[to + 3] = 255;
      if (cell === EDGE) blendPixel(piece, to, WHITE, PIECE_OUTLINE);
    }
  }
  return piece;
}

/**
 * Where the decoy goes: on the gap's row (the client is told y, so a decoy elsewhere would fool nobody scanning that
 * row), at an x whose square does not overlap the gap's. x ≥ pieceSize guarantees room on the left, so one always exists.
 */
function decoyX(width: number, pieceSize: number, x: number, random: Random): number {
  const leftChoices = x - pieceSize + 1; // [0, x - pieceSize]
  const rightChoices = Math.max(0, width - pieceSize - (x + pieceSize) + 1); // [x + pieceSize, width - pieceSize]
  const pick = random(leftChoices + rightChoices);
  return pick < leftChoices ? pick : x + pieceSize + (pick - leftChoices);
}

export type SliderChallengeImages = {
  /** PNG, width x height: a busy picture with a darkened, outlined gap of the piece's shape at (x, y). */
  background: Buffer;
  /** PNG with alpha, pieceSize x pieceSize: the pixels cut from the picture at (x, y) (before darkening), transparent outside the piece shape, with a light 1-2 px outline. */
  piece: Buffer;
};

/**
 * Renders one challenge. `random(n)` returns an integer in [0, n) (the caller passes crypto.randomInt), so tests can inject a seeded one.
 * Requirements: x in [pieceSize, width - pieceSize], y in [0, height - pieceSize], else throw RangeError naming the argument.
 */
export function renderSliderChallenge(options: {
  width: number;
  height: number;
  pieceSize: number;
  x: number;
  y: number;
  random: (n: number) => number;
}): SliderChallengeImages {
  const { width, height, pieceSize, x, y, random } = options;
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

  const picture = drawPicture(width, height, random);
  const grid = rasteriseMask(pieceSize);
  // Cut the piece before any hole is drawn, so it carries the picture's own pixels.
  const piece = cutPiece(picture, width, grid, pieceSize, x, y);
  drawHole(picture, width, grid, pieceSize, decoyX(width, pieceSize, x, random), y, DECOY);
  drawHole(picture, width, grid, pieceSize, x, y, GAP);

  const bytes = (canvas: Uint8ClampedArray) => new Uint8Array(canvas.buffer, canvas.byteOffset, canvas.byteLength);
  return { background: encodePng(width, height, bytes(picture)), piece: encodePng(pieceSize, pieceSize, bytes(piece)) };
}
