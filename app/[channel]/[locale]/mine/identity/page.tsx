import { loadPageChannel } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import type { SearchPageProps } from '@/lib/page/mine-list';
import { requirePageUser } from '@/lib/page/session';
import { pageBuyerIdentity } from '@/lib/page/identity';
import { pageIdentityConsent } from '@/lib/page/identity-consent';
import { safeRedirect, searchOf } from '@/lib/auth/redirect';
import { dayIn } from '@/lib/channel/identity-policy';
import { PageHeader } from '@/components/layout/page-header';
import { ClientMessages } from '@/components/shell/client-messages';
import { IdentityForm } from '@/components/identity/identity-form';
import { IdentityState } from '@/components/identity/identity-state';

export const generateMetadata = titledPage(({ t }) => t('identity.title'));

/**
 * /mine/identity (issue 33, "The buyer's verification"; login required like every /mine page): a buyer not verified
 * yet gets the form; a verified one sees only the masked state (张* · 1101**********1234, verified on …), never the
 * form again (one identity per account). `back` brings the buyer to where they came from (the goods or pay page),
 * a same-site path only (lib/auth/redirect.ts), else /mine.
 */
export default async function IdentityPage({ params, searchParams }: SearchPageProps) {
  const channel = await loadPageChannel(params);
  const search = await searchParams;
  const user = await requirePageUser(channel, `/mine/identity${searchOf(search)}`);
  const back = safeRedirect(search.back);
  const { t, theme } = channel;
  const identity = await pageBuyerIdentity(user.id);
  return (
    <>
      <PageHeader title={t('identity.title')} backHref={back} backLabel={t('identity.back')} />
      <main className="flex flex-col gap-3 px-3 pt-3 pb-[1.6rem]">
        {identity ? (
          <IdentityState
            identity={{
              maskedName: identity.maskedName,
              maskedIdNumber: identity.maskedIdNumber,
              verifiedOn: dayIn(theme.timeZone, identity.verifiedAt),
            }}
            back={back}
            labels={{
              verified: t('identity.verified'),
              verifiedOn: t('identity.verifiedOn', { date: dayIn(theme.timeZone, identity.verifiedAt) }),
              back: t('identity.back'),
            }}
          />
        ) : (
          <>
            <p className="px-1 text-sm leading-relaxed text-neutral-600">{t('identity.intro')}</p>
            <ClientMessages channel={channel} namespaces={['identity']}>
              <IdentityForm consent={await pageIdentityConsent(channel)} back={back} timeZone={theme.timeZone} />
            </ClientMessages>
          </>
        )}
      </main>
    </>
  );
}
