import type { ReactNode } from 'react';
import type { PageChannel } from '@/lib/page/channel';
import { Card } from '@/components/ui/card';
import { ChannelBanner } from './channel-banner';
import { FooterNav, type FooterTab } from './footer-nav';

/**
 * A page a footer tab opens on a list of campaigns (issue 30: one shape for spec §2 active, receive, receive2 and
 * chain): the channel's banner, the page's title on a card over its lower edge, what the page lists, and the footer.
 */
export function BannerPage({
  channel: { t, skin, theme, labels },
  banner,
  title,
  tab,
  children,
}: {
  channel: Pick<PageChannel, 't' | 'skin' | 'theme' | 'labels'>;
  /** The banner picture: the channel's bannerImg, or its coverChainImg on the chain-up page. */
  banner: string;
  title: string;
  tab: FooterTab;
  children: ReactNode;
}) {
  return (
    <>
      <main className="pb-[1.6rem]">
        <ChannelBanner src={banner} brandName={theme.brandName} placeholderColor={skin.color1} />
        <div className="relative -mt-6 flex flex-col gap-3 px-3">
          <Card as="h1" className="p-3 text-lg font-semibold text-skin-1">
            {title}
          </Card>
          {children}
        </div>
      </main>
      <FooterNav labels={labels} attributes={theme.attributes} current={tab} t={t} />
    </>
  );
}
