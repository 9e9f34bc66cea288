import 'server-only';
import type { Metadata } from 'next';
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
