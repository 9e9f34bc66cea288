import 'server-only';
import type { Db } from '../db/client';
import { channelKeyFromHost, isValidChannelKey } from './key';
import { readChannel } from './service';

/**
 * Whether the reverse proxy may get a TLS certificate for a host name (docs/deploy.md, "TLS"; Caddy's on-demand TLS
 * `ask`). The proxy asks before it issues a certificate for a name it has not seen; anyone can point a name at the
 * deployment, so a yes for any name would let a scanner spend the certificate authority's rate limits (and fill the
 * proxy's storage) with names nobody serves.
 */

/** Longest host name DNS allows (RFC 1035: 255 octets on the wire, 253 characters written). */
const MAX_DOMAIN_LENGTH = 253;
/** A DNS label as certificates name them (RFC 1123): lowercase letters, digits, inner hyphens; 1 to 63 characters. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Why `domain` is not a host name a certificate can be issued for, or null when it is one. Strict on purpose: the
 * proxy sends the name lowercased, without a port or trailing dot, so anything else is not from the proxy. IP
 * literals are refused (channels are host names; an IPv4 address is a name whose last label is digits, an IPv6 one
 * has colons).
 */
export function certificateDomainProblem(domain: string | null): string | null {
  if (!domain) return 'domain: is required (?domain=<host name>)';
  if (domain.length > MAX_DOMAIN_LENGTH) return `domain: must be at most ${MAX_DOMAIN_LENGTH} characters`;
  if (domain !== domain.toLowerCase()) return 'domain: must be lowercase';
  if (domain.includes(':')) return 'domain: must be a host name without a port (IP literals are refused)';
  const labels = domain.split('.');
  if (!labels.every((label) => LABEL.test(label)))
    return 'domain: must be dot-separated labels of a-z, 0-9 and inner hyphens, 1 to 63 characters each, without a trailing dot';
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return 'domain: must be a host name (IP literals are refused)';
  return null;
}

export type CertificateVerdict = { serves: true; channel: string } | { serves: false; reason: string };

/**
 * Whether this deployment serves `domain` (already checked by certificateDomainProblem) as a channel: the host's key
 * (lib/channel/key.ts) is a channel's, and the name is that channel's canonical host (`channels.host`, the one its
 * link previews use). The second condition matters: the key rule drops dots and the brand word, so `a.urora.<brand>`
 * and `aurora.<brand>` both reach AURORA, and only the name the operator wrote down gets a certificate. The bare brand
 * domain serves DEFAULT_CHANNEL when one is set. A channel with status 0 (root screen hidden, spec §1) still gets a
 * yes: its host answers with a page, which must arrive over HTTPS like any other. Reads go through the channel cache;
 * a name whose key cannot be a channel costs no query.
 */
export async function channelForCertificate(
  db: Db,
  domain: string,
  options: { brandWord: string; defaultChannel?: string },
): Promise<CertificateVerdict> {
  const key = channelKeyFromHost(domain, options.brandWord);
  if (key === '') {
    const brandDomain = options.brandWord.trim().toLowerCase();
    if (domain !== brandDomain || !options.defaultChannel) return { serves: false, reason: `${domain} names no channel` };
    const row = await readChannel(db, options.defaultChannel);
    return row ? { serves: true, channel: row.key } : { serves: false, reason: `${domain} names no channel` };
  }
  if (!isValidChannelKey(key)) return { serves: false, reason: `${domain} names no channel` };
  const row = await readChannel(db, key);
  if (!row) return { serves: false, reason: `${domain} names no channel` };
  if (row.host.toLowerCase() !== domain)
    return { serves: false, reason: `${domain} is not the host of channel ${row.key} (its host is ${row.host})` };
  return { serves: true, channel: row.key };
}
