import { isIPv6 } from 'node:net';

/**
 * The group a client address counts in for per-client limits (issue 29): an IPv6 address by its /64, the network
 * one subscriber is given (a phone or a home gets a whole /64, so counting exact addresses would let one device be as
 * many clients as it likes); an IPv4 address as itself, or by `ipv4Prefix` bits where a deployment asks for it.
 * Written as the network address with its prefix (`2001:db8:1:2::/64`, `203.0.113.0/24`), or the address itself for
 * an exact IPv4. Anything that is not an address (`unknown`) is its own group.
 */
export function addressGroup(address: string, ipv4Prefix = 32): string {
  // IPv4 on an IPv6 socket (::ffff:1.2.3.4) is IPv4.
  const mapped = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i.exec(address);
  if (mapped) return addressGroup(mapped[1]!, ipv4Prefix);
  if (isIPv6(address)) return `${ipv6Network(address, 64)}/64`;
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (!octets) return address;
  if (ipv4Prefix >= 32) return address;
  const value = octets.slice(1).reduce((n, octet) => n * 256 + Number(octet), 0);
  const network = ipv4Prefix <= 0 ? 0 : value - (value % 2 ** (32 - ipv4Prefix));
  const parts = [24, 16, 8, 0].map((shift) => Math.floor(network / 2 ** shift) % 256);
  return `${parts.join('.')}/${ipv4Prefix}`;
}

/** The first `bits` of an IPv6 address as a compact network address (the rest zero). */
function ipv6Network(address: string, bits: number): string {
  const [head = '', tail = ''] = address.toLowerCase().replace(/%.*$/, '').split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  // An IPv4 tail (::ffff:1.2.3.4) is two groups.
  const expand = (groups: string[]) =>
    groups.flatMap((g) => {
      const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(g);
      if (!v4) return [parseInt(g, 16) || 0];
      const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
      return [a * 256 + b, c * 256 + d];
    });
  const front = expand(headGroups);
  const back = expand(tailGroups);
  const groups = address.includes('::') ? [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back] : front;
  const kept = groups.slice(0, 8).map((g, i) => {
    const from = i * 16;
    if (from + 16 <= bits) return g;
    if (from >= bits) return 0;
    const keep = bits - from;
    return g - (g % 2 ** (16 - keep));
  });
  // Compact: the kept groups, then :: for the zero rest.
  const significant = Math.ceil(bits / 16);
  return `${kept
    .slice(0, significant)
    .map((g) => g.toString(16))
    .join(':')}::`;
}
