import 'server-only';
import { ImageResponse } from 'next/og';
import { PNG } from 'pngjs';
import type { CSSProperties, ReactElement, ReactNode } from 'react';
import type { BrandImage } from './source';

/** A square in the brand image's own units. */
export type Square = { x: number; y: number; side: number };

const PROBE = 128;
/** Alpha above which a probe pixel counts as part of the mark. */
const OPAQUE = 24;

async function png(node: ReactElement, size: number): Promise<Buffer> {
  return Buffer.from(await new ImageResponse(node, { width: size, height: size }).arrayBuffer());
}

/** `image` drawn so that `square` of it fills a `size` box (what lies outside the square is clipped). */
function placed(image: BrandImage, square: Square, size: number): ReactElement {
  const scale = size / square.side;
  return (
    <div style={{ display: 'flex', position: 'relative', overflow: 'hidden', width: size, height: size }}>
      {/* eslint-disable-next-line @next/next/no-img-element -- rendered to PNG by satori, not a page */}
      <img
        src={image.dataUri}
        alt=""
        width={image.width * scale}
        height={image.height * scale}
        style={{ position: 'absolute', left: -square.x * scale, top: -square.y * scale }}
      />
    </div>
  );
}

/** A rectangle in the brand image's own units. */
type Box = { x: number; y: number; width: number; height: number };

/**
 * What is drawn (alpha above OPAQUE) inside `square` of the image, found on a PROBE-pixel rendering of it, in the
 * image's units; null when nothing is.
 */
async function drawnBox(image: BrandImage, square: Square): Promise<Box | null> {
  const probe = PNG.sync.read(await png(placed(image, square, PROBE), PROBE));
  let [x0, y0, x1, y1] = [PROBE, PROBE, -1, -1];
  for (let y = 0; y < probe.height; y++) {
    for (let x = 0; x < probe.width; x++) {
      if (probe.data[(y * probe.width + x) * 4 + 3]! > OPAQUE) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
    }
  }
  if (x1 < 0) return null;
  const unit = square.side / PROBE;
  return { x: square.x + x0 * unit, y: square.y + y0 * unit, width: (x1 - x0 + 1) * unit, height: (y1 - y0 + 1) * unit };
}

/**
 * Where the mark of a brand image sits. First what is drawn at all (an uploaded logo is fitted into a wide box on a
 * transparent ground, lib/media/image.ts, so its drawing may sit anywhere in it); of that, a wide drawing (a mark
 * followed by the brand's name, as most wordmarks are) gives its left square, a tall one its top square, anything else
 * the square around it; then that square is trimmed to what is drawn in it (transparent margins dropped).
 */
export async function markSquare(image: BrandImage): Promise<Square> {
  const side = Math.max(image.width, image.height);
  const drawn = (await drawnBox(image, { x: 0, y: 0, side })) ?? { x: 0, y: 0, width: image.width, height: image.height };
  const { x: dx, y: dy, width: w, height: h } = drawn;
  const region: Square =
    w >= 1.5 * h
      ? { x: dx, y: dy, side: h }
      : h >= 1.5 * w
        ? { x: dx, y: dy, side: w }
        : { x: dx + (w - Math.max(w, h)) / 2, y: dy + (h - Math.max(w, h)) / 2, side: Math.max(w, h) };
  const mark = await drawnBox(image, region);
  if (!mark) return region;
  // The drawn box as a square around its centre, kept inside the region (so no part of the name comes in).
  const markSide = Math.max(mark.width, mark.height);
  const clamp = (start: number, origin: number) => Math.min(Math.max(start, origin), origin + region.side - markSide);
  return {
    x: clamp(mark.x + mark.width / 2 - markSide / 2, region.x),
    y: clamp(mark.y + mark.height / 2 - markSide / 2, region.y),
    side: markSide,
  };
}

export type IconStyle = {
  /** CSS colour behind the mark, or null for transparent. */
  background: string | null;
  /** Space around the mark, as a share of the icon's side. */
  padding: number;
};

/** A `size`×`size` PNG of the brand image's mark. */
export async function renderMarkIcon(image: BrandImage, mark: Square, size: number, style: IconStyle): Promise<Buffer> {
  const inner = Math.max(1, Math.round(size * (1 - 2 * style.padding)));
  return centredPng(size, { background: style.background ?? 'transparent' }, placed(image, mark, inner));
}

/** A `size`×`size` PNG with `content` centred on a square styled by `style`. */
function centredPng(size: number, style: CSSProperties, content: ReactNode): Promise<Buffer> {
  return png(
    <div style={{ display: 'flex', width: size, height: size, alignItems: 'center', justifyContent: 'center', ...style }}>{content}</div>,
    size,
  );
}

/**
 * The icon of a channel without a usable brand image (an http(s) URL, a missing file): the brand's initial on its
 * colour, or the colour alone when the initial is not a Latin letter or digit (the bundled font has no other glyphs).
 */
export async function renderMonogramIcon(brandName: string, colors: { background: string; text: string }, size: number): Promise<Buffer> {
  const initial = brandName.trim().charAt(0).toUpperCase();
  return centredPng(
    size,
    { background: colors.background, color: colors.text, fontSize: Math.round(size * 0.62) },
    /^[A-Z0-9]$/.test(initial) ? initial : '',
  );
}
