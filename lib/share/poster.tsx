import 'server-only';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ImageResponse } from 'next/og';
import QRCode from 'qrcode';
import sharp from 'sharp';
import type { ChannelThemeInfo } from '../channel/theme';
import { parseSkin } from '../channel/skin';
import { formatFen } from '../format/money';
import type { SaleRecord } from '../sale/schema';
import { readBrandImage, type BrandImage } from '../brand-icon/source';
import type { MediaStore } from '../media/store';
import type { Translator } from '../i18n/translator';

/**
 * The share poster (issue 36, docs/sharing.md): a PNG in the channel's skin with the sale's cover, name, price (where
 * the channel shows amounts), the brand, and a QR code of the goods link; a held edition's poster the same with its
 * number instead of the price, and a QR code of its certificate's public page. Drawn in two steps: the **base** (everything
 * but the QR code, the same for every sharer: cached per channel, sale and language by ./poster-cache.ts) and the QR
 * code, composited per link, which costs a few milliseconds. Text is set in the font that ships with the project
 * (assets/fonts, a Noto Sans SC subset), never the machine's.
 */
export const POSTER_SIZE = { width: 750, height: 1240 } as const;
/** Where the QR code goes on the base: a white square the base leaves for it. */
export const POSTER_QR = { left: 510, top: 1020, size: 200 } as const;

const FONT_FILE = path.join(process.cwd(), 'assets/fonts/NotoSansSC-Poster.otf');
let font: Promise<Buffer> | undefined;
function posterFont(): Promise<Buffer> {
  font ??= readFile(FONT_FILE).catch((error: unknown) => {
    font = undefined;
    throw error;
  });
  return font;
}

/**
 * What a poster shows: a sale (its price where the channel shows amounts) or a held edition's certificate (no price: a
 * collectible held is not for sale). `detail` is the line under the name.
 */
export type PosterSubject = { cover: string; name: string; detail: string; price: number | null };

/** A sale's poster: its cover, name, edition size and price. */
export function salePosterSubject(sale: SaleRecord, t: Translator): PosterSubject {
  return {
    cover: sale.commodity.cover,
    name: sale.commodity.name,
    detail: t('share.posterEdition', { count: sale.commodity.amountSku }),
    price: sale.price,
  };
}

/** Where the cover goes on the base (the fallback colour block when the cover cannot be read). */
export const POSTER_COVER = { left: 40, top: 120, size: 670 } as const;
/** The logo's box in the brand line: drawn at most this size, its proportions kept. */
const LOGO_BOX = { width: 240, height: 60 } as const;
/** An upload the poster draws is read within this long and at most this big, or the poster goes without it. */
export const POSTER_IMAGE_LIMITS = { timeoutMs: 3000, maxBytes: 4 * 1024 * 1024, maxPixels: 4000 * 4000 } as const;

/**
 * An image the poster draws, as a data URI satori takes (PNG) with its size: an upload of the media store (issue 31,
 * stored as WebP, which satori does not draw) read through the store's interface, bounded in bytes, pixels and time, and
 * scaled to `box`; else a file under public/ (SVG, PNG or JPEG up to 1 MB, lib/brand-icon/source.ts). Anything missing,
 * too big, too slow or unreadable is null: the poster draws its fallback.
 */
export async function posterImage(
  src: string,
  store: MediaStore,
  box: { width: number; height: number; fit: 'cover' | 'inside' },
): Promise<BrandImage | null> {
  const key = store.keyOf(src);
  if (key === null) return readBrandImage(src);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), POSTER_IMAGE_LIMITS.timeoutMs);
  });
  const read = (async (): Promise<BrandImage | null> => {
    const stored = await store.get(key);
    if (!stored || stored.bytes.length > POSTER_IMAGE_LIMITS.maxBytes) return null;
    const { data, info } = await sharp(stored.bytes, { limitInputPixels: POSTER_IMAGE_LIMITS.maxPixels })
      .resize({ width: box.width, height: box.height, fit: box.fit, withoutEnlargement: box.fit === 'inside' })
      .png()
      .toBuffer({ resolveWithObject: true });
    return { dataUri: `data:image/png;base64,${data.toString('base64')}`, width: info.width, height: info.height };
  })().catch(() => null);
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** `image`'s size scaled down to fit `box`, its proportions kept. */
function fitted(image: BrandImage, box: { width: number; height: number }): { width: number; height: number } {
  const scale = Math.min(box.width / image.width, box.height / image.height, 1);
  return { width: Math.round(image.width * scale), height: Math.round(image.height * scale) };
}

/**
 * The poster's base: everything but the QR code, as PNG bytes. The brand line draws the channel's logo (its skin's
 * `brandImg`) before its name; the cover is the sale's, from public/ or the media store, else a block of the skin's colour.
 */
export async function renderPosterBase(theme: ChannelThemeInfo, subject: PosterSubject, t: Translator, store: MediaStore): Promise<Buffer> {
  const skin = parseSkin(theme.skinJson);
  const [coverImage, logo, fontData] = await Promise.all([
    posterImage(subject.cover, store, { width: POSTER_COVER.size, height: POSTER_COVER.size, fit: 'cover' }),
    posterImage(skin.brandImg, store, { ...LOGO_BOX, fit: 'inside' }),
    posterFont(),
  ]);
  const cover = coverImage?.dataUri ?? null;
  const logoSize = logo ? fitted(logo, LOGO_BOX) : null;
  const response = new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        background: skin.pageBgColor,
        fontFamily: 'Poster',
        padding: 40,
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', height: 60, gap: 16 }}>
        {logo && logoSize ? (
          // eslint-disable-next-line @next/next/no-img-element -- rendered to PNG by satori, not a page
          <img src={logo.dataUri} alt="" width={logoSize.width} height={logoSize.height} style={logoSize} />
        ) : null}
        <div style={{ display: 'flex', fontSize: 32, color: skin.color1 }}>{theme.brandName}</div>
      </div>
      <div
        style={{
          display: 'flex',
          marginTop: 20,
          width: POSTER_COVER.size,
          height: POSTER_COVER.size,
          borderRadius: 24,
          overflow: 'hidden',
          background: skin.lightColor,
        }}
      >
        {cover ? (
          // eslint-disable-next-line @next/next/no-img-element -- rendered to PNG by satori, not a page
          <img
            src={cover}
            width={POSTER_COVER.size}
            height={POSTER_COVER.size}
            alt=""
            style={{ width: POSTER_COVER.size, height: POSTER_COVER.size, objectFit: 'cover' }}
          />
        ) : null}
      </div>
      <div
        style={{
          display: 'flex',
          marginTop: 28,
          fontSize: 44,
          color: skin.color1,
          lineHeight: 1.25,
          maxHeight: 112,
          overflow: 'hidden',
        }}
      >
        {subject.name}
      </div>
      <div style={{ display: 'flex', marginTop: 12, fontSize: 26, color: skin.color1, opacity: 0.65 }}>{subject.detail}</div>
      <div style={{ display: 'flex', flex: 1 }} />
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          height: 240,
          margin: '0 -40px -40px',
          padding: '0 40px',
          background: skin.cardBgColor,
        }}
      >
        <div style={{ display: 'flex', flexDirection: 'column', flex: 1, gap: 14 }}>
          {theme.showAmount && subject.price !== null ? (
            <div style={{ display: 'flex', fontSize: 48, color: skin.signColor }}>{formatFen(subject.price)}</div>
          ) : null}
          <div style={{ display: 'flex', fontSize: 26, color: skin.color1 }}>{t('share.posterScan')}</div>
          <div style={{ display: 'flex', fontSize: 22, color: skin.color1, opacity: 0.65 }}>{theme.host}</div>
        </div>
        <div style={{ display: 'flex', width: POSTER_QR.size, height: POSTER_QR.size, background: '#ffffff' }} />
      </div>
    </div>,
    {
      ...POSTER_SIZE,
      fonts: [{ name: 'Poster', data: fontData, weight: 400, style: 'normal' }],
    },
  );
  return Buffer.from(await response.arrayBuffer());
}

/** The QR code of `link`, black on white, POSTER_QR.size square. */
export function posterQr(link: string): Promise<Buffer> {
  return QRCode.toBuffer(link, { type: 'png', width: POSTER_QR.size, margin: 2, errorCorrectionLevel: 'M' });
}

/** The poster: the base with the QR code of `link` in its place. */
export async function composePoster(base: Buffer, link: string): Promise<Buffer> {
  const qr = await posterQr(link);
  return sharp(base)
    .composite([{ input: qr, left: POSTER_QR.left, top: POSTER_QR.top }])
    .png({ compressionLevel: 6 })
    .toBuffer();
}
