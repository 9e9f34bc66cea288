import Link from 'next/link';
import { titledPage } from '@/lib/page/metadata';
import { openMineList } from '@/lib/page/mine-list';
import { listLogins, readProfile } from '@/lib/buyer/profile';
import { PRESET_AVATARS } from '@/lib/buyer/avatars';
import { formatDate } from '@/lib/format/date';
import { PageHeader } from '@/components/layout/page-header';
import { Card } from '@/components/ui/card';
import { ClientMessages } from '@/components/shell/client-messages';
import { ProfileForm } from '@/components/profile/profile-form';
import { SignOutOthers } from '@/components/profile/sign-out-others';
import { pageSessionTokenHash } from './session-hash';

type Props = {
  params: Promise<{ channel: string; locale: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const generateMetadata = titledPage(({ t }) => t('profile.title'));

/**
 * /mine/profile (issue 36, login required; docs/profile.md): the buyer's nickname and avatar, their last 20 logins on
 * this store (this device marked) with "sign out of all other sessions", the data file, and the way to closing.
 */
export default async function ProfilePage(props: Props) {
  const { channel, scope } = await openMineList(props, '/mine/profile');
  const { t, skin, theme } = channel;
  const [profile, logins] = await Promise.all([
    readProfile(scope),
    pageSessionTokenHash(channel.key).then((hash) => listLogins(scope, hash)),
  ]);
  const time = (iso: string) => formatDate(iso, 'yyyy-MM-dd HH:mm', theme.timeZone);
  return (
    <>
      <PageHeader title={t('profile.title')} backHref="/mine" backLabel={t('goods.back')} />
      <ClientMessages channel={channel} namespaces={['profile', 'avatarUpload', 'common']}>
        <main className="flex flex-col gap-3 px-3 pt-3 pb-[1.6rem]">
          <ProfileForm
            nickname={profile.nickname}
            avatar={profile.avatar}
            avatars={PRESET_AVATARS}
            storeAvatar={skin.userFaceImg}
            placeholderColor={skin.lightColor}
          />

          <Card as="section" aria-labelledby="profile-logins" className="flex flex-col gap-3 p-4" data-testid="profile-logins">
            <h2 id="profile-logins" className="text-base font-semibold text-skin-1">
              {t('profile.logins')}
            </h2>
            <p className="text-xs text-neutral-500">{t('profile.loginsHint')}</p>
            <ul className="flex flex-col divide-y divide-black/5">
              {logins.map((login) => (
                <li key={login.id} className="flex items-start justify-between gap-3 py-2" data-testid="profile-login">
                  <div className="min-w-0">
                    <p className="truncate text-sm text-skin-1">{login.device || t('profile.unknownDevice')}</p>
                    <p className="text-xs text-neutral-500 tabular-nums">
                      {time(login.at)} · {login.address || t('profile.unknownAddress')}
                    </p>
                  </div>
                  {login.current ? (
                    <span
                      className="shrink-0 rounded-full bg-skin-light px-2 py-0.5 text-xs font-semibold text-skin-1"
                      data-testid="profile-login-current"
                    >
                      {t('profile.current')}
                    </span>
                  ) : !login.live ? (
                    <span className="shrink-0 text-xs text-neutral-400">{t('profile.ended')}</span>
                  ) : null}
                </li>
              ))}
            </ul>
            <SignOutOthers />
          </Card>

          <Card as="section" aria-labelledby="profile-data" className="flex flex-col gap-2 p-4">
            <h2 id="profile-data" className="text-base font-semibold text-skin-1">
              {t('profile.data')}
            </h2>
            <p className="text-xs text-neutral-500">{t('profile.dataHint')}</p>
            {/* A plain link: the route answers the file as an attachment, so the page stays where it is. */}
            <a
              href="/mine/profile/data"
              download
              className="flex h-[0.72rem] items-center justify-center rounded-full border border-skin-button text-sm font-medium text-skin-1"
              data-testid="profile-download"
            >
              {t('profile.download')}
            </a>
          </Card>

          <Link
            href="/mine/profile/close"
            className="mt-2 block py-3 text-center text-sm text-neutral-500 underline"
            data-testid="profile-close-link"
          >
            {t('profile.close')}
          </Link>
        </main>
      </ClientMessages>
    </>
  );
}
