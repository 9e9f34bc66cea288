import { BlockList, isIP } from 'node:net';

/**
 * Who is on the other end of a request (security review, finding 2; DESIGN §10: forwarding headers are trusted only
 * from configured proxies). Next's own server keeps any `X-Forwarded-*` a client sends, so the storefront's entry
 * server (server.ts) rewrites them before Next sees the request:
 * - the client's address is the socket's peer, unless the peer is a trusted proxy; then the right-most address of
 *   `X-Forwarded-For` that is not itself a trusted proxy (each proxy appends the address it saw);
 * - the scheme is the socket's (plain HTTP here), unless a trusted proxy says `X-Forwarded-Proto`;
 * - `X-Forwarded-Host`, `X-Forwarded-Port`, `Forwarded` and `X-Real-IP` are dropped: the channel comes from `Host`,
 *   which a proxy passes through unchanged.
 * TRUSTED_PROXIES lists the proxies' addresses or CIDR ranges, comma-separated; none by default.
 */
export type TrustedProxies = { check(address: string): boolean; readonly empty: boolean };

/** The header the entry server sets to the client's address; anything a client sent under this name is replaced. */
export const CLIENT_IP_HEADER = 'x-client-ip';

const FORWARDING_HEADERS = [
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-forwarded-port',
  'forwarded',
  'x-real-ip',
  CLIENT_IP_HEADER,
];

/** A bare address: `::ffff:1.2.3.4` (IPv4 on an IPv6 socket) becomes `1.2.3.4`; brackets and zone ids go. */
export function normalizeAddress(raw: string | undefined | null): string | null {
  if (!raw) return null;
  let value = raw.trim();
  if (value.startsWith('[')) value = value.slice(1, value.indexOf(']') > 0 ? value.indexOf(']') : undefined);
  value = value.replace(/%.*$/, '');
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(value)) value = value.slice(7);
  // "1.2.3.4:5678" (some proxies append the port)
  if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  return isIP(value) ? value.toLowerCase() : null;
}

/** Parses TRUSTED_PROXIES ("10.0.0.1, 192.168.0.0/16, ::1"); throws with the entry that is not an address or range. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const list = new BlockList();
  let count = 0;
  for (const entry of (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [address, prefix, extra] = entry.split('/');
    const ip = normalizeAddress(address);
    const family = ip ? isIP(ip) : 0;
    if (!ip || extra !== undefined) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) {
      list.addAddress(ip, type);
    } else {
      const bits = Number(prefix);
      if (!/^\d{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128))
        throw new Error(`TRUSTED_PROXIES: "${entry}" has a bad prefix length`);
      list.addSubnet(ip, bits, type);
    }
    count++;
  }
  return {
    empty: count === 0,
    check(address) {
      const ip = normalizeAddress(address);
      if (!ip) return false;
      return list.check(ip, isIP(ip) === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

export type ForwardedView = { clientIp: string; proto: 'http' | 'https' };

/** The client's address and scheme for a request that arrived from `peer` with these headers. */
export function resolveForwarded(
  peer: string | undefined,
  headers: { 'x-forwarded-for'?: string | string[]; 'x-forwarded-proto'?: string | string[] },
  trusted: TrustedProxies,
  socketProto: 'http' | 'https' = 'http',
): ForwardedView {
  const peerIp = normalizeAddress(peer) ?? 'unknown';
  if (trusted.empty || !trusted.check(peerIp)) return { clientIp: peerIp, proto: socketProto };
  const forwarded = joined(headers['x-forwarded-for'])
    .split(',')
    .map((part) => normalizeAddress(part))
    .filter((part): part is string => part !== null);
  let clientIp = peerIp;
  // Right to left: the nearest hop a trusted proxy saw; stop at the first address that is not a trusted proxy.
  for (let i = forwarded.length - 1; i >= 0; i--) {
    clientIp = forwarded[i]!;
    if (!trusted.check(clientIp)) break;
  }
  const proto = joined(headers['x-forwarded-proto']).split(',')[0]?.trim().toLowerCase();
  return { clientIp, proto: proto === 'https' ? 'https' : proto === 'http' ? 'http' : socketProto };
}

function joined(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

/**
 * Rewrites a Node request's forwarding headers in place (server.ts): every client-sent one is dropped, then the
 * resolved address and scheme are set, so Next, next-auth, the proxy and the API all read the same truth.
 */
export function rewriteForwardingHeaders(
  headers: Record<string, string | string[] | undefined>,
  peer: string | undefined,
  trusted: TrustedProxies,
  socketProto: 'http' | 'https' = 'http',
): ForwardedView {
  const view = resolveForwarded(peer, headers, trusted, socketProto);
  for (const name of FORWARDING_HEADERS) delete headers[name];
  headers['x-forwarded-for'] = view.clientIp;
  headers['x-forwarded-proto'] = view.proto;
  headers[CLIENT_IP_HEADER] = view.clientIp;
  return view;
}
