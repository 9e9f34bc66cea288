import 'server-only';
import { cookies } from 'next/headers';
import { readWebSession, sessionCookieValue } from '@/lib/auth/session-claims';
import { authSecret } from '@/lib/security/secret';
import { sha256 } from '@/lib/security/crypto';

/**
 * The token hash of the page request's own web session on the channel (issue 36): which of the buyer's logins the
 * profile page marks as this device's. Null without a session cookie of this channel.
 */
export async function pageSessionTokenHash(channelKey: string): Promise<string | null> {
  const session = await readWebSession(sessionCookieValue(await cookies()), authSecret(), channelKey);
  return session ? sha256(session.apiToken) : null;
}
