import type { Metadata } from 'next';
import { getDb } from '@/lib/db/client';
import { readEnrolment } from '@/lib/operator/accounts';
import { consoleWords, type ConsolePageParams } from '@/lib/page/console';
import { GuestFrame } from '@/components/ops/guest-frame';
import { EnrolForm } from '@/components/ops/enrol-form';

type Props = { params: Promise<ConsolePageParams & { token: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await consoleWords(params);
  return { title: t('ops.enrol.title'), referrer: 'no-referrer' };
}

/**
 * The one-time enrolment link (issue 31): the account's name and role, the TOTP secret as a QR code (SVG drawn on the
 * server by `qrcode`, no script) and as text, and the form that sets the password and confirms a code. A link that is
 * spent or expired says so and nothing else.
 */
export default async function EnrolPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { token } = await params;
  const enrolment = await readEnrolment(getDb(), token, new Date());
  if (!enrolment) {
    return (
      <GuestFrame brand={t('ops.brand')} title={t('ops.enrol.invalidTitle')}>
        <p className="text-gray-700">{t('ops.enrol.invalid')}</p>
      </GuestFrame>
    );
  }
  return (
    <GuestFrame brand={t('ops.brand')} title={t('ops.enrol.title')} wide>
      <p className="mb-6 text-gray-700">{t('ops.enrol.intro', { name: enrolment.name, role: t(`ops.role.${enrolment.role}`) })}</p>
      <EnrolForm
        token={token}
        locale={locale}
        scan={
          <section aria-labelledby="scan-title" className="space-y-3">
            <h2 id="scan-title" className="text-base font-semibold text-gray-900">
              {t('ops.enrol.scan')}
            </h2>
            <div
              role="img"
              aria-label={t('ops.enrol.scan')}
              className="mx-auto w-56 rounded-md border border-gray-200 bg-white p-2 md:mx-0"
              // Our own SVG, drawn on the server from the otpauth:// URI (lib/operator/totp.ts): paths only, no script.
              dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
            />
            <p className="text-sm text-gray-700">{t('ops.enrol.secret')}</p>
            <code
              data-testid="totp-secret"
              className="block rounded-md bg-gray-100 px-3 py-2 font-mono text-sm break-all text-gray-900 select-all"
            >
              {enrolment.secret}
            </code>
          </section>
        }
        words={{
          password: t('ops.enrol.password'),
          passwordHint: t('ops.enrol.passwordHint'),
          passwordAgain: t('ops.enrol.passwordAgain'),
          mismatch: t('ops.enrol.mismatch'),
          code: t('ops.enrol.code'),
          submit: t('ops.enrol.submit'),
          working: t('ops.enrol.working'),
          doneTitle: t('ops.enrol.doneTitle'),
          recoveryIntro: t('ops.enrol.recoveryIntro'),
          toSignIn: t('ops.enrol.toSignIn'),
          failed: t('ops.failed'),
        }}
      />
    </GuestFrame>
  );
}
