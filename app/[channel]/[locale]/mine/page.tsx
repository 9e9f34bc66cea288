import { formatCount } from '@/lib/format/count';
import Link from 'next/link';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { getPageUser } from '@/lib/page/session';
import { pageMineSummary } from '@/lib/page/mine';
import { maskPhone } from '@/lib/auth/mask';
import { channelFeatures } from '@/lib/channel/labels';
import { formatDate } from '@/lib/format/date';
import { Avatar } from '@/components/ui/avatar';
import { FooterNav } from '@/components/layout/footer-nav';
import { LogoutButton } from '@/components/auth/logout-button';
import { ClientMessages } from '@/components/shell/client-messages';
import { Card } from '@/components/ui/card';
import { MineEntries, mineEntries } from '@/components/layout/mine-entries';
import { pageAsksIdentity } from '@/lib/page/identity';
import { verifyHref } from '@/components/identity/identity-notice';

type Props = { params: Promise<PageParams> };

export const generateMetadata = titledPage(({ t }) => t('mine.title'));

/**
 * /mine (spec §2, §6): open to everyone. Anonymous visitors get a login prompt; a logged-in buyer sees the avatar
 * (the channel's userFaceImg unless they set one), the masked phone, and the entries to their records, each only
 * where the channel's labels enable the feature behind it (docs/decisions.md has the mapping).
 */
export default async function MinePage({ params }: Props) {
  const channel = await loadPageChannel(params);
  const { t, skin, labels, theme } = channel;
  const user = await getPageUser({ id: channel.id, key: theme.key });
  // Each entry and count only where the channel offers what is behind it (spec §6, one reading of the labels).
  const features = channelFeatures(labels, theme.attributes);

  // At a glance (issue 17, item 9): what the buyer holds, and what waits for them, each a link to its list. With the
  // account number, the verified name and the unread notices, ONE statement (issue 34: lib/buyer/mine-summary.ts).
  const mine = user ? await pageMineSummary(channel.id, user.id) : null;
  const summary = mine
    ? [
        { href: '/mine/collection', label: t('mine.summaryCollectibles'), value: mine.collectibles, testId: 'mine-summary-collectibles' },
        features.sale ? { href: '/mine/box', label: t('mine.summaryBoxes'), value: mine.boxes, testId: 'mine-summary-boxes' } : null,
        features.sale ? { href: '/mine/records', label: t('mine.summaryToPay'), value: mine.toPay, testId: 'mine-summary-to-pay' } : null,
      ].filter((item) => item !== null)
    : [];

  // The buyer's account number on this channel (issue 32): random and per channel, made on first need.
  const accountNumber = mine?.accountNumber ?? null;

  // issue 33: the real-name row, where the channel asks for it or the buyer verified (docs/decisions.md): a store that
  // asks nothing does not invite its buyers to hand over an ID number it has no use for.
  const identity = mine?.identityName ? { maskedName: mine.identityName } : null;
  const showIdentity = user !== null && (identity !== null || (await pageAsksIdentity(channel)));

  const entries = mineEntries({ features, attributes: theme.attributes, skin, t });
  // The notices and the drop calendar are found here (issue 32; docs/decisions.md): Mine is the page that knows the buyer.
  const unread = mine?.unreadNotices ?? 0;
  const unreadLabel = t('notices.unread', { count: unread });

  return (
    <>
      <main className="px-3 pt-5 pb-[1.6rem]">
        <h1 className="sr-only">{t('mine.title')}</h1>
        {user ? (
          <Card as="section" className="flex items-center gap-3 p-4" data-testid="mine-profile">
            <Avatar src={user.avatar ?? skin.userFaceImg} alt={t('mine.avatar')} size="1.2rem" placeholderColor={skin.lightColor} />
            <div className="min-w-0">
              <p className="truncate text-lg font-semibold text-skin-1" data-testid="mine-phone">
                {user.nickname ?? maskPhone(user.phone)}
              </p>
              {user.nickname ? (
                <p className="text-sm text-neutral-500">{maskPhone(user.phone)}</p>
              ) : (
                <p className="text-sm text-neutral-500">{theme.brandName}</p>
              )}
              {/* The profile a buyer quotes to customer service: their account number and when they joined. */}
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs text-neutral-500" data-testid="mine-account">
                <dt>{t('mine.accountId')}</dt>
                <dd className="tabular-nums select-all" data-testid="mine-account-id">
                  {accountNumber ? formatAccountNumber(accountNumber) : null}
                </dd>
                <dt>{t('mine.memberSince')}</dt>
                <dd data-testid="mine-member-since">{formatDate(user.createdAt, 'yyyy-MM-dd', theme.timeZone)}</dd>
              </dl>
            </div>
          </Card>
        ) : (
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
        )}

        {showIdentity ? (
          <Card as="section" className="mt-4 flex items-center justify-between gap-3 px-4 py-3 text-sm" data-testid="mine-identity">
            <h2 className="text-skin-1">{t('identity.mineRow')}</h2>
            {identity ? (
              <Link href="/mine/identity" className="text-neutral-500" data-testid="mine-identity-state">
                {t('identity.mineVerified', { name: identity.maskedName })}
              </Link>
            ) : (
              <Link href={verifyHref('/mine')} className="flex items-center gap-1 text-neutral-500" data-testid="mine-identity-state">
                {t('identity.mineNotVerified')} <span className="font-semibold text-skin-1">→ {t('identity.mineVerify')}</span>
              </Link>
            )}
          </Card>
        ) : null}

        <Card as="section" aria-labelledby="mine-news" className="mt-4 p-2" data-testid="mine-news">
          <h2 id="mine-news" className="sr-only">
            {t('notices.news')}
          </h2>
          <ul className="flex">
            <li className="flex-1">
              <Link
                href="/notices"
                className="flex items-center justify-center gap-1.5 rounded-lg py-2.5 text-sm text-skin-1 active:bg-skin-light"
                data-testid="mine-notices"
              >
                {t('notices.title')}
                {unread > 0 ? (
                  <span className="size-2 rounded-full bg-red-500" role="status" aria-label={unreadLabel} data-testid="mine-notices-dot" />
                ) : null}
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

        {user ? (
          <>
            <Card as="section" aria-label={t('mine.summary')} className="mt-4 p-2">
              <ul className="flex" data-testid="mine-summary">
                {summary.map((item) => (
                  <li key={item.href} className="flex-1">
                    <Link href={item.href} className="flex flex-col items-center gap-0.5 rounded-lg py-2 active:bg-skin-light">
                      <span className="text-xl font-semibold text-skin-1 tabular-nums" data-testid={item.testId}>
                        {formatCount(item.value, channel.locale)}
                      </span>
                      <span className="text-xs text-neutral-500">{item.label}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </Card>
            <Card as="section" aria-labelledby="mine-records" className="mt-4 p-4">
              <h2 id="mine-records" className="mb-3 text-base font-semibold text-skin-1">
                {t('mine.records')}
              </h2>
              <MineEntries entries={entries} placeholderColor={skin.lightColor} />
            </Card>
            <div className="mt-6">
              <ClientMessages channel={channel} namespaces={['mine', 'common']}>
                <LogoutButton />
              </ClientMessages>
            </div>
          </>
        ) : null}
      </main>
      <FooterNav
        labels={labels}
        attributes={theme.attributes}
        current="mine"
        t={t}
        dot={unread > 0 ? { tab: 'mine', label: unreadLabel } : undefined}
      />
    </>
  );
}

/**
 * The buyer's account number as shown (3-3-4, easy to read out to customer service): their number on this channel,
 * never the deployment-wide public id, which would tie them across stores (issue 32).
 */
function formatAccountNumber(number: string): string {
  return `${number.slice(0, 3)} ${number.slice(3, 6)} ${number.slice(6)}`;
}
