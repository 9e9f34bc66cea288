import 'server-only';
import { z } from 'zod';
import { channelKeySchema } from '../procedure/schemas';
import { procedure, type ProcedureContext } from '../procedure/procedure';
import { ANY_ROLE } from '../procedure/roles';
import { env } from '../env';
import {
  addDomain,
  domainSettings,
  listDomains,
  makeKeyHostPrimary,
  makePrimaryDomain,
  publicHostOf,
  removeDomain,
  verifyDomain,
  type DomainAudit,
  type DomainRecord,
  type DomainView,
} from '../channel/domains';
import { dnsDomainChecker } from '../channel/domain-dns';
import { hostnameOf } from '../security/domain-name';
import { auditCall } from './audit';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';

/**
 * The Domains tab's calls (issue 31, "Domains"; docs/operators.md, "Adding a domain"): list a channel's hosts, add a
 * custom domain (a sensitive write: `reauth`), verify it at the DNS now, make a host primary (`reauth`), remove one.
 * Owners, and managers on the channels granted; support reads. Every write is in the audit trail with the domain
 * before and after, in the write's transaction, and drops the routing's cached reads in every process
 * (lib/channel/domains.ts, `invalidate`).
 */

const channelKey = channelKeySchema;
const host = z
  .string({ error: 'is required and must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(300, 'must be 300 characters or less');

const domainView = z.object({
  host: z.string(),
  status: z.enum(['pending', 'verified', 'misconfigured', 'removed']),
  problem: z.enum(['txt_missing', 'txt_wrong', 'points_elsewhere']).nullable(),
  isPrimary: z.boolean(),
  served: z.boolean(),
  preexisting: z.boolean(),
  addedAt: z.string(),
  lastCheckedAt: z.string().nullable(),
  verifiedSince: z.string().nullable(),
  failingSince: z.string().nullable(),
  servedUntil: z.string().nullable(),
  records: z.array(
    z.object({
      type: z.enum(['CNAME', 'A', 'AAAA', 'TXT']),
      name: z.string(),
      value: z.string(),
      purpose: z.enum(['points', 'ownership']),
    }),
  ),
});

/** A domain as the wire carries it: times in ISO 8601. */
export type DomainWire = z.output<typeof domainView>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
export function toDomainWire(view: DomainView): DomainWire {
  return {
    ...view,
    addedAt: view.addedAt.toISOString(),
    lastCheckedAt: iso(view.lastCheckedAt),
    verifiedSince: iso(view.verifiedSince),
    failingSince: iso(view.failingSince),
    servedUntil: iso(view.servedUntil),
    records: view.records.map((r) => ({ ...r })),
  };
}

/** A domain as the trail keeps it (or which host was primary when nothing changed). */
const wireOf = (record: DomainRecord) => (record && 'host' in record ? toDomainWire(record) : record);

/** The audit hook of one call: the domain before and after as the console shows it. */
function auditOf(ctx: ProcedureContext, procedurePath: string, input: unknown): DomainAudit {
  const record = auditCall(ctx, procedurePath, input);
  return (tx, change) => record(tx, { channelId: change.channelId, before: wireOf(change.before), after: wireOf(change.after) });
}

const WRITERS = ['owner', 'manager'] as const;

export const domainProcedures = {
  '/ops/api/domain/list': procedure({
    summary:
      "A channel's hosts: its key host (always served), the primary one, and every custom domain with its status, the reason a check failed, when it was last checked, the DNS records to set and, when a verified domain fails its re-check, until when it is still served.",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKey }),
    output: z.object({ keyHost: z.string(), primary: z.string(), domains: z.array(domainView) }),
    handler: async (ctx) => {
      const channel = await ctx.operatorChannel();
      const settings = domainSettings();
      const domains = await listDomains(ctx.db, channel.key, settings, ctx.now);
      return {
        keyHost: hostnameOf(channel.host),
        primary: await publicHostOf(ctx.db, channel, settings, ctx.now),
        domains: domains.map(toDomainWire),
      };
    },
  }),
  '/ops/api/domain/add': procedure({
    summary:
      'Adds a custom domain to a channel, pending until verified, and answers the DNS records to set at the customer’s DNS: a CNAME (or A records) to this deployment and a TXT record with the ownership token. Refused (400, field `host`): an IP, a port, a path, a malformed name, the operator host, a name under the brand domain, another channel’s domain.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', reauth: true, writes: 'creates' },
    input: z.object({ channel: channelKey, host }),
    output: domainView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const audit = auditOf(ctx, '/ops/api/domain/add', input);
      return toDomainWire(await addDomain(ctx.db, channel.key, input.host, domainSettings(), ctx.now, audit));
    },
  }),
  '/ops/api/domain/verify': procedure({
    summary:
      'Checks a domain at the DNS now (DNS_RESOLVER): verified when its TXT record carries the token and it points at this deployment; else misconfigured with the reason (txt_missing, txt_wrong, points_elsewhere). 503 when the DNS servers do not answer (nothing changes).',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, host }),
    output: domainView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const audit = auditOf(ctx, '/ops/api/domain/verify', input);
      const checker = dnsDomainChecker(env().DNS_RESOLVER);
      return toDomainWire(await verifyDomain(ctx.db, channel.key, input.host, domainSettings(), checker, ctx.now, audit));
    },
  }),
  '/ops/api/domain/makePrimary': procedure({
    summary:
      'Makes a host the channel’s primary: a verified domain (every other host of the channel then answers 308 to it, except the API and payment notifications) or the key host (no domain is primary). Link previews and canonical URLs carry the primary host.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', reauth: true, writes: 'changes' },
    input: z.object({ channel: channelKey, host }),
    output: z.object({ primary: z.string() }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const settings = domainSettings();
      const audit = auditOf(ctx, '/ops/api/domain/makePrimary', input);
      if (hostnameOf(input.host) === hostnameOf(channel.host)) {
        await makeKeyHostPrimary(ctx.db, channel.key, settings, ctx.now, audit);
        return { primary: hostnameOf(channel.host) };
      }
      return { primary: (await makePrimaryDomain(ctx.db, channel.key, input.host, settings, ctx.now, audit)).host };
    },
  }),
  '/ops/api/domain/remove': procedure({
    summary:
      'Removes a custom domain from a channel: no longer served (its visitors get the store-not-found page, the TLS ask says no); it may be added again. The key host cannot be removed.',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKey, host }),
    output: domainView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      if (hostnameOf(input.host) === hostnameOf(channel.host)) {
        throw new AppError(400, msg('domainKeyHostFixed', { host: hostnameOf(channel.host) }));
      }
      const audit = auditOf(ctx, '/ops/api/domain/remove', input);
      return toDomainWire(await removeDomain(ctx.db, channel.key, input.host, domainSettings(), ctx.now, audit));
    },
  }),
};
