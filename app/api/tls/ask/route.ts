import { getDb } from '@/lib/db/client';
import { env } from '@/lib/env';
import { parseTrustedProxies, type TrustedProxies } from '@/lib/security/forwarded';
import { handleTlsAsk } from '@/lib/server/tls-ask';

export const dynamic = 'force-dynamic';

let trusted: TrustedProxies | undefined;

/** GET /api/tls/ask?domain=<host> — may the reverse proxy get a certificate for this host? (lib/server/tls-ask.ts) */
export async function GET(request: Request): Promise<Response> {
  const e = env();
  trusted ??= parseTrustedProxies(e.TRUSTED_PROXIES);
  return handleTlsAsk(request, {
    db: getDb(),
    brandWord: e.BRAND_WORD,
    defaultChannel: e.DEFAULT_CHANNEL,
    trusted,
    operatorHost: e.OPERATOR_HOST,
  });
}
