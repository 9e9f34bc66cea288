import type { ReactNode } from 'react';

/**
 * A line drawing in the text colour around it (issue 30: one shape for the store's icons: back, close, retry, the
 * footer's tabs, the status pages' pictures). Decoration: the button or link it sits in carries the words.
 * `sharpCorners`: joins drawn mitred instead of rounded (the captcha's retry arrow, as it was first drawn).
 */
export function LineIcon({
  viewBox = '0 0 24 24',
  className,
  strokeWidth = 2,
  sharpCorners = false,
  children,
}: {
  viewBox?: string;
  className: string;
  strokeWidth?: number;
  sharpCorners?: boolean;
  children: ReactNode;
}) {
  return (
    <svg
      viewBox={viewBox}
      aria-hidden="true"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin={sharpCorners ? undefined : 'round'}
    >
      {children}
    </svg>
  );
}
