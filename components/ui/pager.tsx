import Link from 'next/link';

/** Paging by links (?page=), so it works before scripts load (as the other record pages do); newest first, so page 1 is the newest. */
export function RecordPager({ path, page, pages, newer, older }: { path: string; page: number; pages: number; newer: string; older: string }) {
  if (pages <= 1) return null;
  return (
    <nav className="mt-4 flex justify-center gap-3 text-sm">
      {page > 1 ? <Link href={`${path}?page=${page - 1}`} className="rounded-full bg-skin-card px-4 py-2 text-skin-1 shadow-card">{newer}</Link> : null}
      {page < pages ? <Link href={`${path}?page=${page + 1}`} className="rounded-full bg-skin-card px-4 py-2 text-skin-1 shadow-card">{older}</Link> : null}
    </nav>
  );
}
