import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { safeRedirect } from '@/lib/auth/redirect';
import { pageSessionBlocked } from '@/lib/page/session';
import { smsProvider } from '@/lib/auth/sms';
import { env } from '@/lib/env';
import { PageHeader } from '@/components/layout/page-header';
import { LoginForm } from '@/components/auth/login-form';
import { ClientMessages } from '@/components/shell/client-messages';

type Props = { params: Promise<PageParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const generateMetadata = titledPage(({ t }) => t('login.title'));

/** /login (spec §2, §4): phone + SMS code, behind the slider captcha; back to `redirect` afterwards. */
export default async function LoginPage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  const { redirect } = await searchParams;
  // Issue 32: a buyer whose session a block ended lands here from any signed-in page; they read why first.
  const blocked = await pageSessionBlocked(channel);
  return (
    <>
      <PageHeader title={channel.t('login.title')} backLabel={channel.t('goods.back')} />
      <main className="px-5 pt-6 pb-10">
        <h2 className="text-xl font-semibold text-neutral-900">{channel.t('login.heading', { brand: channel.theme.brandName })}</h2>
        <p className="mt-1.5 mb-6 text-sm text-neutral-500">{channel.t('login.lead')}</p>
        {blocked ? (
          <p role="alert" data-testid="login-blocked" className="mb-6 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
            {channel.t('api.buyerBlocked')}
          </p>
        ) : null}
        <ClientMessages channel={channel} namespaces={['login', 'captcha']}>
          <LoginForm
            brandName={channel.theme.brandName}
            redirectTo={safeRedirect(redirect)}
            demoOutbox={smsProvider(env().SMS_PROVIDER).showsCodes}
          />
        </ClientMessages>
      </main>
    </>
  );
}
