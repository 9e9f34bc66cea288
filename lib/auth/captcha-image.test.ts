import { randomInt } from 'node:crypto';
import { crc32, inflateSync } from 'node:zlib';
import { encodePng, pieceMask, renderSliderChallenge } from './captcha-image';
import { SLIDER } from './limits';

/** A decoded PNG, as far as these tests need: the header fields, the chunk types in order, and the raw RGBA pixels. */
type DecodedPng = { width: number; height: number; bitDepth: number; colourType: number; interlace: number; chunkTypes: string[]; rgba: Uint8Array };

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * An independent, minimal PNG reader for 8-bit RGBA with filter type 0: checks the signature and every chunk's CRC
 * (with Node's own zlib.crc32, not the encoder's table), concatenates the IDAT chunks, inflates them and strips the
 * filter byte of each row. Fails the test on anything it does not expect.
 */
function decodePng(png: Buffer): DecodedPng {
  expect([...png.subarray(0, 8)]).toEqual(SIGNATURE);
  const chunkTypes: string[] = [];
  const idat: Buffer[] = [];
  let ihdr: Buffer | undefined;
  let offset = 8;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    const crc = png.readUInt32BE(offset + 8 + length);
    expect({ type, crc }).toEqual({ type, crc: crc32(png.subarray(offset + 4, offset + 8 + length)) });
    chunkTypes.push(type);
    if (type === 'IHDR') ihdr = data;
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  expect(offset).toBe(png.length);
  if (!ihdr) throw new Error('no IHDR chunk');
  expect(ihdr.length).toBe(13);

  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  expect(raw.length).toBe((stride + 1) * height);
  const rgba = new Uint8Array(stride * height);
  for (let row = 0; row < height; row++) {
    const start = row * (stride + 1);
    expect(raw[start]).toBe(0); // filter type None
    rgba.set(raw.subarray(start + 1, start + 1 + stride), row * stride);
  }
  return { width, height, bitDepth: ihdr[8]!, colourType: ihdr[9]!, interlace: ihdr[12]!, chunkTypes, rgba };
}

/** mulberry32: a seeded stand-in for crypto.randomInt with the same contract (an integer in [0, n)). */
function seeded(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const u = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.floor(u * n);
  };
}

const { width, height, pieceSize } = SLIDER;
const render = (x: number, y: number, random: (n: number) => number = seeded(1)) => renderSliderChallenge({ width, height, pieceSize, x, y, random });

/** Pixel (px, py) of a decoded image as [r, g, b, a]. */
function pixel(img: DecodedPng, px: number, py: number): [number, number, number, number] {
  const i = (py * img.width + px) * 4;
  return [img.rgba[i]!, img.rgba[i + 1]!, img.rgba[i + 2]!, img.rgba[i + 3]!];
}

/** Mask pixels at least `band + 1` px (Chebyshev) from any pixel outside the mask: clear of any outline `band` px wide. */
function interiorOf(size: number, band: number): Array<[number, number]> {
  const inMask = pieceMask(size);
  const interior: Array<[number, number]> = [];
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let clear = true;
      for (let dy = -band; dy <= band && clear; dy++) for (let dx = -band; dx <= band && clear; dx++) clear = inMask(px + dx, py + dy);
      if (clear) interior.push([px, py]);
    }
  }
  return interior;
}

describe('encodePng', () => {
  it('writes the signature, an RGBA 8-bit IHDR, IDAT and a final IEND, each with a correct CRC', () => {
    const png = decodePng(encodePng(3, 2, new Uint8Array(3 * 2 * 4)));
    expect(png).toMatchObject({ width: 3, height: 2, bitDepth: 8, colourType: 6, interlace: 0 });
    expect(png.chunkTypes[0]).toBe('IHDR');
    expect(png.chunkTypes).toContain('IDAT');
    expect(png.chunkTypes.at(-1)).toBe('IEND');
  });

  it.each([
    [1, 1],
    [7, 5],
    [64, 3],
  ])('round-trips arbitrary %ix%i pixels exactly', (w, h) => {
    const random = seeded(w * 1000 + h);
    const rgba = Uint8Array.from({ length: w * h * 4 }, () => random(256));
    const png = decodePng(encodePng(w, h, rgba));
    expect(png.width).toBe(w);
    expect(png.height).toBe(h);
    expect(Buffer.from(png.rgba).equals(Buffer.from(rgba))).toBe(true);
  });

  it('rejects a pixel buffer of the wrong size and non-positive dimensions', () => {
    expect(() => encodePng(2, 2, new Uint8Array(15))).toThrow(RangeError);
    expect(() => encodePng(0, 2, new Uint8Array(0))).toThrow(/width/);
    expect(() => encodePng(2, 1.5, new Uint8Array(12))).toThrow(/height/);
  });
});

describe('pieceMask', () => {
  const size = pieceSize;
  const inMask = pieceMask(size);
  const cells: Array<[number, number]> = [];
  for (let py = 0; py < size; py++) for (let px = 0; px < size; px++) if (inMask(px, py)) cells.push([px, py]);

  it('is false outside the square and on its corners, true in the middle', () => {
    for (const [px, py] of [[-1, 10], [10, -1], [size, 10], [10, size], [0, 0], [size - 1, 0], [0, size - 1], [size - 1, size - 1]] as const) {
      expect(inMask(px, py)).toBe(false);
    }
    expect(inMask(Math.floor(size / 2), Math.floor(size / 2))).toBe(true);
  });

  it('is one connected, jigsaw-sized blob: not a full square, not a sliver', () => {
    expect(cells.length / (size * size)).toBeGreaterThan(0.45);
    expect(cells.length / (size * size)).toBeLessThan(0.9);
    // Flood fill (4-neighbours) from one cell must reach all of them.
    const seen = new Set<string>();
    const stack = [cells[0]!];
    while (stack.length) {
      const [px, py] = stack.pop()!;
      const key = `${px},${py}`;
      if (seen.has(key) || !inMask(px, py)) continue;
      seen.add(key);
      stack.push([px + 1, py], [px - 1, py], [px, py + 1], [px, py - 1]);
    }
    expect(seen.size).toBe(cells.length);
  });

  it('rejects sizes too small to draw', () => {
    expect(() => pieceMask(4)).toThrow(RangeError);
    expect(() => pieceMask(20.5)).toThrow(RangeError);
  });
});

describe('renderSliderChallenge', () => {
  const x = 170;
  const y = 70;
  const inMask = pieceMask(pieceSize);
  let images: ReturnType<typeof render>;
  let background: DecodedPng;
  let piece: DecodedPng;
  beforeAll(() => {
    images = render(x, y);
    background = decodePng(images.background);
    piece = decodePng(images.piece);
  });

  it('renders an opaque width x height background and a pieceSize x pieceSize piece, both RGBA PNGs', () => {
    expect(background).toMatchObject({ width, height, bitDepth: 8, colourType: 6 });
    expect(piece).toMatchObject({ width: pieceSize, height: pieceSize, bitDepth: 8, colourType: 6 });
    const translucent = background.rgba.filter((value, i) => i % 4 === 3 && value !== 255);
    expect(translucent.length).toBe(0);
  });

  it('makes the piece opaque inside the mask and fully transparent outside it', () => {
    for (let py = 0; py < pieceSize; py++) {
      for (let px = 0; px < pieceSize; px++) {
        const alpha = pixel(piece, px, py)[3];
        if (alpha !== (inMask(px, py) ? 255 : 0)) throw new Error(`piece alpha at (${px}, ${py}) is ${alpha}`);
      }
    }
  });

  it("cuts the piece from the picture at (x, y) before darkening: the gap's pixels are the piece's at about half", () => {
    // Clear of the outlines (1 px in the gap, 1-2 px on the piece).
    const interior = interiorOf(pieceSize, 2);
    expect(interior.length).toBeGreaterThan(pieceSize * pieceSize * 0.3);
    const pairs = interior.map(([px, py]) => ({ piece: pixel(piece, px, py).slice(0, 3), gap: pixel(background, x + px, y + py).slice(0, 3) }));
    const sum = (rgb: number[]) => rgb.reduce((a, b) => a + b, 0);

    // One darkening factor for the whole gap, about 50 %: clearly darker, still showing the picture, and not darkened
    // twice (the decoy, at about 20 %, must not overlap the gap).
    const factor = pairs.reduce((a, p) => a + sum(p.gap), 0) / pairs.reduce((a, p) => a + sum(p.piece), 0);
    expect(factor).toBeGreaterThan(0.45);
    expect(factor).toBeLessThan(0.55);
    expect(pairs.filter((p) => sum(p.gap) < sum(p.piece)).length / pairs.length).toBeGreaterThan(0.95);

    // Pixel for pixel, up to rounding: a piece cut a pixel off would differ wherever the grain or a shape's edge is.
    const channels = pairs.flatMap((p) => p.piece.map((v, c) => Math.abs(p.gap[c]! - factor * v)));
    expect(channels.filter((d) => d > 1.25).length / channels.length).toBeLessThan(0.01);
  });

  it('darkens the whole gap inside its 1 px outline, exactly at (x, y)', () => {
    // Every mask pixel but the edge: a gap drawn a pixel off would put its light outline on some of them. (A piece outline
    // wider than 1 px only makes the piece lighter, which this allows.)
    let lighterChannels = 0;
    for (const [px, py] of interiorOf(pieceSize, 1)) {
      const [pr, pg, pb] = pixel(piece, px, py);
      const [br, bg, bb] = pixel(background, x + px, y + py);
      lighterChannels += Number(br > pr) + Number(bg > pg) + Number(bb > pb);
    }
    expect(lighterChannels).toBe(0);
  });

  it("outlines the gap and the piece in light pixels along the mask's edge", () => {
    const edge: Array<[number, number]> = [];
    for (let py = 0; py < pieceSize; py++) {
      for (let px = 0; px < pieceSize; px++) {
        const onEdge = !inMask(px + 1, py) || !inMask(px - 1, py) || !inMask(px, py + 1) || !inMask(px, py - 1);
        if (inMask(px, py) && onEdge) edge.push([px, py]);
      }
    }
    const brightness = (img: DecodedPng, cells: Array<[number, number]>, ox: number, oy: number) =>
      cells.reduce((sum, [px, py]) => sum + pixel(img, ox + px, oy + py).slice(0, 3).reduce((a, b) => a + b, 0), 0) / cells.length;
    const interior = interiorOf(pieceSize, 2);
    expect(brightness(background, edge, x, y)).toBeGreaterThan(brightness(background, interior, x, y) + 60);
    expect(brightness(piece, edge, 0, 0)).toBeGreaterThan(brightness(piece, interior, 0, 0) + 60);
  });

  it('accepts the ends of the ranges and throws a RangeError naming x or y outside them', () => {
    expect(() => render(pieceSize, 0)).not.toThrow();
    expect(() => render(width - pieceSize, height - pieceSize)).not.toThrow();
    expect(() => render(pieceSize - 1, 0)).toThrow(RangeError);
    expect(() => render(pieceSize - 1, 0)).toThrow(/^x /);
    expect(() => render(width - pieceSize + 1, 0)).toThrow(/^x /);
    expect(() => render(100.5, 0)).toThrow(/^x /);
    expect(() => render(100, -1)).toThrow(RangeError);
    expect(() => render(100, -1)).toThrow(/^y /);
    expect(() => render(100, height - pieceSize + 1)).toThrow(/^y /);
    expect(() => renderSliderChallenge({ width, height, pieceSize: width, x: 0, y: 0, random: seeded(1) })).toThrow(/^pieceSize /);
  });

  it('is deterministic for one seed and differs between seeds', () => {
    const again = render(x, y, seeded(1));
    expect(again.background.equals(images.background)).toBe(true);
    expect(again.piece.equals(images.piece)).toBe(true);
    const other = render(x, y, seeded(2));
    expect(other.background.equals(images.background)).toBe(false);
    expect(other.piece.equals(images.piece)).toBe(false);
  });

  it('asks its random source only for what crypto.randomInt accepts, and works with it', () => {
    const asked: number[] = [];
    const inner = seeded(3);
    render(x, y, (n) => {
      asked.push(n);
      return inner(n);
    });
    expect(asked.length).toBeGreaterThan(10);
    for (const n of asked) if (!Number.isSafeInteger(n) || n < 1 || n > 2 ** 48) throw new Error(`random(${n})`);

    const real = decodePng(render(x, y, (n) => randomInt(n)).background);
    expect(real).toMatchObject({ width, height });
  });
});
