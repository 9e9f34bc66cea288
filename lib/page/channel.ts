import 'server-only';
import { complianceLines, type ComplianceLine } from '../channel/compliance';
import type { CustomerService } from '../db/schema';
import { redirect } from 'next/navigation';
import { readChannel, toThemeInfo } from '../channel/service';
import { domainSettings, publicHostOf } from '../channel/domains';
import { parseLabels, channelTitle, type Label } from '../channel/labels';
import { parseSkin, type Skin } from '../channel/skin';
import type { ChannelThemeInfo } from '../channel/theme';
import type { ChannelRow } from '../db/schema';
import { isLocale, type Locale } from '../i18n/locale';
import { translator, type Translator } from '../i18n/translator';
import { getDb } from '../db/client';
import type { ChannelScope } from '../procedure/scope';
import { pageLoader } from './loader';

export type PageParams = { channel: string; locale: string };

export type PageChannel = {
  id: number;
  /** The channel key (theme.key), for page guards. */
  key: string;
  theme: ChannelThemeInfo;
  skin: Skin;
  labels: Label[];
  locale: Locale;
  t: Translator;
  /** The channel's page title (spec §1 title rule), already translated. */
  title: string;
  /**
   * The host the channel's absolute links carry (issue 31, "Domains"): link previews, canonical URLs, share links. Its
   * primary domain, or its key host (lib/channel/domains.ts publicHostOf); `theme.host` stays the key host.
   */
  publicHost: string;
  /** The payment providers the channel lists (channels.payment_providers; empty: every one the deployment runs). */
  paymentProviders: string[];
  /** The foot of its pages (issue 31): the compliance footer's lines and the customer-service contact. */
  foot: { lines: ComplianceLine[]; service: CustomerService };
};

/**
 * A channel as a store page reads it, from its row: the store's pages with the published skin, the console's skin
 * preview (lib/page/skin-preview.ts) with a draft one.
 */
export function toPageChannel(row: ChannelRow, skin: Skin, locale: Locale, publicHost: string): PageChannel {
  const theme = toThemeInfo(row);
  const labels = parseLabels(theme.labelList);
  const t = translator(locale);
  return {
    id: row.id,
    key: theme.key,
    theme,
    skin,
    labels,
    locale,
    t,
    title: t(`title.${channelTitle(labels, theme.attributes)}`),
    paymentProviders: row.paymentProviders,
    publicHost,
    foot: { lines: complianceLines(row), service: row.customerService ?? {} },
  };
}

/** The page's channel by its key and locale as the route spells them (loadPageChannel, and loaders keyed by them). */
export const pageChannel = pageLoader(async (key: string, locale: string): Promise<PageChannel> => {
  if (!isLocale(locale)) redirect('/404');
  const row = await readChannel(getDb(), key);
  if (!row) redirect('/404');
  return toPageChannel(row, parseSkin(row.skinJson), locale, await publicHostOf(getDb(), row, domainSettings()));
});

/**
 * Loads the channel of a page from its route params (DESIGN §3: never from headers, so pages stay
 * cacheable per channel). Unknown channel or locale → /404, as every unknown thing of the store goes (never the
 * framework's bare 404: vercel/next.js#59180 in docs/decisions.md). The proxy only rewrites to channels it found,
 * so this is reached when a channel is gone between the two; /404 on that host then answers "store not found".
 * Layout, metadata, viewport and page of one request share one read (lib/page/loader.ts); requests share the
 * channel's row through the cached reads.
 */
export async function loadPageChannel(params: Promise<PageParams>): Promise<PageChannel> {
  const { channel: key, locale } = await params;
  return pageChannel(key, locale);
}

/** The scope of a page's reads of its channel's data. */
export function pageScope(channel: { id: number }): ChannelScope {
  return { db: getDb(), now: new Date(), channelId: channel.id };
}
