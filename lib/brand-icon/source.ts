import 'server-only';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { MediaStore } from '../media/store';

/** A channel's brand image as the icon renderer takes it: a data URI and its intrinsic size. */
export type BrandImage = { dataUri: string; width: number; height: number };

const TYPES: Record<string, string> = { '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg' };
const MAX_BYTES = 1024 * 1024;

/**
 * Reads the image a channel's icons are drawn from: an upload of the media store (issue 31, "Media storage": the skin
 * editor's favicon source or logo, stored as WebP, which the icon renderer does not draw, so handed over as PNG), else a
 * file under public/ (`readBrandImage`). An upload the store no longer has, or cannot read, is null like any other
 * unusable image: the icons fall back to the monogram.
 */
export async function readIconImage(src: string, store: MediaStore, publicDir?: string): Promise<BrandImage | null> {
  const key = store.keyOf(src);
  if (key === null) return readBrandImage(src, publicDir);
  try {
    const stored = await store.get(key);
    if (!stored) return null;
    const { data, info } = await sharp(stored.bytes, { limitInputPixels: MAX_MEDIA_PIXELS }).png().toBuffer({ resolveWithObject: true });
    return { dataUri: `data:image/png;base64,${data.toString('base64')}`, width: info.width, height: info.height };
  } catch {
    return null;
  }
}

// Stored renditions are at most 1,350 × 648 (lib/media/image.ts IMAGE_PURPOSES): anything past this is not one of ours.
const MAX_MEDIA_PIXELS = 2000 * 2000;

/**
 * Reads a site-relative brand image under public/ (SVG, PNG or JPEG up to 1 MB) with its intrinsic size. Anything else
 * is null: an http(s) URL is not fetched (the server would fetch whatever address a skin names), nor a path that
 * leaves public/, nor a file whose size cannot be read.
 */
export async function readBrandImage(src: string, publicDir = path.join(process.cwd(), 'public')): Promise<BrandImage | null> {
  if (!src.startsWith('/') || src.startsWith('//')) return null;
  try {
    const file = path.resolve(publicDir, `.${decodeURIComponent(src.split(/[?#]/)[0]!)}`);
    if (!file.startsWith(publicDir + path.sep)) return null;
    const type = TYPES[path.extname(file).toLowerCase()];
    if (!type) return null;
    if ((await stat(/*turbopackIgnore: true*/ file)).size > MAX_BYTES) return null;
    const bytes = await readFile(/*turbopackIgnore: true*/ file);
    const size = type === 'image/svg+xml' ? svgSize(bytes.toString('utf8')) : type === 'image/png' ? pngSize(bytes) : jpegSize(bytes);
    if (!size) return null;
    return { dataUri: `data:${type};base64,${bytes.toString('base64')}`, ...size };
  } catch {
    return null;
  }
}

type Size = { width: number; height: number };

function positive(value: number | undefined): value is number {
  return value !== undefined && Number.isFinite(value) && value > 0;
}

/** The root <svg>'s width and height (plain or px numbers), else its viewBox's. */
export function svgSize(text: string): Size | null {
  const root = /<svg\b[^>]*>/i.exec(text)?.[0];
  if (!root) return null;
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(root)?.[1]?.trim();
  const length = (value: string | undefined) => (value && /^[\d.]+(px)?$/.test(value) ? parseFloat(value) : undefined);
  const width = length(attr('width'));
  const height = length(attr('height'));
  if (positive(width) && positive(height)) return { width, height };
  const box = attr('viewBox')
    ?.split(/[\s,]+/)
    .map(Number);
  if (box?.length === 4 && positive(box[2]) && positive(box[3])) return { width: box[2], height: box[3] };
  return null;
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(bytes: Buffer): Size | null {
  if (bytes.length < 24 || bytes.readUInt32BE(0) !== 0x89504e47 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  const size = { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  return positive(size.width) && positive(size.height) ? size : null;
}

/** Width and height from a JPEG's first start-of-frame marker. */
export function jpegSize(bytes: Buffer): Size | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    const length = bytes.readUInt16BE(at + 2);
    // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const size = { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
      return positive(size.width) && positive(size.height) ? size : null;
    }
    at += 2 + length;
  }
  return null;
}
