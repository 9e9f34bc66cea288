import 'server-only';
import { certificateDomainProblem, channelForCertificate } from '../channel/certificate';
import type { Db } from '../db/client';
import { normalizeAddress, type TrustedProxies } from '../security/forwarded';
import { clientIp } from './client-ip';

export type TlsAskOptions = {
  db: Db;
  brandWord: string;
  defaultChannel?: string;
  /** TRUSTED_PROXIES: the proxies that may ask; when it lists none, loopback (a proxy on this machine). */
  trusted: TrustedProxies;
  /** OPERATOR_HOST: the console's host gets its certificate too (issue 31), though it is no channel. */
  operatorHost?: string;
};

function answer(status: number, message: string): Response {
  return Response.json({ code: status, message, data: null }, { status, headers: { 'cache-control': 'no-store' } });
}

/** 127.0.0.0/8 and ::1. */
function isLoopback(ip: string): boolean {
  const address = normalizeAddress(ip);
  return address !== null && (address === '::1' || address.startsWith('127.'));
}

/**
 * Whether the caller is the reverse proxy: an address TRUSTED_PROXIES lists; when it lists none, any loopback address
 * (a proxy on this machine, as `npm run demo` or a first try of the recipe runs). Once the list names the proxy, a
 * loopback address it does not name is someone behind or beside the proxy, not the proxy (issue 29): a visitor through
 * Caddy from another loopback address (127.0.0.2, as `npm run deploy:check` plays its outside visitor where it cannot
 * make a network namespace) or another process on the machine.
 */
function isProxy(caller: string, trusted: TrustedProxies): boolean {
  return trusted.empty ? isLoopback(caller) : trusted.check(caller);
}

/**
 * GET /api/tls/ask?domain=<host> (docs/deploy.md, "TLS"): the reverse proxy asks before it issues a certificate for a
 * host (Caddy's on-demand TLS `ask`, which looks only at the status). 200 when the host is a channel this deployment
 * serves (lib/channel/certificate.ts), 404 when not, 400 when `domain` is not a host name, 403 for a caller that is not
 * the proxy, 503 when the database cannot answer (the proxy then issues nothing and asks again later); never 500.
 *
 * Only the proxy may ask: the caller is the client address the entry server resolved (server.ts, from the socket and
 * TRUSTED_PROXIES, never from a client's own X-Forwarded-For), and it must be a trusted proxy, or loopback when
 * TRUSTED_PROXIES lists none (isProxy). A visitor reaching this path through the proxy arrives with their own address
 * and gets 403, so the endpoint is no oracle for which names the deployment serves, and no scanner can make it query
 * the database. The callers allowed are few and ours, so it has no rate limit of its own; reads go through the
 * channel cache.
 */
export async function handleTlsAsk(request: Request, options: TlsAskOptions): Promise<Response> {
  const caller = clientIp(request.headers);
  if (!isProxy(caller, options.trusted)) return answer(403, 'only the reverse proxy may ask');
  const domain = new URL(request.url).searchParams.get('domain');
  const problem = certificateDomainProblem(domain);
  if (problem || domain === null) return answer(400, problem ?? 'domain: is required');
  if (options.operatorHost && domain.toLowerCase() === options.operatorHost) return answer(200, `${domain} serves the operator console`);
  try {
    const verdict = await channelForCertificate(options.db, domain, options);
    return verdict.serves ? answer(200, `${domain} serves channel ${verdict.channel}`) : answer(404, verdict.reason);
  } catch (error) {
    console.error('[tls-ask] channel lookup failed', error);
    return answer(503, 'the channel lookup failed; ask again later');
  }
}
