import { z } from 'zod';
import { CSS_COLOR, SKIN_COLOR_FIELDS, skinCssVariables, type SkinColorField } from './skin-colours';
import { MEDIA_PATH } from '../media/key';

// The colours' names and CSS live in ./skin-colours.ts (no zod: the console's skin editor runs them in the browser).
export { SKIN_COLOR_FIELDS, skinCssVariables };
export type { SkinColorField };

/**
 * Skin image fields of spec §3, and one of ours: `mineChainImg`, the icon of the chain-up records entry on /mine
 * (spec §3 has no icon for it; `coverChainImg` is the wide cover of the /chain page, not an icon).
 */
export const SKIN_IMAGE_FIELDS = [
  'userFaceImg',
  'bannerImg',
  'brandImg',
  'minecollectionImg',
  'mineBrandImg',
  'mineRecordsImg',
  'mineExchangeImg',
  'mineDestoryImg',
  'mineReceiveImg',
  'coverChainImg',
  'paySuccessImg',
  'payFailImg',
  'brandResultImg',
  'mineChainImg',
] as const;

/**
 * Brand images spec §3 has no field for (issue 31, "Channels": the console uploads a share image and a favicon source
 * besides the logo and the banner). Optional: a skin without them is whole, and pages fall back (the favicon is drawn
 * from `brandImg`, a link preview shows the sale's card), so no stored skin and no default changes meaning.
 */
export const SKIN_EXTRA_IMAGE_FIELDS = ['shareImg', 'faviconImg'] as const;

export type SkinImageField = (typeof SKIN_IMAGE_FIELDS)[number];
export type SkinExtraImageField = (typeof SKIN_EXTRA_IMAGE_FIELDS)[number];
export type Skin = Record<SkinColorField, string> & Record<SkinImageField, string> & Partial<Record<SkinExtraImageField, string>>;

export const DEFAULT_SKIN: Skin = {
  color1: '#1f2937',
  color2: '#6b7280',
  signColor: '#e11d48',
  lightColor: '#f3f4f6',
  iconCheckedColor: '#111827',
  iconColor: '#9ca3af',
  pageBgColor: '#f2f2f2',
  cardBgColor: '#ffffff',
  buttonBgColor: '#111827',
  buttonColor: '#ffffff',
  shadowColor: 'rgba(0, 0, 0, 0.08)',
  navDefaultIconColor: '#9ca3af',
  navIconSelectColor: '#111827',
  userFaceImg: '/brands/default/user-face.svg',
  bannerImg: '/brands/default/banner.svg',
  brandImg: '/brands/default/brand.svg',
  minecollectionImg: '/brands/default/mine-collection.svg',
  mineBrandImg: '/brands/default/mine-brand.svg',
  mineRecordsImg: '/brands/default/mine-records.svg',
  mineExchangeImg: '/brands/default/mine-exchange.svg',
  mineDestoryImg: '/brands/default/mine-destory.svg',
  mineReceiveImg: '/brands/default/mine-receive.svg',
  coverChainImg: '/brands/default/cover-chain.svg',
  paySuccessImg: '/brands/default/pay-success.svg',
  payFailImg: '/brands/default/pay-fail.svg',
  brandResultImg: '/brands/default/brand-result.svg',
  mineChainImg: '/brands/default/mine-chain.svg',
};

// A CSS colour we are willing to put into a style attribute: hex, rgb()/rgba()/hsl()/hsla() or a named colour, each
// in a shape CSS takes as a colour (CSS_COLOR, issue 31).
// Anything else (e.g. "red; background:url(...)") is dropped, so a skin cannot inject CSS. Inside the brackets only
// plain spaces: no tab, line break or other control character (issue 29).
export const cssColor = z.string().trim().regex(CSS_COLOR);
// Images: site-relative paths or http(s) URLs without quotes, parentheses, spaces or control characters (NUL
// included). The shape a page can put into an <img> or a style attribute; where an operator may point one is
// `skinImageProblem` below.
export const imageUrl = z
  .string()
  .trim()
  .regex(/^(\/(?!\/)|https?:\/\/)[^"'()\s<>\p{Cc}]+$/u);

/**
 * Where an operator may point a skin image (issue 29): the store's own art, i.e. a file of the channel's brand folder
 * (`/brands/<key in lower case>/…`), of the default skin (`/brands/default/…`) or of the goods art (`/goods/…`), named
 * as the files under public/ that the proxy serves as files are (proxy.ts `config.matcher`); or an https URL on one of
 * the deployment's media hosts (MEDIA_ORIGINS), the only other hosts the page CSP lets images come from
 * (lib/security/headers.ts); or an uploaded image of the folder store, `/media/<key>.webp` (issue 31; lib/media: with
 * object storage an upload's URL is on MEDIA_PUBLIC_URL, which lib/env.ts requires to be a media host). Null when `src` may be used; else why not. Another channel's brand folder, plain http, any
 * other host or a path the store does not serve as a file are refused, so a skin can neither borrow another store's
 * look nor name an image the page would block or answer with /404.
 */
export function skinImageProblem(src: string, channelKey: string, mediaOrigins: readonly string[]): string | null {
  const own = channelKey.toLowerCase();
  if (imageUrl.safeParse(src).success) {
    const art = /^\/(?:brands\/([a-z0-9-]+)|goods)\/[a-z0-9-]+\.svg$/.exec(src);
    if (art && (art[1] === undefined || art[1] === own || art[1] === 'default')) return null;
    if (MEDIA_PATH.test(src)) return null;
    if (src.startsWith('https://') && URL.canParse(src)) {
      const url = new URL(src);
      if (!url.username && !url.password && mediaOrigins.includes(url.origin)) return null;
    }
  }
  return skinImageRule(channelKey, mediaOrigins);
}

/** What `skinImageProblem` asks for, in words an operator can act on. */
export function skinImageRule(channelKey: string, mediaOrigins: readonly string[]): string {
  const own = channelKey.toLowerCase();
  const hosts = mediaOrigins.length > 0 ? mediaOrigins.join(', ') : 'none listed';
  return (
    `must be /brands/${own}/<name>.svg, /brands/default/<name>.svg or /goods/<name>.svg (lower-case names), ` +
    `an uploaded image (/media/<key>.webp), or an https URL on a media host of the deployment (MEDIA_ORIGINS: ${hosts})`
  );
}

/**
 * Parses a channel's skinJson (spec §3). A parse failure is ignored silently: defaults apply,
 * field by field, so one bad colour does not lose the rest of the skin.
 */
export function parseSkin(skinJson: string | null | undefined): Skin {
  let raw: unknown;
  try {
    raw = JSON.parse(skinJson ?? '{}');
  } catch {
    return { ...DEFAULT_SKIN };
  }
  const skin: Skin = { ...DEFAULT_SKIN };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return skin;
  const record = raw as Record<string, unknown>;
  for (const field of SKIN_COLOR_FIELDS) {
    const parsed = cssColor.safeParse(record[field]);
    if (parsed.success) skin[field] = parsed.data;
  }
  for (const field of SKIN_IMAGE_FIELDS) {
    const parsed = imageUrl.safeParse(record[field]);
    if (parsed.success) skin[field] = parsed.data;
  }
  // The extras are read as leniently: a bad one is as if it were not set.
  for (const field of SKIN_EXTRA_IMAGE_FIELDS) {
    const parsed = imageUrl.safeParse(record[field]);
    if (parsed.success) skin[field] = parsed.data;
  }
  return skin;
}
