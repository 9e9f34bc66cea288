import { titledPage } from '@/lib/page/metadata';
import { openMineList } from '@/lib/page/mine-list';
import { closingState } from '@/lib/buyer/close-account';
import { getPageUser } from '@/lib/page/session';
import { maskPhone } from '@/lib/auth/mask';
import { smsProvider } from '@/lib/auth/sms';
import { env } from '@/lib/env';
import { PageHeader } from '@/components/layout/page-header';
import { Card } from '@/components/ui/card';
import { ClientMessages } from '@/components/shell/client-messages';
import { CloseForm } from '@/components/profile/close-form';

type Props = {
  params: Promise<{ channel: string; locale: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const generateMetadata = titledPage(({ t }) => t('profile.closeTitle'));

/**
 * /mine/profile/close (issue 36, login required; docs/profile.md, "Closing the account"): what closing means, what the
 * buyer still holds on every store (forfeited unless given away first), what keeps it from closing now, and the code
 * form.
 */
export default async function ClosePage(props: Props) {
  const { channel, scope } = await openMineList(props, '/mine/profile/close');
  const { t } = channel;
  const [state, user] = await Promise.all([closingState(scope), getPageUser(channel)]);
  const { held, blockers } = state;
  return (
    <>
      <PageHeader title={t('profile.closeTitle')} backHref="/mine/profile" backLabel={t('goods.back')} />
      <main className="flex flex-col gap-3 px-3 pt-3 pb-[1.6rem]">
        <Card as="section" className="flex flex-col gap-2 p-4 text-sm text-neutral-700">
          <p>{t('profile.closeIntro')}</p>
          <p className="text-xs text-neutral-500">{t('profile.closeKept')}</p>
        </Card>
        <Card as="section" aria-labelledby="close-held" className="flex flex-col gap-2 p-4" data-testid="close-held">
          <h2 id="close-held" className="text-base font-semibold text-skin-1">
            {held.length > 0 ? t('profile.closeHeld', { count: held.length }) : t('profile.closeHeldNone')}
          </h2>
          {held.length > 0 ? (
            <>
              <ul className="flex flex-col gap-1 text-sm">
                {held.map((h, i) => (
                  <li key={i} className="flex justify-between gap-2" data-testid="close-held-item">
                    <span className="truncate text-skin-1">
                      {h.name} #{h.number}
                    </span>
                    {h.here ? null : (
                      <span className="shrink-0 text-xs text-neutral-500">{t('profile.otherStore', { store: h.channel })}</span>
                    )}
                  </li>
                ))}
              </ul>
              <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="close-forfeit">
                {t('profile.closeForfeit')}
              </p>
            </>
          ) : null}
          {state.pendingGiftsSent > 0 ? (
            <p className="text-xs text-neutral-600">{t('profile.closeGiftsSent', { count: state.pendingGiftsSent })}</p>
          ) : null}
        </Card>
        {state.canClose ? (
          <ClientMessages channel={channel} namespaces={['profile', 'common', 'login']}>
            <CloseForm phone={user ? maskPhone(user.phone) : ''} demoOutbox={smsProvider(env().SMS_PROVIDER).showsCodes} />
          </ClientMessages>
        ) : (
          <Card as="section" className="flex flex-col gap-2 p-4 text-sm text-red-700" data-testid="close-blocked">
            {blockers.toPay > 0 ? <p>{t('profile.closeToPay', { count: blockers.toPay })}</p> : null}
            {blockers.refundsOwed > 0 ? <p>{t('profile.closeRefundOwed')}</p> : null}
          </Card>
        )}
      </main>
    </>
  );
}
