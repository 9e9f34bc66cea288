import Link from 'next/link';
import type { ReactNode } from 'react';

/** A full-page message with an illustration and one way forward (404, sold out). */
export function StatusView({
  icon,
  title,
  body,
  actionHref,
  actionLabel,
}: {
  icon: ReactNode;
  title: string;
  body: string;
  actionHref: string;
  actionLabel: string;
}) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center px-8 text-center">
      <div className="mb-6 flex size-[2rem] items-center justify-center rounded-full bg-skin-card text-skin-1 shadow-card">{icon}</div>
      <h1 className="text-xl font-semibold text-skin-1">{title}</h1>
      <p className="mt-3 max-w-[5.6rem] text-sm leading-relaxed text-neutral-500">{body}</p>
      <Link
        href={actionHref}
        className="mt-8 inline-flex h-[0.88rem] min-w-[3.6rem] items-center justify-center rounded-full bg-skin-button px-8 text-base font-medium text-skin-button-text shadow-card active:scale-95"
      >
        {actionLabel}
      </Link>
    </main>
  );
}
