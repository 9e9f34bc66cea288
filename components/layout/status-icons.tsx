/** Line illustrations for the status pages. */
export function NotFoundIcon() {
  return (
    <svg
      viewBox="0 0 48 48"
      aria-hidden="true"
      className="size-[1rem]"
      fill="none"
      stroke="currentColor"
      strokeWidth={2.5}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <circle cx="21" cy="21" r="12" />
      <path d="M30 30l10 10M17 17l8 8M25 17l-8 8" />
    </svg>
  );
}

export function SoldOutIcon() {
  return (
    <svg
      viewBox="0 0 48 48"
      aria-hidden="true"
      className="size-[1rem]"
      fill="none"
      stroke="currentColor"
      strokeWidth={2.5}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M8 16h32l-3 24H11z" />
      <path d="M17 16v-3a7 7 0 0 1 14 0v3" />
      <path d="M18 28h12" />
    </svg>
  );
}
