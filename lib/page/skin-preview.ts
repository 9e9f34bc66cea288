import 'server-only';
import { domainSettings, publicHostOf } from '../channel/domains';
import { parseSkin, skinCssVariables, skinImageProblem, SKIN_EXTRA_IMAGE_FIELDS, SKIN_IMAGE_FIELDS, type Skin } from '../channel/skin';
import type { ChannelRow } from '../db/schema';
import { env } from '../env';
import { isLocale, type Locale } from '../i18n/locale';
import { toPageChannel, type PageChannel } from './channel';
import type { Db } from '../db/client';

/**
 * The draft skin the preview shows (issue 31): the published skin with the images the editor names in the query, each
 * one only if the skin may name it for this channel (skinImageProblem: its own art, an upload, a media host), so the
 * preview never shows what publishing would refuse. Colours come by postMessage, not here.
 */
export function previewDraft(row: ChannelRow, search: Record<string, string | string[] | undefined>): Skin {
  const published = parseSkin(row.skinJson);
  const draft: Record<string, unknown> = { ...published };
  for (const field of [...SKIN_IMAGE_FIELDS, ...SKIN_EXTRA_IMAGE_FIELDS]) {
    const src = search[field];
    if (typeof src === 'string' && skinImageProblem(src, row.key, env().MEDIA_ORIGINS) === null) draft[field] = src;
  }
  return parseSkin(JSON.stringify(draft));
}

/** The channel as a store page reads it (lib/page/channel.ts), with the draft skin instead of the published one. */
export async function previewChannel(db: Db, row: ChannelRow, skin: Skin, consoleLocale: Locale): Promise<PageChannel> {
  const locale = isLocale(row.locale) ? row.locale : consoleLocale;
  return toPageChannel(row, skin, locale, await publicHostOf(db, row, domainSettings()));
}

/**
 * The skin's CSS variables on the preview's root, as the store's layout puts them on <html> (the theme's colours are
 * resolved there, so they must be set there). Values are colours parseSkin let through and the contrast variants: no
 * character of them can end the rule or the style element.
 */
export function skinRootCss(skin: Skin): string {
  return `:root{${Object.entries(skinCssVariables(skin))
    .map(([name, value]) => `${name}:${value}`)
    .join(';')}}`;
}
