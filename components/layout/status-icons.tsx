import { LineIcon } from '@/components/ui/line-icon';

/** Line illustrations for the status pages. */
export function NotFoundIcon() {
  return (
    <LineIcon viewBox="0 0 48 48" className="size-[1rem]" strokeWidth={2.5}>
      <circle cx="21" cy="21" r="12" />
      <path d="M30 30l10 10M17 17l8 8M25 17l-8 8" />
    </LineIcon>
  );
}

export function SoldOutIcon() {
  return (
    <LineIcon viewBox="0 0 48 48" className="size-[1rem]" strokeWidth={2.5}>
      <path d="M8 16h32l-3 24H11z" />
      <path d="M17 16v-3a7 7 0 0 1 14 0v3" />
      <path d="M18 28h12" />
    </LineIcon>
  );
}
