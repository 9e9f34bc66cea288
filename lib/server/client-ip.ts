import { CLIENT_IP_HEADER } from '../security/forwarded';

/**
 * The client's address for rate limits and records: the one the entry server (server.ts) resolved from the socket
 * and the configured trusted proxies (lib/security/forwarded.ts). A client cannot choose it: the entry server drops
 * whatever a client sent under that name. Without the entry server (plain `next start`), it is 'unknown'.
 */
export function clientIp(headers: Headers): string {
  const ip = headers.get(CLIENT_IP_HEADER)?.trim();
  return ip ? ip.slice(0, 64) : 'unknown';
}
