import type { ReactElement, ReactNode } from 'react';
import { render, type RenderOptions } from '@testing-library/react';
import { MessagesProvider } from '@/components/shell/messages-provider';
import { CATALOGUES } from '@/lib/i18n/translator';
import type { Locale } from '@/lib/i18n/locale';

/** Renders a client component inside the message provider with the real catalogue of `locale`, as a page does. */
export function renderWithMessages(
  ui: ReactElement,
  { locale = 'en', timeZone = 'Asia/Shanghai', ...options }: { locale?: Locale; timeZone?: string } & Omit<RenderOptions, 'wrapper'> = {},
) {
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <MessagesProvider locale={locale} timeZone={timeZone} messages={CATALOGUES[locale]}>
      {children}
    </MessagesProvider>
  );
  return render(ui, { wrapper: Wrapper, ...options });
}
