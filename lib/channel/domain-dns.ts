import { Resolver } from 'node:dns/promises';
import type { DomainProblem } from '../db/schema';
import { verificationRecordName, verificationRecordValue } from '../security/domain-name';

/**
 * The DNS check of a custom domain (issue 31, "Domains"; docs/deploy.md, "Custom domains"): its TXT record
 * `_storefront-verify.<host>` holds `storefront-verify=<token>` (ownership), and the name points at this deployment
 * (a CNAME to DOMAIN_TARGET, or A/AAAA records among DOMAIN_TARGET_IPS or DOMAIN_TARGET's own addresses). Asked of
 * DNS_RESOLVER's servers (the machine's when unset) through node:dns, so a test points it at a server on loopback.
 */

/** What the check found: passes, or the first problem in the order an operator fixes them (ownership, then pointing). */
export type DomainCheckOutcome = { ok: true } | { ok: false; problem: DomainProblem };

/** What a domain must match: its token, and where it must point (nothing to point at: the pointing is not checked). */
export type DomainExpectation = { token: string; target?: string; targetIps: readonly string[] };

export type DomainChecker = (host: string, expected: DomainExpectation) => Promise<DomainCheckOutcome>;

/** The DNS servers did not answer (timeout, refusal, server failure): nothing is known, so no status changes. */
export class DomainLookupError extends Error {
  constructor(
    readonly host: string,
    readonly dnsCode: string,
  ) {
    super(`DNS lookup for ${host} failed: ${dnsCode}`);
    this.name = 'DomainLookupError';
  }
}

/** How long one question waits, and how often it is asked, before the lookup counts as failed. */
const TIMEOUT_MS = 2_000;
const TRIES = 2;

/** Answers that say "no such record" (the name or the type does not exist); anything else is a failed lookup. */
const ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'NOTFOUND', 'ENONAME']);

/** A checker asking `servers` (DNS_RESOLVER; empty: the machine's resolvers). */
export function dnsDomainChecker(servers: readonly string[]): DomainChecker {
  const resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
  if (servers.length > 0) resolver.setServers([...servers]);

  async function records<T>(host: string, ask: () => Promise<T[]>): Promise<T[]> {
    try {
      return await ask();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      if (ABSENT.has(code)) return [];
      throw new DomainLookupError(host, code);
    }
  }
  const addressesOf = async (name: string) => [
    ...(await records(name, () => resolver.resolve4(name))),
    ...(await records(name, () => resolver.resolve6(name))),
  ];

  return async (host, expected) => {
    const txtName = verificationRecordName(host);
    // A TXT record may come in several strings of at most 255 characters: joined, as RFC 7208 reads them.
    const texts = (await records(host, () => resolver.resolveTxt(txtName))).map((chunks) => chunks.join(''));
    const wanted = verificationRecordValue(expected.token);
    if (!texts.includes(wanted)) {
      const ours = texts.some((text) => text.startsWith(verificationRecordValue('')));
      return { ok: false, problem: ours ? 'txt_wrong' : 'txt_missing' };
    }
    const target = expected.target?.toLowerCase();
    if (!target && expected.targetIps.length === 0) return { ok: true };
    const cnames = (await records(host, () => resolver.resolveCname(host))).map((name) => name.toLowerCase().replace(/\.$/, ''));
    if (target && cnames.includes(target)) return { ok: true };
    if (cnames.length > 0) return { ok: false, problem: 'points_elsewhere' };
    // An apex cannot have a CNAME: its addresses must all be the deployment's.
    const addresses = await addressesOf(host);
    const allowed = new Set([...expected.targetIps, ...(target ? await addressesOf(target) : [])]);
    const points = addresses.length > 0 && addresses.every((address) => allowed.has(address));
    return points ? { ok: true } : { ok: false, problem: 'points_elsewhere' };
  };
}
