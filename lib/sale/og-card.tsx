import 'server-only';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ImageResponse } from 'next/og';
import type { ChannelThemeInfo } from '../channel/theme';
import { parseSkin } from '../channel/skin';
import { formatFen } from '../format/money';
import type { SaleRecord } from './schema';
import type { Translator } from '../i18n/translator';

export const OG_SIZE = { width: 1200, height: 630 } as const;

/**
 * A site-relative image under public/ as a data URI, for satori (chat-app crawlers need one raster card, not SVG; the
 * share posters of lib/share draw covers with it too). An uploaded picture elsewhere answers null.
 */
export async function publicImageDataUri(src: string): Promise<string | null> {
  if (!src.startsWith('/') || src.includes('..')) return null;
  const ext = path.extname(src).toLowerCase();
  const type = ext === '.svg' ? 'image/svg+xml' : ext === '.png' ? 'image/png' : ext === '.jpg' || ext === '.jpeg' ? 'image/jpeg' : null;
  if (!type) return null;
  try {
    const bytes = await readFile(path.join(process.cwd(), 'public', src));
    return `data:${type};base64,${bytes.toString('base64')}`;
  } catch {
    return null;
  }
}

/**
 * The PNG link-preview card of a sale (1200×630): cover, name, edition, price (unless the channel hides
 * amounts), in the channel's colours. Chat apps and social crawlers do not render SVG previews.
 */
export async function saleOgCard(theme: ChannelThemeInfo, sale: SaleRecord, t: Translator): Promise<ImageResponse> {
  const skin = parseSkin(theme.skinJson);
  const cover = await publicImageDataUri(sale.commodity.cover);
  return new ImageResponse(
    <div style={{ width: '100%', height: '100%', display: 'flex', background: skin.pageBgColor, fontFamily: 'Geist' }}>
      {cover ? (
        // eslint-disable-next-line @next/next/no-img-element -- rendered to PNG by satori, not a page
        <img src={cover} width={630} height={630} alt="" style={{ width: 630, height: 630 }} />
      ) : (
        <div style={{ width: 630, height: 630, background: skin.color1 }} />
      )}
      <div style={{ flex: 1, display: 'flex', flexDirection: 'column', justifyContent: 'center', padding: '56px 56px', gap: 20 }}>
        <div style={{ display: 'flex', fontSize: 30, color: skin.color1, opacity: 0.85 }}>{theme.brandName}</div>
        <div style={{ display: 'flex', fontSize: 64, fontWeight: 700, color: skin.color1, lineHeight: 1.1 }}>{sale.commodity.name}</div>
        <div style={{ display: 'flex', fontSize: 30, color: '#525252' }}>{t('ogCard.edition', { count: sale.commodity.amountSku })}</div>
        {theme.showAmount ? (
          <div style={{ display: 'flex', fontSize: 52, fontWeight: 700, color: skin.signColor }}>{formatFen(sale.price)}</div>
        ) : null}
        <div style={{ display: 'flex', marginTop: 12 }}>
          <div
            style={{
              display: 'flex',
              background: skin.buttonBgColor,
              color: skin.buttonColor,
              fontSize: 28,
              padding: '14px 36px',
              borderRadius: 999,
            }}
          >
            {theme.buyText || t('goods.buy')}
          </div>
        </div>
      </div>
    </div>,
    { ...OG_SIZE, headers: { 'cache-control': 'public, max-age=300' } },
  );
}
