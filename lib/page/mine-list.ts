import 'server-only';
import { redirect } from 'next/navigation';
import { loadPageChannel, type PageChannel, type PageParams } from './channel';
import { requirePageScope } from './session';
import { pageFromSearch } from '../procedure/paging';
import type { UserScope } from '../procedure/scope';

/** What a page's route gives it: the channel and locale, and the query. */
export type SearchPageProps = {
  params: Promise<PageParams>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * The opening of a buyer's list page under /mine (spec §2 mineRecords, mineCollection, mineReceive, mineDestory,
 * mineExchange, mineChain: login required, paged by ?page=): the channel, the buyer's scope (no live session →
 * /login, back to `path`), and the page asked for. `allowed`: a feature the channel must have, checked before the
 * login (else /404, as spec §2's guards order them).
 */
export async function openMineList(
  { params, searchParams }: SearchPageProps,
  path: string,
  allowed?: (channel: PageChannel) => boolean,
): Promise<{ channel: PageChannel; scope: UserScope; page: number }> {
  const channel = await loadPageChannel(params);
  if (allowed && !allowed(channel)) redirect('/404');
  const scope = await requirePageScope(channel, path);
  const { page } = await searchParams;
  return { channel, scope, page: pageFromSearch(page) };
}
