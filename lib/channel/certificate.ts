import 'server-only';
import type { Db } from '../db/client';
import { channelKeyFromHost, isValidChannelKey } from './key';
import { readChannel } from './service';
import { domainOfHost, domainSettings } from './domains';
import { isUnderBrandDomain } from '../security/domain-name';

/**
 * Whether the reverse proxy may get a TLS certificate for a host name (docs/deploy.md, "TLS"; Caddy's on-demand TLS
 * `ask`). The proxy asks before it issues a certificate for a name it has not seen; anyone can point a name at the
 * deployment, so a yes for any name would let a scanner spend the certificate authority's rate limits (and fill the
 * proxy's storage) with names nobody serves.
 */

export { certificateDomainProblem } from '../security/certificate-domain';

export type CertificateVerdict = { serves: true; channel: string } | { serves: false; reason: string };

/**
 * Whether this deployment serves `domain` (already checked by certificateDomainProblem) as a channel: the host's key
 * (lib/channel/key.ts) is a channel's, and the name is that channel's canonical host (`channels.host`, the one its
 * link previews use). The second condition matters: the key rule drops dots and the brand word, so `a.urora.<brand>`
 * and `aurora.<brand>` both reach AURORA, and only the name the operator wrote down gets a certificate. The bare brand
 * domain serves DEFAULT_CHANNEL when one is set. A channel with status 0 (root screen hidden, spec §1) still gets a
 * yes: its host answers with a page, which must arrive over HTTPS like any other. A channel's domain (issue 31,
 * ./domains.ts) gets a yes while it is served and a no otherwise, before the key rule. Reads go through the cache.
 */
export async function channelForCertificate(
  db: Db,
  domain: string,
  options: { brandWord: string; defaultChannel?: string; graceMs?: number },
): Promise<CertificateVerdict> {
  // A channel's domain (issue 31): yes while it is served (verified, or within its grace period); a custom domain that
  // is pending, misconfigured or removed gets no certificate, whatever the key rule says. Key hosts keep the rule.
  // Names under the brand domain are key hosts, decided by the key rule alone (no read for a name no key can be).
  if (!isUnderBrandDomain(domain, options.brandWord)) {
    const owned = await domainOfHost(db, domain, options.graceMs ?? domainSettings().graceMs);
    if (owned?.served) return { serves: true, channel: owned.channelKey };
    if (owned) return { serves: false, reason: `${domain} is not a verified domain of channel ${owned.channelKey}` };
  }
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
