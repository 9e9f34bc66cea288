import 'server-only';
import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { getDb } from '../db/client';
import { env } from '../env';
import { domainSettings, routeHostOrKeyRule } from '../channel/domains';
import { findChannelByKey } from '../channel/service';
import { AUTH_LIMITS } from './limits';
import { maskPhone } from './mask';
import { resolveToken, revokeToken } from './sessions';

/**
 * next-auth (DESIGN §2, §5): Credentials provider over auth/authCodeLoginV2, JWT strategy. The login page first
 * logs in through the API (spec §4: the token arrives in the `authorization` header), then hands the token to
 * this provider, which checks it against the database and keeps it in the encrypted, HttpOnly session cookie.
 * Options are built per request: the host decides the channel, and HTTPS decides the Secure cookie.
 */
export function authOptions(request: { host: string; https: boolean }): AuthOptions {
  const e = env();
  const maxAge = Math.floor(AUTH_LIMITS.sessionTtlMs / 1000);
  return {
    secret: e.AUTH_SECRET,
    session: { strategy: 'jwt', maxAge },
    jwt: { maxAge },
    // HttpOnly and SameSite=Lax are next-auth's defaults; Secure (and the __Secure- prefix) on HTTPS.
    useSecureCookies: request.https,
    pages: { signIn: '/login', error: '/login' },
    providers: [
      CredentialsProvider({
        id: 'token',
        name: 'API token',
        credentials: { token: { label: 'token', type: 'text' } },
        async authorize(credentials) {
          const token = credentials?.token;
          // The host's channel through its domains (issue 31), as the API that issued the token found it.
          const channelKey = (await routeHostOrKeyRule(getDb, request.host, domainSettings(e))).key;
          if (!token || !channelKey) return null;
          const channel = await findChannelByKey(channelKey);
          if (!channel) return null;
          const user = await resolveToken(getDb(), { token, channelId: channel.id, now: new Date() });
          if (!user) return null;
          return { id: user.uuid, apiToken: token, channel: channelKey, phone: maskPhone(user.phone) };
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          const u = user as unknown as { apiToken: string; channel: string; phone: string };
          token.apiToken = u.apiToken;
          token.channel = u.channel;
          token.phone = u.phone;
        }
        return token;
      },
      // What useSession()/getSession() would show: never the API token.
      session({ session, token }) {
        session.user = { name: typeof token.phone === 'string' ? token.phone : null, email: null, image: null };
        return session;
      },
    },
    events: {
      // Logging out of the web revokes the API token too (DESIGN §10: tokens revocable at logout).
      async signOut({ token }) {
        if (typeof token?.apiToken === 'string') await revokeToken(getDb(), { token: token.apiToken, now: new Date() });
      },
    },
  };
}
