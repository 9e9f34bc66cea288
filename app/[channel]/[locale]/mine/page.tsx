import { headers } from 'next/headers';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { parseVisitor, VISITOR_HEADER } from '@/lib/page/visitor';
import { channelFeatures } from '@/lib/channel/labels';
import { Avatar } from '@/components/ui/avatar';
import { FooterNav } from '@/components/layout/footer-nav';
import { LogoutButton } from '@/components/auth/logout-button';
import { ClientMessages } from '@/components/shell/client-messages';
import { Card } from '@/components/ui/card';
import { MineEntries, mineEntries } from '@/components/layout/mine-entries';
import {
  MineBuyerOnly,
  MineGiftsRow,
  MineIdentityRow,
  MineMessagesBadge,
  MineProfile,
  MineSummaryCounts,
  MineUnreadDot,
} from '@/components/mine/mine-state';
import { pageAsksIdentity } from '@/lib/page/identity';

type Props = { params: Promise<PageParams> };

export const generateMetadata = titledPage(({ t }) => t('mine.title'));

/**
 * /mine (spec §2, §6): open to everyone. Anonymous visitors get a login prompt; a logged-in buyer sees the avatar
 * (the channel's userFaceImg unless they set one), the masked phone, and the entries to their records, each only
 * where the channel's labels enable the feature behind it (docs/decisions.md has the mapping).
 *
 * issue 34: served from the rendered-page cache like the pay page, in two variants: for a visitor with a session of
 * this channel and for one without, as the proxy tells (lib/page/visitor.ts, from the session cookie's claims). The
 * page reads no session and holds nothing of any buyer; the signed-in buyer's own part (profile, counts, unread
 * notices, real-name row) comes from one call read in the browser (components/mine/mine-state.tsx), which shows the
 * login prompt instead when the server no longer accepts the session.
 */
export default async function MinePage({ params }: Props) {
  const channel = await loadPageChannel(params);
  const { t, skin, labels, theme } = channel;
  const signedIn = parseVisitor((await headers()).get(VISITOR_HEADER)) === 'buyer';
  // Each entry and count only where the channel offers what is behind it (spec §6, one reading of the labels).
  const features = channelFeatures(labels, theme.attributes);

  const anonymous = (
    <Card as="section" className="flex flex-col items-center px-6 py-8 text-center" data-testid="mine-anonymous">
      <Avatar src={skin.userFaceImg} size="1.2rem" placeholderColor={skin.lightColor} className="opacity-70" />
      <h2 className="mt-4 text-lg font-semibold text-skin-1">{t('mine.anonymousTitle')}</h2>
      <p className="mt-1.5 text-sm text-neutral-500">{t('mine.anonymousBody')}</p>
      <Link
        href="/login?redirect=%2Fmine"
        className="mt-5 inline-flex h-[0.8rem] min-w-[3rem] items-center justify-center rounded-full bg-skin-button px-8 text-base font-medium text-skin-button-text shadow-card active:scale-95"
      >
        {t('mine.login')}
      </Link>
    </Card>
  );

  // The notices and the drop calendar are found here (issue 32; docs/decisions.md): Mine is the page that knows the buyer.
  // issue 35: a signed-in buyer's own messages lead the row, their unread count beside them.
  const news = (dot: ReactNode, messages: ReactNode) => (
    <Card as="section" aria-labelledby="mine-news" className="mt-4 p-2" data-testid="mine-news">
      <h2 id="mine-news" className="sr-only">
        {t('notices.news')}
      </h2>
      <ul className="flex">
        {messages ? (
          <li className="flex-1 border-r border-black/5">
            <Link
              href="/mine/messages"
              className="flex items-center justify-center gap-1.5 rounded-lg py-2.5 text-sm text-skin-1 active:bg-skin-light"
              data-testid="mine-messages"
            >
              {t('inbox.entry')}
              {messages}
            </Link>
          </li>
        ) : null}
        <li className="flex-1">
          <Link
            href="/notices"
            className="flex items-center justify-center gap-1.5 rounded-lg py-2.5 text-sm text-skin-1 active:bg-skin-light"
            data-testid="mine-notices"
          >
            {t('notices.title')}
            {dot}
          </Link>
        </li>
        <li className="flex-1 border-l border-black/5">
          <Link
            href="/calendar"
            className="flex items-center justify-center rounded-lg py-2.5 text-sm text-skin-1 active:bg-skin-light"
            data-testid="mine-calendar"
          >
            {t('notices.calendar')}
          </Link>
        </li>
      </ul>
    </Card>
  );

  if (!signedIn) {
    return (
      <>
        <main className="px-3 pt-5 pb-[1.6rem]">
          <h1 className="sr-only">{t('mine.title')}</h1>
          {anonymous}
          {news(null, null)}
        </main>
        <FooterNav labels={labels} attributes={theme.attributes} current="mine" t={t} />
      </>
    );
  }

  // At a glance (issue 17, item 9): what the buyer holds, and what waits for them, each a link to its list; the counts
  // are the call's (issue 34: one statement, lib/buyer/mine-summary.ts).
  const summary = [
    { href: '/mine/collection', label: t('mine.summaryCollectibles'), field: 'collectibles' as const, testId: 'mine-summary-collectibles' },
    features.sale ? { href: '/mine/box', label: t('mine.summaryBoxes'), field: 'boxes' as const, testId: 'mine-summary-boxes' } : null,
    features.sale ? { href: '/mine/records', label: t('mine.summaryToPay'), field: 'toPay' as const, testId: 'mine-summary-to-pay' } : null,
  ].filter((item) => item !== null);
  // issue 33: the real-name row, where the channel asks for it or the buyer verified (docs/decisions.md). Whether the
  // channel asks is the channel's: known here, so the row's place is kept until the call answers.
  const asksIdentity = await pageAsksIdentity(channel);
  const entries = mineEntries({ features, attributes: theme.attributes, skin, t });

  return (
    <ClientMessages channel={channel} namespaces={['mine', 'common', 'notices', 'identity', 'inbox', 'transfer', 'profile', 'giftCode']}>
      <main className="px-3 pt-5 pb-[1.6rem]">
        <h1 className="sr-only">{t('mine.title')}</h1>
        <MineProfile
          anonymous={anonymous}
          defaultAvatar={skin.userFaceImg}
          placeholderColor={skin.lightColor}
          brandName={theme.brandName}
        />
        <MineIdentityRow asked={asksIdentity} />
        {news(<MineUnreadDot where="notices" />, <MineMessagesBadge />)}
        <MineSummaryCounts items={summary} label={t('mine.summary')} />
        {/* issue 36: gifts between buyers, a dot when some wait for the buyer's answer. */}
        <MineGiftsRow />
        <MineBuyerOnly>
          <Card as="section" aria-labelledby="mine-records" className="mt-4 p-4">
            <h2 id="mine-records" className="mb-3 text-base font-semibold text-skin-1">
              {t('mine.records')}
            </h2>
            <MineEntries entries={entries} placeholderColor={skin.lightColor} />
          </Card>
          <div className="mt-6">
            <LogoutButton />
          </div>
        </MineBuyerOnly>
      </main>
      <FooterNav
        labels={labels}
        attributes={theme.attributes}
        current="mine"
        t={t}
        dot={{ tab: 'mine', node: <MineUnreadDot where="footer" /> }}
      />
    </ClientMessages>
  );
}
