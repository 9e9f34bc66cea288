import { RouterLink } from '@/components/shell/router-link';
import { LineIcon } from '@/components/ui/line-icon';

/**
 * A page's title bar with a back link (pages without the footer). The link is server HTML that the router takes once the
 * page's scripts run (components/shell/router-link.tsx): no next/link client code for it (issue 34).
 */
export function PageHeader({ title, backHref = '/', backLabel }: { title: string; backHref?: string; backLabel: string }) {
  return (
    <header className="sticky top-0 z-10 flex h-[0.88rem] items-center bg-skin-card/95 px-2 backdrop-blur">
      <RouterLink
        href={backHref}
        aria-label={backLabel}
        className="flex size-[0.72rem] items-center justify-center rounded-full text-skin-1"
      >
        <LineIcon className="size-[0.4rem]">
          <path d="M15 5l-7 7 7 7" />
        </LineIcon>
      </RouterLink>
      <h1 className="flex-1 pr-[0.72rem] text-center text-base font-semibold text-skin-1">{title}</h1>
    </header>
  );
}
