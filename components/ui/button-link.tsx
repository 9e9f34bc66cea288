import Link from 'next/link';
import type { ReactNode } from 'react';

const LOOKS = {
  /** The way forward, in the channel's button colours. */
  primary: 'bg-skin-button text-skin-button-text shadow-card',
  /** Another way, quieter: outlined on the card colour. */
  secondary: 'border border-black/10 bg-skin-card text-skin-1',
} as const;

const SIZES = {
  default: 'h-[0.88rem] text-base',
  md: 'h-[0.8rem] text-sm',
} as const;

/**
 * A link that looks like a button (issue 30: one class string for them): where a result sends the buyer on (their
 * collection, their records), the log-in link in place of an action a visitor cannot take yet. Full width in the
 * column it stands in; the storefront's Button (components/ui/button.tsx) is for actions that stay on the page.
 */
export function ButtonLink({
  href,
  look = 'primary',
  size = 'default',
  children,
  'data-testid': testId,
}: {
  href: string;
  look?: keyof typeof LOOKS;
  size?: keyof typeof SIZES;
  children: ReactNode;
  'data-testid'?: string;
}) {
  return (
    <Link
      href={href}
      className={`flex items-center justify-center rounded-full font-semibold ${SIZES[size]} ${LOOKS[look]}`}
      data-testid={testId}
    >
      {children}
    </Link>
  );
}
