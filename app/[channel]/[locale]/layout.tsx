import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { pageSkinStyle, pageThemeColor } from '@/lib/page/page-skin';
import { env, publicOrigin } from '@/lib/env';
import { channelIconLinks } from '@/lib/brand-icon/links';
import { channelPreview } from '@/lib/page/metadata';
import { headers } from 'next/headers';
import { RouteTransition } from '@/components/shell/route-transition';
import { Shell } from '@/components/shell/shell';
import { WechatShare } from '@/components/shell/wechat-share';
import { pageWechatShare } from '@/lib/page/wechat-share';
import { PlainLinkProgress } from '@/components/shell/plain-link-progress';
import { SiteFoot } from '@/components/layout/site-foot';
import packageJson from '@/package.json';
import '@/styles/globals.css';

type Props = { children: ReactNode; params: Promise<PageParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const channel = await loadPageChannel(params);
  const description = channel.theme.marketText || channel.theme.brandName;
  return {
    metadataBase: new URL(publicOrigin(channel.publicHost)),
    // spec §1 title rule for the channel; routes put their own title in front.
    title: { default: channel.title, template: `%s | ${channel.title}` },
    description,
    applicationName: channel.theme.brandName,
    icons: channelIconLinks(channel.theme.brandName, channel.skin),
    // A link to any page shows the channel's preview unless the page has its own (a goods page's sale card).
    ...channelPreview(channel, { title: channel.title, description }),
  };
}

export async function generateViewport({ params }: Props): Promise<Viewport> {
  const channel = await loadPageChannel(params);
  return { width: 'device-width', initialScale: 1, viewportFit: 'cover', themeColor: pageThemeColor(channel.skin) };
}

/**
 * Root layout per channel and locale: the channel's skin as CSS variables on <html>, rendered on the
 * server so the first paint has the channel's colours (DESIGN §6).
 *
 * Only what every page needs is here (issue 34): the page transition, the plain-link progress bar (server HTML and a
 * few inline lines) and the shell's one client module (components/shell/shell.tsx: the router's progress bar, the title
 * keeper, the router links, and, loaded when needed, the tracker, the WeChat tip and the toasts' host), none of them
 * needing the client store. The store and the API client (zustand,
 * SWR) are in the layouts of the sections that use them (components/shell/app-providers.tsx), so a shared page such as
 * goods detail loads less script before a phone can use it.
 */
export default async function ChannelLayout({ children, params }: Props) {
  const channel = await loadPageChannel(params);
  // The CSP nonce the proxy gave this answer (proxy.ts), for the one inline script of the layout.
  const nonce = (await headers()).get('content-security-policy')?.match(/'nonce-([^']+)'/)?.[1];
  // issue 36: the WeChat share card's bootstrap, for a channel with an official account only (docs/wechat.md).
  const wechatShare = await pageWechatShare(channel);
  return (
    <html lang={channel.locale} style={pageSkinStyle(channel.skin)} data-channel={channel.theme.key}>
      <body>
        {/* spec §1: grey background, maximum width, root hidden when the channel's status is 0. */}
        <div id="app" hidden={channel.theme.status === 0} className="mx-auto min-h-dvh max-w-(--container-app) bg-skin-page">
          <RouteTransition>{children}</RouteTransition>
          <SiteFoot lines={channel.foot.lines} service={channel.foot.service} t={channel.t} />
          <PlainLinkProgress label={channel.t('common.loading')} nonce={nonce} />
          <Shell
            tracking={{ trackingUrl: env().TRACKING_URL, channelKey: channel.theme.key, projectVersion: packageJson.version }}
            tip={{ title: channel.t('wxTip.title'), body: channel.t('wxTip.body'), dismiss: channel.t('wxTip.dismiss') }}
            loadingLabel={channel.t('common.loading')}
            notificationsLabel={channel.t('common.notifications')}
          />
        </div>
        {wechatShare ? <WechatShare nonce={nonce} shared={wechatShare} /> : null}
        {channel.theme.status === 0 ? (
          // spec §1 hides the root screen of a paused channel; without a word the visitor saw a blank grey page (issue 30).
          // One plain line outside it, in the channel's language, with no skin: the store is paused, not gone.
          <p className="mx-auto max-w-(--container-app) px-4 pt-8 text-center text-sm text-neutral-600" data-testid="store-paused">
            {channel.t('common.storePaused')}
          </p>
        ) : null}
      </body>
    </html>
  );
}
