'use client';

import type { ReactNode } from 'react';
import { IntlProvider, type AbstractIntlMessages } from 'use-intl';
import type { Locale } from '@/lib/i18n/locale';

/**
 * The messages of the client components below it, for useTranslations (use-intl; docs/decisions.md). The time zone
 * is the channel's, so anything formatted through it reads the same on the server and in the browser.
 */
export function MessagesProvider({
  locale,
  timeZone,
  messages,
  children,
}: {
  locale: Locale;
  timeZone: string;
  messages: AbstractIntlMessages;
  children: ReactNode;
}) {
  return (
    <IntlProvider locale={locale} timeZone={timeZone} messages={messages}>
      {children}
    </IntlProvider>
  );
}
