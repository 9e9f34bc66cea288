import Link from 'next/link';
import type { ReactNode } from 'react';
import type { Translator } from '@/lib/i18n/translator';
import type { OperatorSession } from '@/lib/procedure/scope';
import { SignOutButton } from './sign-out-button';
import { ReauthDialog } from './team-reauth-dialog';

/**
 * The console's frame once signed in (issue 31): the brand, the sections (channels now; the drops half of the console
 * adds its own), who is signed in with their role, and sign-out. A side bar at desktop width, a top bar on a tablet.
 */
export function ConsoleShell({
  t,
  locale,
  operator,
  current,
  children,
}: {
  t: Translator;
  locale: string;
  operator: OperatorSession;
  current: 'channels' | 'team' | 'audit' | 'account';
  children: ReactNode;
}) {
  const sections = [
    { id: 'channels', href: '/channels', label: t('ops.shell.channels') },
    { id: 'team', href: '/team', label: t('ops.shell.team') },
    { id: 'audit', href: '/audit', label: t('ops.audit.nav') },
    { id: 'account', href: '/account', label: t('ops.account.nav') },
  ] as const;
  return (
    <div className="min-h-screen lg:flex">
      <aside className="border-b border-gray-200 bg-gray-900 text-gray-100 lg:min-h-screen lg:w-60 lg:shrink-0 lg:border-r lg:border-b-0">
        <div className="flex items-center justify-between gap-4 px-5 py-4 lg:block">
          <p className="font-semibold">{t('ops.brand')}</p>
          <nav aria-label={t('ops.shell.nav')} className="lg:mt-8">
            <ul className="flex gap-2 lg:flex-col">
              {sections.map((s) => (
                <li key={s.id}>
                  <Link
                    href={s.href}
                    aria-current={current === s.id ? 'page' : undefined}
                    className={`block rounded-md px-3 py-2 text-sm font-medium ${current === s.id ? 'bg-gray-700 text-white' : 'text-gray-300 hover:bg-gray-800 hover:text-white'}`}
                  >
                    {s.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </aside>
      <div className="flex-1">
        <header className="flex items-center justify-end gap-4 border-b border-gray-200 bg-white px-6 py-3">
          <p className="text-sm text-gray-700">
            {t('ops.shell.signedInAs')}{' '}
            <strong data-testid="operator-name" className="font-semibold text-gray-900">
              {operator.name}
            </strong>{' '}
            <span data-testid="operator-role" className="ml-1 rounded-full bg-blue-50 px-2 py-0.5 text-xs font-semibold text-blue-800">
              {t(`ops.role.${operator.role}`)}
            </span>
          </p>
          <SignOutButton label={t('ops.shell.signOut')} locale={locale} />
        </header>
        <main className="px-6 py-8">{children}</main>
        {/* issue 31: sensitive writes on any page ask for the password and a code again here. */}
        <ReauthDialog
          locale={locale}
          words={{
            title: t('ops.team.reauthTitle'),
            intro: t('ops.team.reauthIntro'),
            password: t('ops.team.reauthPassword'),
            code: t('ops.team.reauthCode'),
            submit: t('ops.team.reauthSubmit'),
            cancel: t('ops.team.cancel'),
            working: t('ops.team.working'),
          }}
        />
      </div>
    </div>
  );
}
