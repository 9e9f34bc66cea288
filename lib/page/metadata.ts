import 'server-only';
import type { Metadata } from 'next';
import { publicOrigin } from '../env';
import { SHARE_IMAGE_SIZE } from '../media/key';
import { loadPageChannel, type PageChannel, type PageParams } from './channel';

/**
 * The metadata of a page that names itself and nothing more (issue 30: one shape where twenty pages wrote the same
 * four lines): its title in the channel's words; the layout's template adds the channel's title (docs/decisions.md
 * page titles). A page is kept out of search engines unless `listed`: only the lists a footer tab opens (activities,
 * gifts, chain-up) are pages a search should find; a buyer's own pages, the forms and the result screens are not.
 */
export function titledPage(
  title: (channel: PageChannel) => string,
  { listed = false }: { listed?: boolean } = {},
): (props: { params: Promise<PageParams> }) => Promise<Metadata> {
  return async ({ params }) => {
    const channel = await loadPageChannel(params);
    return listed ? { title: title(channel) } : { title: title(channel), robots: { index: false } };
  };
}

/**
 * The link preview of a page about the channel rather than one good (issue 31, "Channels": the skin's share image): the
 * home page, the lists, a gift's or an exchange's page. Its picture is the share image the operator uploaded, on the
 * channel's public host (an upload of the folder store is a site path; of object storage, already absolute); a
 * channel without one has no picture, as before. A goods page shows its sale's own card instead (the good, its price),
 * which names the thing shared better than the channel's picture does (docs/decisions.md, "Link previews").
 */
export function channelPreview(
  channel: PageChannel,
  text: { title: string; description: string },
): Pick<Metadata, 'openGraph' | 'twitter'> {
  const share = channel.skin.shareImg;
  const image = share ? new URL(share, publicOrigin(channel.publicHost)).href : undefined;
  return {
    openGraph: {
      type: 'website',
      siteName: channel.theme.brandName,
      locale: channel.locale.replace('-', '_'),
      ...text,
      ...(image ? { images: [{ url: image, ...SHARE_IMAGE_SIZE, alt: channel.theme.brandName }] } : {}),
    },
    twitter: image ? { card: 'summary_large_image', ...text, images: [image] } : { card: 'summary', ...text },
  };
}
