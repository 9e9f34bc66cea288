import { redirect } from 'next/navigation';
import { consoleTitled, consoleWords, getConsoleOperator, type ConsolePageParams } from '@/lib/page/console';
import { GuestFrame } from '@/components/ops/guest-frame';
import { SignInForm } from '@/components/ops/sign-in-form';

type Props = { params: Promise<ConsolePageParams> };

export const generateMetadata = consoleTitled((t) => t('ops.signIn.title'));

/** Sign in to the console (issue 31). Someone already signed in goes on to the channels. */
export default async function SignInPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  if (await getConsoleOperator()) redirect('/channels');
  return (
    <GuestFrame brand={t('ops.brand')} title={t('ops.signIn.title')}>
      <SignInForm
        locale={locale}
        words={{
          name: t('ops.signIn.name'),
          password: t('ops.signIn.password'),
          code: t('ops.signIn.code'),
          codeHint: t('ops.signIn.codeHint'),
          submit: t('ops.signIn.submit'),
          working: t('ops.signIn.working'),
          failed: t('ops.failed'),
          usePasskey: t('ops.account.usePasskey'),
          usingPasskey: t('ops.account.usingPasskey'),
          passkeyHint: t('ops.account.passkeyHint'),
          unsupported: t('ops.account.unsupported'),
          cancelled: t('ops.account.cancelled'),
        }}
      />
    </GuestFrame>
  );
}
