import { isIP } from 'node:net';

/**
 * Client addresses as the per-client limits count them (the SMS and captcha limits, lib/rate-limit/address.ts; the
 * buy lane, lib/server/buy-lane.ts) (issue 29, finding 3: one machine with a few hundred addresses emptied a
 * channel's hourly SMS budget). An address is counted twice: as itself, and as part of its network, because one
 * subscriber or one machine holds a whole network of addresses:
 * - IPv6: the /64. A phone, a home line or a rented server each get at least a /64 and may pick any address in it, so
 *   2^64 "addresses" are one client;
 * - IPv4: the exact address by default; a deployment may group by a shorter prefix (SMS_IPV4_NETWORK_PREFIX), knowing
 *   that mainland carriers put many phones behind one carrier-NAT address and a few neighbouring ones.
 * Addresses are normalised first, so one address has one spelling: `::ffff:1.2.3.4` (IPv4 on an IPv6 socket) is
 * `1.2.3.4`, and `2001:0db8:0:0::1` is `2001:db8::1` (RFC 5952: lowercase, no leading zeros, the longest run of zero
 * groups compressed).
 */

/** The IPv6 network one client holds (RFC 6177: a site gets a /48 to a /64; every subnet is a /64). */
export const IPV6_NETWORK_PREFIX = 64;

/** An address's canonical spelling and family, or null for anything that is not an IP address (e.g. 'unknown'). */
export type ClientAddress = { address: string; family: 4 | 6; bytes: number[] };

/** Parses an IPv4 or IPv6 address (brackets, a zone id and an IPv4 port are tolerated) into its bytes. */
export function parseAddress(raw: string | null | undefined): ClientAddress | null {
  if (!raw) return null;
  let value = raw.trim();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    value = value.slice(1, end > 0 ? end : undefined);
  }
  value = value.replace(/%.*$/, '');
  if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  const family = isIP(value);
  if (family === 4) return ipv4(value.split('.').map(Number));
  if (family !== 6) return null;
  const bytes = ipv6Bytes(value.toLowerCase());
  // IPv4-mapped (::ffff:a.b.c.d, in any spelling) is the IPv4 address: the same client on a dual-stack socket.
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return ipv4(bytes.slice(12));
  return { address: formatIpv6(bytes), family: 6, bytes };
}

function ipv4(bytes: number[]): ClientAddress {
  return { address: bytes.join('.'), family: 4, bytes };
}

/** The 16 bytes of an IPv6 address that net.isIP accepted (so the shape is known to be valid). */
function ipv6Bytes(value: string): number[] {
  // A dotted IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is the last two groups.
  const text = value.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a: string, b: string, c: string, d: string) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((w) => w.toString(16)).join(':'),
  );
  const [head, rest] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = groups(head);
  const right = groups(rest);
  const words = rest === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((w) => [w >> 8, w & 255]);
}

/** RFC 5952 text: lowercase hex without leading zeros, the longest run (2 or more, the first on a tie) of zero groups as `::`. */
function formatIpv6(bytes: number[]): string {
  const words = Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!);
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j;
  }
  const hex = (list: number[]) => list.map((w) => w.toString(16)).join(':');
  if (best.length < 2) return hex(words);
  return `${hex(words.slice(0, best.start))}::${hex(words.slice(best.start + best.length))}`;
}

/** The network an address belongs to, as `prefix/bits`: the /64 for IPv6, the /ipv4Prefix for IPv4. */
export function networkOf(address: ClientAddress, ipv4Prefix: number): string {
  const bits = address.family === 6 ? IPV6_NETWORK_PREFIX : ipv4Prefix;
  const masked = address.bytes.map((byte, i) => {
    const keep = Math.max(0, Math.min(8, bits - 8 * i));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
  return `${address.family === 6 ? formatIpv6(masked) : masked.join('.')}/${bits}`;
}

/**
 * The one key a client counts under where a limit counts clients, not addresses (the buy lane's places): its network
 * (an IPv6 /64; IPv4 by `ipv4Prefix`, 32 meaning the address itself). Anything that is not an address is its own key.
 */
export function clientGroup(ip: string, ipv4Prefix = 32): string {
  const address = parseAddress(ip);
  if (!address) return ip;
  return address.family === 4 && ipv4Prefix >= 32 ? address.address : networkOf(address, ipv4Prefix);
}
