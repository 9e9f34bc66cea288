import 'server-only';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { getDb } from '../db/client';
import { authSecret } from './secret';
import { resolveToken, type SessionUser } from './sessions';
import { readWebSession, sessionCookieValue } from './web-session';

/**
 * The logged-in user of a page request (spec §6), checked all the way: the cookie decrypts, belongs to this channel,
 * and its token is live in the database (not expired, not revoked). Makes the page dynamic (it reads cookies).
 */
export async function getPageUser(channel: { id: number; key: string }): Promise<SessionUser | null> {
  const session = await readWebSession(sessionCookieValue(await cookies()), authSecret(), channel.key);
  if (!session) return null;
  return resolveToken(getDb(), { token: session.apiToken, channelId: channel.id, now: new Date() });
}

/** Login-required pages (spec §2 guards, again on the server): no live session → /login, back here afterwards. */
export async function requirePageUser(channel: { id: number; key: string }, path: string): Promise<SessionUser> {
  const user = await getPageUser(channel);
  if (!user) redirect(`/login?redirect=${encodeURIComponent(path)}`);
  return user;
}
