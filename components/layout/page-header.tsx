import Link from 'next/link';

/** A page's title bar with a back link (pages without the footer). */
export function PageHeader({ title, backHref = '/', backLabel }: { title: string; backHref?: string; backLabel: string }) {
  return (
    <header className="sticky top-0 z-10 flex h-[0.88rem] items-center bg-skin-card/95 px-2 backdrop-blur">
      <Link href={backHref} aria-label={backLabel} className="flex size-[0.72rem] items-center justify-center rounded-full text-skin-1">
        <svg
          viewBox="0 0 24 24"
          aria-hidden="true"
          className="size-[0.4rem]"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M15 5l-7 7 7 7" />
        </svg>
      </Link>
      <h1 className="flex-1 pr-[0.72rem] text-center text-base font-semibold text-skin-1">{title}</h1>
    </header>
  );
}
