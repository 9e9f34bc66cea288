import NextAuth from 'next-auth';
import type { NextRequest } from 'next/server';
import { authOptions } from '@/lib/auth/next-auth';

// One deployment serves many hosts (one per channel): next-auth takes the origin from X-Forwarded-Host (else Host)
// and X-Forwarded-Proto. Safe to trust here because the entry server (server.ts) drops any client-sent X-Forwarded-*
// and sets the scheme from the socket or a configured trusted proxy (security review, finding 14).
process.env.AUTH_TRUST_HOST ??= 'true';

type Context = { params: Promise<{ nextauth: string[] }> };

/** next-auth's endpoints (csrf, callback/token, session, signout), with options for this request's host. */
async function handle(request: NextRequest, context: Context): Promise<Response> {
  const host = request.headers.get('host') ?? '';
  const https = request.nextUrl.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  const response: Response = await NextAuth(request, context, authOptions({ host, https }));
  response.headers.set('cache-control', 'no-store');
  return response;
}

export { handle as GET, handle as POST };
