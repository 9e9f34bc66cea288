import Link from 'next/link';

/** The two looks the list pages have: pills on the exchange and destroy records, underlined links on the other records. */
const LOOKS = {
  pill: { nav: 'gap-3', link: 'rounded-full bg-skin-card px-4 py-2 text-skin-1 shadow-card' },
  link: { nav: 'gap-4', link: 'text-skin-1 underline' },
} as const;

/** Paging by links (?page=), so it works before scripts load (as the other record pages do); newest first, so page 1 is the newest. */
export function RecordPager({
  path,
  page,
  pages,
  newer,
  older,
  look = 'pill',
}: {
  path: string;
  page: number;
  pages: number;
  newer: string;
  older: string;
  look?: keyof typeof LOOKS;
}) {
  if (pages <= 1) return null;
  const { nav, link } = LOOKS[look];
  return (
    <nav className={`mt-4 flex justify-center ${nav} text-sm`}>
      {page > 1 ? (
        <Link href={`${path}?page=${page - 1}`} className={link}>
          {newer}
        </Link>
      ) : null}
      {page < pages ? (
        <Link href={`${path}?page=${page + 1}`} className={link}>
          {older}
        </Link>
      ) : null}
    </nav>
  );
}
