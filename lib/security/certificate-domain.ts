// Pure: the shape of a host name a certificate (and a channel domain, ./domain-name.ts) can be issued for.

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
