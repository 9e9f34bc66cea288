import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { certificateDomainProblem } from './certificate-domain';

/**
 * Host names as channel domains take them (issue 31, "Domains"): what an operator types is normalised to the one form
 * the table, the proxy and the TLS ask compare (lower case, IDNA/punycode, no trailing dot), or refused with why.
 * Pure (the proxy, lib/env.ts and the service use it).
 */

/** Why a typed domain is not one: an IP address, a port, a scheme or path, or not a host name at all. */
export type DomainInputProblem = 'ip' | 'port' | 'path' | 'invalid';

/**
 * `input` as the host it names (`Shop.Example.Test.` → `shop.example.test`, `bücher.example` → `xn--bcher-kva.example`),
 * or the problem. Strict on purpose: a domain is added once and then served, so anything but a bare host name is
 * refused with what to change rather than guessed at (`https://shop.example/` could be meant, `shop.example:8443`
 * cannot be served: the deployment answers on its own ports).
 */
export function normalizeDomainInput(input: string): { host: string } | { problem: DomainInputProblem } {
  const typed = input.trim();
  if (typed === '') return { problem: 'invalid' };
  if (/[/?#\\@]/.test(typed) || /^[a-z][a-z0-9+.-]*:\/\//i.test(typed)) return { problem: 'path' };
  const unbracketed = typed.startsWith('[') && typed.includes(']') ? typed.slice(1, typed.indexOf(']')) : typed;
  if (isIP(unbracketed) !== 0) return { problem: 'ip' };
  // An IPv6 address with a port ([::1]:80), or a name with one (shop.example:8443).
  if (typed.startsWith('[')) return { problem: typed.includes(']:') ? 'port' : 'ip' };
  if ((typed.match(/:/g) ?? []).length > 1) return { problem: 'ip' };
  if (typed.includes(':')) {
    const [name] = typed.split(':');
    return isIP(name ?? '') !== 0 ? { problem: 'ip' } : { problem: 'port' };
  }
  if (/\s/.test(typed)) return { problem: 'invalid' };
  const withoutDot = typed.endsWith('.') ? typed.slice(0, -1) : typed;
  const ascii = domainToASCII(withoutDot.toLowerCase());
  if (!ascii || ascii !== ascii.toLowerCase()) return { problem: 'invalid' };
  // A dotted quad written oddly (1.2.3.04) is caught here: a host name's last label is never all digits.
  if (/^[0-9.]+$/.test(ascii)) return { problem: 'ip' };
  if (certificateDomainProblem(ascii) !== null) return { problem: 'invalid' };
  // A domain has a name and a top-level domain at least: `localhost` or `shop` alone is nobody's.
  if (!ascii.includes('.')) return { problem: 'invalid' };
  return { host: ascii };
}

/** The host name of a Host header (`Shop.Example:3000`, `shop.example.`): lower case, without port or trailing dot. */
export function hostnameOf(hostHeader: string): string {
  let host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.lastIndexOf(':');
  if (colon !== -1) host = host.slice(0, colon);
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/**
 * Whether `host` is the brand domain or under it (`aurora.shop.example` with BRAND_WORD `shop.example`): those names
 * are channel keys by the spec §1 rule (the key host of a channel, or of one yet to be made), so no channel adds them
 * as its own domain, and they keep the key rule when no domain row serves them.
 */
export function isUnderBrandDomain(host: string, brandWord: string): boolean {
  const brand = brandWord.trim().toLowerCase().replace(/\.$/, '');
  return brand !== '' && (host === brand || host.endsWith(`.${brand}`));
}

/** The name of the TXT record that proves ownership of `host` (docs/deploy.md, "Custom domains"). */
export function verificationRecordName(host: string): string {
  return `_storefront-verify.${host}`;
}

/** What that TXT record holds for `token`. */
export function verificationRecordValue(token: string): string {
  return `storefront-verify=${token}`;
}

/**
 * DNS_RESOLVER (lib/env.ts): comma-separated servers, each an IP address with an optional port (`127.0.0.1:5391`,
 * `[::1]:53`, `223.5.5.5`), in the form node:dns `Resolver.setServers` takes; throws with what is wrong.
 */
export function parseDnsServers(value: string): string[] {
  const servers = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const server of servers) {
    const v6 = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server);
    const v4 = /^([0-9.]+)(?::(\d{1,5}))?$/.exec(server);
    const address = v6?.[1] ?? v4?.[1] ?? (isIP(server) === 6 ? server : '');
    const port = v6?.[2] ?? v4?.[2];
    if (isIP(address) === 0 || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
      throw new Error(`${server} is not a DNS server: an IP address with an optional port, e.g. 223.5.5.5 or 127.0.0.1:5391`);
    }
  }
  return servers;
}

/** DOMAIN_TARGET_IPS (lib/env.ts): comma-separated IP addresses; throws with the one that is not. */
export function parseIpList(value: string): string[] {
  const ips = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const ip of ips) if (isIP(ip) === 0) throw new Error(`${ip} is not an IP address`);
  return ips;
}
