import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { consoleWords, type ConsolePageParams } from '@/lib/page/console';
import '@/styles/ops.css';

type Props = { children: ReactNode; params: Promise<ConsolePageParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await consoleWords(params);
  return { title: { default: t('ops.brand'), template: `%s | ${t('ops.brand')}` }, robots: { index: false, follow: false } };
}

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

/** The operator console's root layout (issue 31): its own page, styles and language, no channel's skin. */
export default async function ConsoleLayout({ children, params }: Props) {
  const { locale } = await consoleWords(params);
  return (
    <html lang={locale}>
      <body className="min-h-screen bg-gray-100 text-gray-900 antialiased">{children}</body>
    </html>
  );
}
