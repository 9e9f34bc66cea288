import type { ComponentProps, ReactNode } from 'react';
import { PageHeader } from './page-header';
import { RecordPager } from '@/components/ui/pager';

/**
 * A list page under /mine (issue 30: one shape for spec §2 mineRecords, mineCollection, mineExchange, mineDestory,
 * mineReceive, mineChain): its title with the way back to /mine, the list (or what it shows when empty), the paging
 * links, and a last note where the list has one.
 */
export function MineListPage({
  title,
  backLabel,
  pager,
  note,
  children,
}: {
  title: string;
  backLabel: string;
  pager: ComponentProps<typeof RecordPager>;
  note?: string;
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} backHref="/mine" backLabel={backLabel} />
      <main className="px-3 pt-3 pb-[1.6rem]">
        {children}
        <RecordPager {...pager} />
        {note ? <p className="mt-4 px-1 text-center text-xs text-neutral-500">{note}</p> : null}
      </main>
    </>
  );
}
