import 'server-only';
import { createHash } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { AppError, API_CODES } from '../procedure/errors';
import { msg, type ApiMessage } from '../procedure/messages';
import { mediaStore, type MediaStore } from './store';
import { SHARE_IMAGE_SIZE } from './key';

/**
 * Uploaded images (issue 31, "Media storage"; docs/operators.md, "Images"). An upload is checked by its bytes, never
 * by its name, before anything decodes it: the kind from its first bytes (PNG, JPEG, WebP, GIF; SVG refused, since it
 * can carry scripts), at most MAX_IMAGE_BYTES, at most MAX_IMAGE_SIDE px a side as its header says (a decompression
 * bomb claims a huge size in a few bytes: it is refused before a pixel is decoded). Then it is decoded once, turned
 * upright by its EXIF orientation and re-encoded as WebP at the sizes the pages show it, with no metadata (camera,
 * place, author), and each rendition is stored under its content's address (./key.ts) through the one store.
 */

/** The most an upload may weigh: a phone photo is 3 to 6 MB; a page never needs more. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** The most an upload may measure on a side: 8,000 px is beyond any camera a brand's designer sends (a 48 MP phone: 8,000 × 6,000). */
export const MAX_IMAGE_SIDE = 8000;
/** What the decoder may allocate for at most: a full-size 8,000 px square (256 MB of pixels), whatever a header said. */
const MAX_INPUT_PIXELS = MAX_IMAGE_SIDE * MAX_IMAGE_SIDE;

/** WebP quality of the renditions: 82 keeps brand art's edges clean at about a third of a JPEG's weight. */
const WEBP_QUALITY = 82;

/**
 * What an image is uploaded as, and the renditions each gets: the boxes the pages show it in (CSS px × the densities
 * of phones, 2× and 3×), never larger than the upload (a smaller one is refused below its smallest box).
 * - `cover`: cropped to the box (centred) where the page sets the box's shape; `contain`: fitted inside the box on a
 *   transparent ground, so a logo is never cut or stretched.
 */
export const IMAGE_PURPOSES = {
  /** The brand's logo (skin `brandImg`): the home page's brand card shows it in a 240 × 80 box (components/sale/home-view.tsx), up to 96 CSS px wide. */
  logo: {
    fit: 'contain',
    boxes: [
      [240, 80],
      [480, 160],
    ],
  },
  /** The banner (skin `bannerImg`, `coverChainImg`): 750 × 360 (ChannelBanner), at most 450 CSS px wide, so 1,350 px at 3×. */
  banner: {
    fit: 'cover',
    boxes: [
      [750, 360],
      [1350, 648],
    ],
  },
  /** A link preview's picture: 1,200 × 630, what WeChat, Weibo and the Open Graph readers crop to. */
  share: { fit: 'cover', boxes: [[SHARE_IMAGE_SIZE.width, SHARE_IMAGE_SIZE.height]] },
  /** The source the favicon and home-screen icons are drawn from (lib/brand-icon): a square, 512 px the largest icon asked. */
  favicon: { fit: 'contain', boxes: [[512, 512]] },
  /**
   * A collectible's cover, gallery picture or creator's face (issue 32, "Catalogue"): shown square on the goods page and
   * the cards, up to 375 CSS px wide, so 1,125 px at 3×; fitted whole (an artwork is never cropped).
   */
  goods: {
    fit: 'contain',
    boxes: [
      [375, 375],
      [750, 750],
      [1125, 1125],
    ],
  },
} as const satisfies Record<string, { fit: 'cover' | 'contain'; boxes: readonly (readonly [number, number])[] }>;

export type ImagePurpose = keyof typeof IMAGE_PURPOSES;

export function isImagePurpose(value: unknown): value is ImagePurpose {
  return typeof value === 'string' && Object.hasOwn(IMAGE_PURPOSES, value);
}

/** One stored rendition: its key, the URL pages name it by, its size in px and in bytes. */
export type Rendition = { key: string; url: string; width: number; height: number; bytes: number };

export type StoredImage = {
  purpose: ImagePurpose;
  /** The upload's kind as its bytes say, and its size upright. */
  source: { kind: ImageKind; width: number; height: number; bytes: number };
  /** Smallest first. */
  renditions: Rendition[];
  /** What a skin names: the largest rendition (the pages' image optimiser makes smaller ones from it). */
  url: string;
};

export type ImageKind = 'png' | 'jpeg' | 'webp' | 'gif';

/** The kind of an upload by its first bytes (its name and declared type are the sender's word, not evidence). */
export function sniffImageKind(bytes: Uint8Array): ImageKind | 'svg' | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return 'gif';
  // SVG is text: a byte-order mark, blanks, an XML declaration, a doctype or comments may come before the <svg.
  const head = b
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  if (/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(head)) return 'svg';
  return null;
}

const SHARP_FORMAT: Record<ImageKind, string> = { png: 'png', jpeg: 'jpeg', webp: 'webp', gif: 'gif' };

function refused(message: ApiMessage): AppError {
  return new AppError(API_CODES.BAD_REQUEST, message);
}

/** The header's size, upright (a sideways EXIF orientation swaps the sides), read without decoding a pixel. */
async function headerSize(bytes: Uint8Array, kind: ImageKind): Promise<{ width: number; height: number }> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw refused(msg('mediaUnreadable'));
  }
  if (meta.format !== SHARP_FORMAT[kind] || !meta.width || !meta.height) throw refused(msg('mediaUnreadable'));
  // An animation's height here is one frame's (only the first frame is kept).
  const height = meta.pageHeight ?? meta.height;
  const sideways = (meta.orientation ?? 1) >= 5;
  return sideways ? { width: height, height: meta.width } : { width: meta.width, height };
}

/**
 * How many uploads this process decodes and re-encodes at once (issue 31): an 8,000 px 16-bit PNG, within the limits
 * above, costs about 2 s of both cores and 140 MB while it is decoded, and three at once took 580 MB. One at a time
 * (libvips already spreads one decode over the cores) bounds that to one image's worth; the others wait in order.
 */
export const MAX_CONCURRENT_DECODES = 1;
/**
 * How many uploads may wait for their decode: eight is a team uploading a skin's images together, about 16 s of waiting
 * for the last in the worst case. Beyond, an upload is answered busy (code 1001, `mediaBusy`) at once rather than
 * holding its bytes in memory for longer.
 */
export const MAX_WAITING_DECODES = 8;

/** What runs an upload's decode in its turn (a DecodeLane; tests may wrap one to watch the turns). */
export type DecodeTurns = { run<T>(work: () => Promise<T>): Promise<T> };

/**
 * The turns of the process's image decodes: at most `limit` run at once, the next `maxWaiting` wait in the order they
 * came (a finishing decode hands its turn straight to the first waiting one), and one more is refused as busy.
 */
export class DecodeLane implements DecodeTurns {
  private running = 0;
  private readonly queue: (() => void)[] = [];
  private readonly watchers: { count: number; resolve: () => void }[] = [];

  constructor(
    readonly limit: number,
    readonly maxWaiting: number,
  ) {}

  /** How many decodes wait for their turn now. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves once `count` decodes wait for their turn (an event tests await instead of a sleep). */
  whenWaiting(count: number): Promise<void> {
    if (this.queue.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ count, resolve }));
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running++;
    else {
      if (this.queue.length >= this.maxWaiting) throw new AppError(API_CODES.BUSY, msg('mediaBusy'));
      // The turn is handed over by `release` with `running` unchanged, so no newcomer can take it first.
      await new Promise<void>((resolve) => {
        this.queue.push(resolve);
        for (const watcher of this.watchers.filter((w) => this.queue.length >= w.count)) {
          this.watchers.splice(this.watchers.indexOf(watcher), 1);
          watcher.resolve();
        }
      });
    }
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** The decodes of this process (one lane per server process; the limit is per process, see docs/security.md). */
const DECODES = new DecodeLane(MAX_CONCURRENT_DECODES, MAX_WAITING_DECODES);

/** Whether an upload of this size fills a box without being enlarged. */
function fills(fit: 'cover' | 'contain', [boxWidth, boxHeight]: readonly [number, number], width: number, height: number): boolean {
  return fit === 'cover' ? width >= boxWidth && height >= boxHeight : width >= boxWidth || height >= boxHeight;
}

/**
 * Checks an upload and stores its renditions (see the top of this file). Each refusal is an AppError (HTTP 400) whose
 * message names why and whose field is `file` (or `purpose`); nothing is stored unless every check passed and every
 * rendition was made. An upload that finds MAX_WAITING_DECODES others waiting for their decode is answered busy (code
 * 1001, `mediaBusy`, field `file`), so an operator tries again in a moment (issue 31).
 */
export async function storeImage(
  bytes: Uint8Array,
  purpose: string,
  store: MediaStore = mediaStore(),
  decodes: DecodeTurns = DECODES,
): Promise<StoredImage> {
  if (!isImagePurpose(purpose)) throw refused(msg('mediaPurpose'));
  if (bytes.byteLength === 0) throw refused(msg('mediaEmpty'));
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw refused(msg('mediaTooLarge', { max: MAX_IMAGE_BYTES / 1024 / 1024 }));
  const kind = sniffImageKind(bytes);
  if (kind === 'svg') throw refused(msg('mediaSvg'));
  if (kind === null) throw refused(msg('mediaNotImage'));

  const { width, height } = await headerSize(bytes, kind);
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) throw refused(msg('mediaTooWide', { width, height, max: MAX_IMAGE_SIDE }));
  const { fit, boxes } = IMAGE_PURPOSES[purpose];
  const [minWidth, minHeight] = boxes[0];
  if (!fills(fit, boxes[0], width, height)) throw refused(msg('mediaTooSmall', { purpose, fit, minWidth, minHeight, width, height }));

  // The decode and the re-encodes wait for their turn (MAX_CONCURRENT_DECODES); a refusal for busy comes from here.
  const encoded = await decodes.run(() => renditionsOf(bytes, fit, boxes, width, height));

  const renditions: Rendition[] = [];
  for (const { data, info } of encoded) {
    const key = `${createHash('sha256').update(data).digest('hex')}.webp`;
    await store.put(key, data, 'image/webp');
    renditions.push({ key, url: store.url(key), width: info.width, height: info.height, bytes: data.byteLength });
  }
  return {
    purpose,
    source: { kind, width, height, bytes: bytes.byteLength },
    renditions,
    url: renditions[renditions.length - 1]!.url,
  };
}

/** The upload decoded once and re-encoded as WebP for each box it fills; an image that fails to decode is refused. */
async function renditionsOf(
  bytes: Uint8Array,
  fit: 'cover' | 'contain',
  boxes: readonly (readonly [number, number])[],
  width: number,
  height: number,
): Promise<{ data: Buffer; info: OutputInfo }[]> {
  try {
    // One decode, shared by the renditions; the pixel limit holds even if a header lied about the size.
    const upright = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
    return await Promise.all(
      boxes
        .filter((box) => fills(fit, box, width, height))
        .map(([boxWidth, boxHeight]) =>
          upright
            .clone()
            .resize(boxWidth, boxHeight, { fit, background: { r: 0, g: 0, b: 0, alpha: 0 } })
            // No withMetadata(): sharp writes none of the upload's EXIF, XMP, IPTC or ICC (colours converted to sRGB).
            .webp({ quality: WEBP_QUALITY, alphaQuality: 100, effort: 4 })
            .toBuffer({ resolveWithObject: true }),
        ),
    );
  } catch {
    throw refused(msg('mediaUnreadable'));
  }
}
