'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import useSWR from 'swr';
import { useLocale, useTranslations } from 'use-intl';
import { Avatar } from '@/components/ui/avatar';
import { Card } from '@/components/ui/card';
import { Pending, PendingLine } from '@/components/ui/pending';
import { verifyHref } from '@/components/identity/identity-notice';
import { BusinessError, type ApiOutput } from '@/lib/client/api-client';
import { formatCount } from '@/lib/format/count';

/** The one call /mine reads its buyer's part from (issue 34; docs/api.md). */
export const MINE_STATE_PATH = '/market/api/userAttribute/mineSummary';
export type MineState = ApiOutput<typeof MINE_STATE_PATH>;

/**
 * The signed-in buyer's part of /mine (issue 34): the page's HTML is the same for every buyer of a channel (served
 * from the rendered-page cache), so each piece below reads the buyer's part from the one call, through SWR (one
 * request for all of them: they share the key). Until it answers, each keeps its place with a placeholder of its size;
 * the data's test ids appear only with the data. A session the server no longer accepts (401: revoked, expired; 403:
 * the buyer is blocked) shows the login prompt the anonymous page shows, and the buyer's parts go away.
 */
function useMineState(): { state: MineState | null; signedOut: boolean } {
  const { data, error } = useSWR<MineState>(MINE_STATE_PATH, { revalidateOnFocus: true });
  // 401: no live session (revoked, expired); 403: the buyer is blocked on this channel (its block ended the session;
  // the client shows the block's words, and the login page says them again). Either way: a visitor here, as before.
  const signedOut = error instanceof BusinessError && (error.code === 401 || error.code === 403);
  return { state: signedOut ? null : (data ?? null), signedOut };
}

/** The profile card: avatar, masked phone or nickname, account number and member-since; the login prompt on a 401. */
export function MineProfile({
  anonymous,
  defaultAvatar,
  placeholderColor,
  brandName,
}: {
  /** The anonymous page's login prompt, rendered by the server. */
  anonymous: ReactNode;
  /** The channel's userFaceImg, for a buyer without a picture of their own. */
  defaultAvatar: string;
  placeholderColor: string;
  brandName: string;
}) {
  const t = useTranslations('mine');
  const profile = useTranslations('profile');
  const giftCode = useTranslations('giftCode');
  const { state, signedOut } = useMineState();
  if (signedOut) return anonymous;
  if (!state) {
    return (
      <Card as="section" className="flex items-center gap-3 p-4" data-testid="mine-profile-pending" aria-busy="true">
        <Pending className="block size-[1.2rem] shrink-0 rounded-full" color={placeholderColor} />
        <div className="min-w-0">
          <p className="truncate text-lg font-semibold">
            <PendingLine className="w-32" />
          </p>
          <p className="text-sm text-neutral-500">
            <PendingLine className="w-24" />
          </p>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs text-neutral-500">
            <dt>{t('accountId')}</dt>
            <dd>
              <PendingLine className="w-20" />
            </dd>
            <dt>{t('memberSince')}</dt>
            <dd>
              <PendingLine className="w-16" />
            </dd>
          </dl>
        </div>
      </Card>
    );
  }
  return (
    <Card as="section" className="relative flex items-center gap-3 p-4" data-testid="mine-profile">
      <Avatar src={state.avatar ?? defaultAvatar} alt={t('avatar')} size="1.2rem" placeholderColor={placeholderColor} />
      <div className="min-w-0">
        {/* Room on the right for "Edit profile" (issue 36), which sits in the card's corner. */}
        <p className="truncate pr-[1.3rem] text-lg font-semibold text-skin-1" data-testid="mine-phone">
          {state.nickname ?? state.phone}
        </p>
        {state.nickname ? (
          <p className="text-sm text-neutral-500">{state.phone}</p>
        ) : (
          <p className="text-sm text-neutral-500">{brandName}</p>
        )}
        {/* The profile a buyer quotes to customer service: their account number and when they joined. */}
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs text-neutral-500" data-testid="mine-account">
          <dt>{t('accountId')}</dt>
          <dd className="flex flex-wrap items-center gap-x-2">
            <span className="tabular-nums select-all" data-testid="mine-account-id">
              {formatAccountNumber(state.accountNumber)}
            </span>
            {/* issue 36: the buyer's gift code, a QR a friend scans to give them a collectible. */}
            <Link href="/mine/gift-code" className="font-medium text-skin-1 underline underline-offset-2" data-testid="mine-gift-code">
              {giftCode('entry')}
            </Link>
          </dd>
          <dt>{t('memberSince')}</dt>
          <dd data-testid="mine-member-since">{state.memberSince}</dd>
        </dl>
      </div>
      {/* issue 36: the buyer's own profile (nickname, avatar, logins, data, closing). */}
      <Link
        href="/mine/profile"
        className="absolute top-3 right-3 rounded-full border border-black/10 px-2.5 py-1 text-xs text-skin-1 active:bg-skin-light"
        data-testid="mine-edit-profile"
      >
        {profile('edit')}
      </Link>
    </Card>
  );
}

/**
 * The real-name row (issue 33), where the channel asks for it or the buyer verified (docs/decisions.md): a store that
 * asks nothing does not invite its buyers to hand over an ID number. `asked` is the channel's, known to the server, so
 * the row's place is kept while the call is on its way.
 */
export function MineIdentityRow({ asked }: { asked: boolean }) {
  const t = useTranslations('identity');
  const { state, signedOut } = useMineState();
  if (signedOut) return null;
  if (!state) {
    return asked ? (
      <Card as="section" className="mt-4 flex items-center justify-between gap-3 px-4 py-3 text-sm" aria-busy="true">
        <h2 className="text-skin-1">{t('mineRow')}</h2>
        <PendingLine className="w-28" />
      </Card>
    ) : null;
  }
  if (!state.identity.maskedName && !state.identity.asked) return null;
  return (
    <Card as="section" className="mt-4 flex items-center justify-between gap-3 px-4 py-3 text-sm" data-testid="mine-identity">
      <h2 className="text-skin-1">{t('mineRow')}</h2>
      {state.identity.maskedName ? (
        <Link href="/mine/identity" className="text-neutral-500" data-testid="mine-identity-state">
          {t('mineVerified', { name: state.identity.maskedName })}
        </Link>
      ) : (
        <Link href={verifyHref('/mine')} className="flex items-center gap-1 text-neutral-500" data-testid="mine-identity-state">
          {t('mineNotVerified')} <span className="font-semibold text-skin-1">→ {t('mineVerify')}</span>
        </Link>
      )}
    </Card>
  );
}

/**
 * The red dot of unread notices (issue 32), beside "Notices" (`where: 'notices'`), or on the footer's Mine tab, where
 * the buyer's unread messages (issue 35) light it too.
 */
export function MineUnreadDot({ where }: { where: 'notices' | 'footer' }) {
  const t = useTranslations('notices');
  const inbox = useTranslations('inbox');
  const transfer = useTranslations('transfer');
  const { state } = useMineState();
  const notices = state?.unreadNotices ?? 0;
  const messages = where === 'footer' ? (state?.unreadMessages ?? 0) : 0;
  // issue 36: gifts waiting for the buyer's answer light the footer's dot too.
  const gifts = where === 'footer' ? (state?.incomingGifts ?? 0) : 0;
  const unread = notices + messages + gifts;
  if (unread <= 0) return null;
  const label = [
    notices > 0 ? t('unread', { count: notices }) : null,
    messages > 0 ? inbox('unread', { count: messages }) : null,
    gifts > 0 ? transfer('waiting', { count: gifts }) : null,
  ]
    .filter((part) => part !== null)
    .join(', ');
  return where === 'notices' ? (
    <span className="size-2 rounded-full bg-red-500" role="status" aria-label={label} data-testid="mine-notices-dot" />
  ) : (
    <span
      className="absolute -top-0.5 -right-1 size-2 rounded-full bg-red-500 ring-2 ring-skin-card"
      role="status"
      aria-label={label}
      data-testid="footer-dot"
    />
  );
}

/**
 * The count of the buyer's unread messages (issue 35, /mine/messages) beside "Messages": a red badge with the number
 * (99+ past 99), gone once they are read.
 */
export function MineMessagesBadge() {
  const t = useTranslations('inbox');
  const { state } = useMineState();
  const unread = state?.unreadMessages ?? 0;
  if (unread <= 0) return null;
  return (
    <span
      className="inline-flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-red-500 px-1.5 text-xs leading-none font-semibold text-white tabular-nums"
      role="status"
      aria-label={t('unread', { count: unread })}
      data-testid="mine-messages-badge"
    >
      {unread > 99 ? '99+' : unread}
    </span>
  );
}

/**
 * The buyer's gifts (issue 36, /mine/gifts): a row to the gifts waiting for their answer, with a red dot and their count
 * when there are any, and the way to the gift records.
 */
export function MineGiftsRow() {
  const t = useTranslations('transfer');
  const { state, signedOut } = useMineState();
  if (signedOut) return null;
  const waiting = state?.incomingGifts ?? 0;
  return (
    <Card as="section" className="mt-4 flex items-center text-sm" data-testid="mine-gifts">
      <Link
        href="/mine/gifts"
        className="flex flex-1 items-center gap-2 px-4 py-3 text-skin-1 active:bg-skin-light"
        data-testid="mine-gifts-link"
      >
        <span className="font-medium">{t('entry')}</span>
        {waiting > 0 ? (
          <>
            <span className="size-2 rounded-full bg-red-500" aria-hidden="true" data-testid="mine-gifts-dot" />
            <span className="text-xs text-neutral-500" role="status" data-testid="mine-gifts-waiting">
              {t('waiting', { count: waiting })}
            </span>
          </>
        ) : null}
        <span className="ml-auto text-neutral-500" aria-hidden="true">
          ›
        </span>
      </Link>
      <Link href="/mine/gifts/records" className="border-l border-black/5 px-4 py-3 text-neutral-500 active:bg-skin-light">
        {t('records')}
      </Link>
    </Card>
  );
}

/** The buyer's counts at a glance (issue 17, item 9), each a link to its list; the counts shown once known. */
export function MineSummaryCounts({
  items,
  label,
}: {
  items: readonly { href: string; label: string; field: 'collectibles' | 'boxes' | 'toPay'; testId: string }[];
  label: string;
}) {
  const { state, signedOut } = useMineState();
  const locale = useLocale();
  if (signedOut) return null;
  return (
    <Card as="section" aria-label={label} className="mt-4 p-2" aria-busy={state ? undefined : 'true'}>
      <ul className="flex" data-testid={state ? 'mine-summary' : undefined}>
        {items.map((item) => (
          <li key={item.href} className="flex-1">
            <Link href={item.href} className="flex flex-col items-center gap-0.5 rounded-lg py-2 active:bg-skin-light">
              {state ? (
                <span className="text-xl font-semibold text-skin-1 tabular-nums" data-testid={item.testId}>
                  {formatCount(state[item.field], locale)}
                </span>
              ) : (
                <span className="text-xl font-semibold">
                  <PendingLine className="w-6" />
                </span>
              )}
              <span className="text-xs text-neutral-500">{item.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** What only a signed-in buyer has on /mine (their records' entries, logout): gone when the call answers 401. */
export function MineBuyerOnly({ children }: { children: ReactNode }) {
  const { signedOut } = useMineState();
  return signedOut ? null : children;
}

/**
 * The buyer's account number as shown (3-3-4, easy to read out to customer service): their number on this channel,
 * never the deployment-wide public id, which would tie them across stores (issue 32).
 */
export function formatAccountNumber(number: string): string {
  return `${number.slice(0, 3)} ${number.slice(3, 6)} ${number.slice(6)}`;
}
