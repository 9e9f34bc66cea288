import 'server-only';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { getDb } from '../db/client';
import { authSecret } from '../security/secret';
import { resolveToken } from '../auth/sessions';
import { sessionBlocked } from '../auth/blocks';
import type { SessionUser, UserScope, ViewerScope } from '../procedure/scope';
import { readWebSession, sessionCookieValue } from '../auth/session-claims';
import { pageLoader } from './loader';

/** What a page guard needs of its channel (a PageChannel has both). */
export type PageGuardChannel = { id: number; key: string };

const pageUser = pageLoader(async (channelKey: string, channelId: number): Promise<SessionUser | null> => {
  const session = await readWebSession(sessionCookieValue(await cookies()), authSecret(), channelKey);
  if (!session) return null;
  return resolveToken(getDb(), { token: session.apiToken, channelId, now: new Date() });
});

/**
 * The logged-in user of a page request (spec §6), checked all the way: the cookie decrypts, belongs to this channel,
 * and its token is live in the database (not expired, not revoked). Makes the page dynamic (it reads cookies). One
 * check per request, however many of its loaders ask (lib/page/loader.ts).
 */
export function getPageUser(channel: PageGuardChannel): Promise<SessionUser | null> {
  return pageUser(channel.key, channel.id);
}

/** Login-required pages (spec §2 guards, again on the server): no live session → /login, back here afterwards. */
export async function requirePageUser(channel: PageGuardChannel, path: string): Promise<SessionUser> {
  const user = await getPageUser(channel);
  if (!user) redirect(`/login?redirect=${encodeURIComponent(path)}`);
  return user;
}

/** The scope of a buyer's calls on a page: the channel and that buyer, now. */
export function userScopeOf(channel: PageGuardChannel, user: SessionUser): UserScope {
  return { db: getDb(), now: new Date(), channelId: channel.id, userId: user.id };
}

/** A login-required page's scope: its channel and the logged-in buyer; no live session → /login, back to `path`. */
export async function requirePageScope(channel: PageGuardChannel, path: string): Promise<UserScope> {
  return userScopeOf(channel, await requirePageUser(channel, path));
}

/** A page open to visitors: the logged-in buyer's id when there is one (an invalid session reads as a visitor). */
export async function pageViewerScope(channel: PageGuardChannel): Promise<ViewerScope> {
  const user = await getPageUser(channel);
  return { db: getDb(), now: new Date(), channelId: channel.id, userId: user?.id ?? null };
}

/**
 * Whether this browser's session on the channel is one a block on its buyer ended (issue 32): the login page then says
 * why, in the block's own words, instead of offering a login that will be refused. Reads the cookie (the login page is
 * per request anyway: it reads its search parameters).
 */
export async function pageSessionBlocked(channel: PageGuardChannel): Promise<boolean> {
  const session = await readWebSession(sessionCookieValue(await cookies()), authSecret(), channel.key);
  if (!session) return false;
  return sessionBlocked(getDb(), { token: session.apiToken, channelId: channel.id });
}
