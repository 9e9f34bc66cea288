import { getDb } from '@/lib/db/client';
import { secondFactorsOf } from '@/lib/operator/passkeys';
import { consoleTitled, consoleWords, requireConsoleOperator, type ConsolePageParams } from '@/lib/page/console';
import { ConsoleShell } from '@/components/ops/console-shell';
import { PasskeyList, type PasskeyWords } from '@/components/ops/passkey-list';

type Props = { params: Promise<ConsolePageParams> };

export const generateMetadata = consoleTitled((t) => t('ops.account.title'));

/**
 * The signed-in operator's own security page (issue 31, "a second factor: TOTP … and/or a passkey"): whether TOTP is
 * set and how many recovery codes are left, and their passkeys — added, renamed and removed here. Times in UTC: the
 * console serves operators of every channel's time zone.
 */
export default async function AccountPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const operator = await requireConsoleOperator();
  const factors = await secondFactorsOf(getDb(), operator.operatorId);
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  const words: PasskeyWords = Object.fromEntries(
    (
      [
        'none',
        'name',
        'created',
        'lastUsed',
        'never',
        'actions',
        'newName',
        'newNameHint',
        'newNameDefault',
        'add',
        'adding',
        'added',
        'rename',
        'save',
        'cancel',
        'remove',
        'removeYes',
        'keep',
        'lastFactor',
        'unsupported',
        'cancelled',
      ] as const
    ).map((k) => [k, t(`ops.account.${k}`)]),
  ) as PasskeyWords;
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="account">
      <div className="max-w-4xl space-y-8">
        <div>
          <h1 className="text-2xl font-semibold text-gray-900">{t('ops.account.title')}</h1>
          <p className="mt-1 text-sm text-gray-600">{t('ops.account.intro')}</p>
        </div>
        <section aria-labelledby="factors" className="space-y-6">
          <h2 id="factors" className="text-lg font-semibold text-gray-900">
            {t('ops.account.factors')}
          </h2>
          <div
            className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-gray-200 bg-white p-5"
            data-testid="totp"
          >
            <div>
              <h3 className="font-semibold text-gray-900">{t('ops.account.totp')}</h3>
              <p className="mt-1 text-sm text-gray-600" data-testid="recovery-left">
                {t('ops.account.recoveryLeft', { count: factors.recoveryCodesLeft })}
              </p>
            </div>
            <span
              className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ${factors.totp ? 'bg-green-50 text-green-800' : 'bg-amber-50 text-amber-800'}`}
            >
              {factors.totp ? t('ops.account.totpSet') : t('ops.account.totpNotSet')}
            </span>
          </div>
          <div className="space-y-4 rounded-lg border border-gray-200 bg-white p-5">
            <div>
              <h3 className="font-semibold text-gray-900">{t('ops.account.passkeys')}</h3>
              <p className="mt-1 text-sm text-gray-600">{t('ops.account.passkeysIntro')}</p>
            </div>
            <PasskeyList
              locale={locale}
              words={words}
              removeConfirm={Object.fromEntries(factors.passkeys.map((p) => [p.id, t('ops.account.removeConfirm', { name: p.name })]))}
              lastFactor={!factors.totp && factors.passkeys.length <= 1}
              passkeys={factors.passkeys.map((p) => ({
                id: p.id,
                name: p.name,
                created: when.format(p.createdAt) + ' UTC',
                lastUsed: p.lastUsedAt ? when.format(p.lastUsedAt) + ' UTC' : null,
              }))}
            />
          </div>
        </section>
      </div>
    </ConsoleShell>
  );
}
