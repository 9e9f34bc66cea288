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

/**
 * Where the mark of a brand image sits. A wide image (a mark followed by the brand's name, as most wordmarks are) gives
 * its left square, a tall one its top square, anything else the square around it; then that square is trimmed to
 * what is drawn in it (transparent margins dropped), found on a small rendering of it.
 */
export async function markSquare(image: BrandImage): Promise<Square> {
  const { width: w, height: h } = image;
  const region: Square =
    w >= 1.5 * h
      ? { x: 0, y: 0, side: h }
      : h >= 1.5 * w
        ? { x: 0, y: 0, side: w }
        : { x: (w - Math.max(w, h)) / 2, y: (h - Math.max(w, h)) / 2, side: Math.max(w, h) };
  const probe = PNG.sync.read(await png(placed(image, region, PROBE), PROBE));
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
  if (x1 < 0) return region;
  // The drawn box as a square around its centre, kept inside the region (so no part of the name comes in).
  const unit = region.side / PROBE;
  const side = Math.max(x1 - x0 + 1, y1 - y0 + 1);
  const clamp = (start: number) => Math.min(Math.max(start, 0), PROBE - side);
  const x = clamp((x0 + x1 + 1) / 2 - side / 2);
  const y = clamp((y0 + y1 + 1) / 2 - side / 2);
  return { x: region.x + x * unit, y: region.y + y * unit, side: side * unit };
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
