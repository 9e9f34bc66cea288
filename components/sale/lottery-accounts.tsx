import Link from 'next/link';
import type { Translator } from '@/lib/i18n/translator';
import { Card } from '@/components/ui/card';

/** Account numbers shown per page of the winners and of the waitlist: a draw of 100,000 stays a light page. */
export const ACCOUNTS_PER_PAGE = 100;

/** The winners or the waitlist, ranked, a page of ACCOUNTS_PER_PAGE at a time (the other list's page kept in the links). */
export function LotteryAccounts({
  t,
  heading,
  accounts,
  firstRank,
  page,
  param,
  other,
  testId,
}: {
  t: Translator;
  heading: string;
  accounts: readonly string[];
  firstRank: number;
  page: number;
  param: string;
  other: { name: string; value: string | string[] | undefined };
  testId: string;
}) {
  const pages = Math.max(1, Math.ceil(accounts.length / ACCOUNTS_PER_PAGE));
  const start = (page - 1) * ACCOUNTS_PER_PAGE;
  const shown = accounts.slice(start, start + ACCOUNTS_PER_PAGE);
  const href = (to: number) => {
    const search = new URLSearchParams();
    const kept = Array.isArray(other.value) ? other.value[0] : other.value;
    if (kept) search.set(other.name, kept);
    if (to > 1) search.set(param, String(to));
    const text = search.toString();
    return text ? `?${text}` : '?';
  };
  return (
    <Card as="section" className="p-4" aria-label={heading}>
      <h2 className="mb-2 text-base font-semibold text-skin-1">{heading}</h2>
      {accounts.length === 0 ? (
        <p className="text-sm text-neutral-500">{t('lottery.noOne')}</p>
      ) : (
        <ol className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm" data-testid={testId} start={firstRank + start}>
          {shown.map((account, i) => (
            <li key={account} className="flex gap-2 tabular-nums">
              <span className="w-[3ch] shrink-0 text-right text-neutral-400" aria-hidden="true">
                {firstRank + start + i}
              </span>
              <span className="font-mono text-skin-1">{account}</span>
            </li>
          ))}
        </ol>
      )}
      {pages > 1 ? (
        <nav className="mt-3 flex items-center justify-between text-sm" aria-label={heading}>
          {page > 1 ? (
            <Link href={href(page - 1)} className="font-semibold text-skin-1 underline underline-offset-2">
              {t('lottery.previous')}
            </Link>
          ) : (
            <span />
          )}
          <span className="text-neutral-500">{t('lottery.pageOf', { page, pages })}</span>
          {page < pages ? (
            <Link href={href(page + 1)} className="font-semibold text-skin-1 underline underline-offset-2">
              {t('lottery.next')}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </Card>
  );
}
