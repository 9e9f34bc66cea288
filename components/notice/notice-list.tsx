import Link from 'next/link';
import type { NoticeView } from '@/lib/notice/schema';
import type { Translator } from '@/lib/i18n/translator';
import { formatDate } from '@/lib/format/date';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';

/** A notice's type as a chip (issue 32: drop, activity, airdrop, operations), in the channel's colours. */
export function NoticeTypeChip({ type, t }: { type: NoticeView['type']; t: Translator }) {
  return (
    <span
      className="inline-flex shrink-0 items-center rounded-full bg-skin-light px-2 py-0.5 text-xs font-medium text-skin-1"
      data-type={type}
    >
      {t(`notices.type.${type}`)}
    </span>
  );
}

/**
 * The channel's notices (issue 32, /notices): each its type chip, title, the first lines of its body and its publish
 * date in the channel's time zone, a link to the whole notice; or, with none, the empty state.
 */
export function NoticeList({ notices, timeZone, t }: { notices: NoticeView[]; timeZone: string; t: Translator }) {
  if (notices.length === 0) {
    return (
      <EmptyState art="notices" data-testid="notices-empty">
        {t('notices.empty')}
      </EmptyState>
    );
  }
  return (
    <ul className="flex flex-col gap-3" data-testid="notices">
      {notices.map((n) => (
        <li key={n.id}>
          <Card as={Link} href={`/notices/${n.id}`} className="block p-4 active:opacity-80" data-testid="notice" data-notice-id={n.id}>
            <div className="flex items-center justify-between gap-2">
              <NoticeTypeChip type={n.type} t={t} />
              <time dateTime={n.publishTime} className="text-xs text-neutral-500">
                {formatDate(n.publishTime, 'yyyy-MM-dd HH:mm', timeZone)}
              </time>
            </div>
            <h2 className="mt-2 line-clamp-2 text-base font-semibold text-skin-1">{n.title}</h2>
            <p className="mt-1 line-clamp-2 text-sm text-neutral-600">{n.body}</p>
          </Card>
        </li>
      ))}
    </ul>
  );
}
