import 'server-only';
import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { getDb } from '../db/client';
import { isLocale, type Locale } from '../i18n/locale';
import { translator, type Translator } from '../i18n/translator';
import { resolveOperatorSession } from '../operator/accounts';
import { OPERATOR_COOKIE } from '../operator/host';
import type { OperatorSession } from '../procedure/scope';
import { pageLoader } from './loader';

/** A console page's params (the proxy rewrites the operator host's paths to /ops/<locale>/...). */
export type ConsolePageParams = { locale: string };

/** The console page's language and words; 404 for a locale we have no catalogue of. */
export async function consoleWords(params: Promise<ConsolePageParams>): Promise<{ locale: Locale; t: Translator }> {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  return { locale, t: translator(locale) };
}

const consoleOperator = pageLoader(async (): Promise<OperatorSession | null> => {
  const token = (await cookies()).get(OPERATOR_COOKIE)?.value;
  return resolveOperatorSession(getDb(), token, new Date());
});

/** The operator signed in on this request (issue 31), or null; one check per request however many ask. */
export function getConsoleOperator(): Promise<OperatorSession | null> {
  return consoleOperator();
}

/** A console page behind sign-in: no live session (none, ended, idle, disabled) → /sign-in. */
export async function requireConsoleOperator(): Promise<OperatorSession> {
  const operator = await getConsoleOperator();
  if (!operator) redirect('/sign-in');
  return operator;
}

/** The metadata of a console page that names itself: its title in the operator's language (the layout adds the rest). */
export function consoleTitled(title: (t: Translator) => string): (props: { params: Promise<ConsolePageParams> }) => Promise<Metadata> {
  return async ({ params }) => ({ title: title((await consoleWords(params)).t) });
}
