import 'server-only';
import { raiseAlert } from '../monitor/alerts';
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { cachedRead, invalidate, tags as cacheTags } from '../cache/store';
import type { Db } from '../db/client';
import { channelDomains, channels, type ChannelDomainRow, type DomainProblem, type DomainStatus } from '../db/schema';
import { env, type Env } from '../env';
import { AppError } from '../procedure/errors';
import { msg, type ApiMessage } from '../procedure/messages';
import { certificateDomainProblem } from '../security/certificate-domain';
import { DomainLookupError, type DomainChecker, type DomainCheckOutcome } from './domain-dns';
import {
  hostnameOf,
  isUnderBrandDomain,
  normalizeDomainInput,
  verificationRecordName,
  verificationRecordValue,
  type DomainInputProblem,
} from '../security/domain-name';
import { channelKeyForHost, channelKeyFromHost, isValidChannelKey } from './key';
import { findChannelByKey } from './service';

/**
 * A channel's domains (issue 31, "Domains"; docs/operators.md, "Adding a domain"; docs/deploy.md, "Custom domains").
 * A channel is always served on its spec §1 key host; an operator adds custom domains, each proved at the customer's DNS
 * (a TXT record with the domain's token, and the name pointing at this deployment) before it is served; one served
 * domain may be the channel's primary, to which every other host of the channel redirects (proxy.ts). The routing reads
 * go through the process's cache under the tags below, dropped at once by every change here (`invalidate`).
 */

/** What the service needs of the deployment (lib/env.ts); tests pass their own. */
export type DomainSettings = {
  brandWord: string;
  defaultChannel?: string;
  operatorHost: string;
  /** DOMAIN_TARGET: the name a CNAME points at. */
  target?: string;
  /** DOMAIN_TARGET_IPS: the addresses A/AAAA records point at. */
  targetIps: readonly string[];
  /** DOMAIN_GRACE_HOURS in milliseconds: how long a verified domain failing its check is still served. */
  graceMs: number;
};

export function domainSettings(e: Env = env()): DomainSettings {
  return {
    brandWord: e.BRAND_WORD,
    defaultChannel: e.DEFAULT_CHANNEL,
    operatorHost: e.OPERATOR_HOST,
    target: e.DOMAIN_TARGET,
    targetIps: e.DOMAIN_TARGET_IPS,
    graceMs: e.DOMAIN_GRACE_HOURS * 3_600_000,
  };
}

/** The cache tags of the domain reads: one host's row, and a channel's primary. */
export const domainTags = {
  host: (host: string) => `domain:${host}`,
  channel: (channelId: number) => `channel-domains:${channelId}`,
};

/** A record the customer sets at their DNS: the name points here (CNAME or A/AAAA), and the TXT proves ownership. */
export type DnsRecord = { type: 'CNAME' | 'A' | 'AAAA' | 'TXT'; name: string; value: string; purpose: 'points' | 'ownership' };

/** A domain as the console shows it. */
export type DomainView = {
  host: string;
  status: DomainStatus;
  /** Why the last check failed; null when it passed or none ran. */
  problem: DomainProblem | null;
  isPrimary: boolean;
  /** Whether pages are served on it now (verified, or failing within its grace period). */
  served: boolean;
  /** Set up before domains existed (docs/deploy.md §8): trusted as it was, not re-checked. */
  preexisting: boolean;
  addedAt: Date;
  lastCheckedAt: Date | null;
  verifiedSince: Date | null;
  failingSince: Date | null;
  /** When a failing verified domain stops being served, unless its check passes before. */
  servedUntil: Date | null;
  records: DnsRecord[];
};

/**
 * Whether pages are served on a domain at `now`: verified, or verified once and failing for less than the grace
 * period (a DNS blip never takes a store down; the worker's re-check ends it when the period is over).
 */
export function isServed(row: Pick<ChannelDomainRow, 'status' | 'verifiedSince' | 'failingSince'>, now: Date, graceMs: number): boolean {
  if (row.status === 'verified') return true;
  if (row.status !== 'misconfigured' || !row.verifiedSince || !row.failingSince) return false;
  return now.getTime() < row.failingSince.getTime() + graceMs;
}

/** The records to set for `host` (docs/deploy.md, "Custom domains"). */
export function dnsRecords(host: string, token: string, settings: Pick<DomainSettings, 'target' | 'targetIps'>): DnsRecord[] {
  const pointing: DnsRecord[] = settings.target
    ? [{ type: 'CNAME', name: host, value: settings.target, purpose: 'points' }]
    : settings.targetIps.map((ip) => ({ type: ip.includes(':') ? 'AAAA' : 'A', name: host, value: ip, purpose: 'points' }) as const);
  return [...pointing, { type: 'TXT', name: verificationRecordName(host), value: verificationRecordValue(token), purpose: 'ownership' }];
}

function toView(row: ChannelDomainRow, settings: DomainSettings, now: Date): DomainView {
  const failing = row.status === 'misconfigured' && row.verifiedSince && row.failingSince;
  return {
    host: row.host,
    status: row.status,
    problem: row.problem,
    isPrimary: row.isPrimary,
    served: isServed(row, now, settings.graceMs),
    preexisting: row.provenBy === 'setup',
    addedAt: row.addedAt,
    lastCheckedAt: row.lastCheckedAt,
    verifiedSince: row.verifiedSince,
    failingSince: row.failingSince,
    servedUntil: failing ? new Date(row.failingSince!.getTime() + settings.graceMs) : null,
    records: row.provenBy === 'setup' ? [] : dnsRecords(row.host, row.token, settings),
  };
}

const INPUT_REFUSAL: Record<DomainInputProblem, ApiMessage> = {
  ip: msg('domainIp'),
  port: msg('domainPort'),
  path: msg('domainPath'),
  invalid: msg('domainInvalid'),
};

/** A token nobody can guess: 128 bits, hex. */
function newToken(): string {
  return randomBytes(16).toString('hex');
}

async function requireChannelRow(db: Db, channelKey: string) {
  const channel = await findChannelByKey(channelKey, db);
  if (!channel) throw new AppError(404, msg('channelNotFound', { key: channelKey }));
  return channel;
}

/**
 * Drops every cached read a change to `host` of channel `channel` may alter, in this process and (through the tag
 * fan-out) every other: the routing reads, and the channel's rendered pages, whose link previews and canonical URLs
 * carry its primary host (publicHostOf).
 */
function domainsChanged(db: Db, channel: { id: number; key: string }, hosts: readonly string[]): void {
  invalidate(db, [domainTags.channel(channel.id), cacheTags.channel(channel.key), ...hosts.map(domainTags.host)]);
}

/**
 * The audit trail's hook (lib/operator/audit.ts; issue 31, "An audit trail"): called inside the write's transaction
 * with the domain before and after, so the change and its record commit together or not at all.
 */
/** What the trail keeps of a domain change: the domain before and after, or which host was primary when none changed. */
export type DomainRecord = DomainView | { primary: string } | null;
export type DomainAudit = (tx: Db, change: { channelId: number; before: DomainRecord; after: DomainRecord }) => Promise<void>;

/**
 * Adds `input` to channel `channelKey` as a pending domain with a fresh token, and returns it with the records to
 * set. Refused (400, field `host`): anything but a host name (an IP, a port, a scheme or path), the operator console's
 * host, a name under the brand domain (key hosts, spec §1), a name whose key is another channel's, a domain another
 * channel holds, one this channel has. A domain removed from any channel is taken over with a new token.
 */
export async function addDomain(
  db: Db,
  channelKey: string,
  input: string,
  settings: DomainSettings,
  now = new Date(),
  audit?: DomainAudit,
): Promise<DomainView> {
  const normalized = normalizeDomainInput(input);
  if ('problem' in normalized) throw new AppError(400, INPUT_REFUSAL[normalized.problem]);
  const { host } = normalized;
  const channel = await requireChannelRow(db, channelKey);
  if (host === hostnameOf(settings.operatorHost)) throw new AppError(400, msg('domainOperatorHost', { host }));
  const ruleKey = channelKeyFromHost(host, settings.brandWord);
  const ruleChannel = isValidChannelKey(ruleKey) && ruleKey !== channel.key ? await findChannelByKey(ruleKey, db) : null;
  if (ruleChannel) throw new AppError(400, msg('domainKeyHost', { host, key: ruleChannel.key }));
  if (isUnderBrandDomain(host, settings.brandWord)) throw new AppError(400, msg('domainBrandHost', { host }));

  const row = await db.transaction(async (tx) => {
    const [existing] = await tx.select().from(channelDomains).where(eq(channelDomains.host, host)).for('update');
    const fresh = {
      channelId: channel.id,
      isPrimary: false,
      status: 'pending' as const,
      problem: null,
      token: newToken(),
      provenBy: 'txt' as const,
      addedAt: now,
      lastCheckedAt: null,
      verifiedSince: null,
      failingSince: null,
    };
    if (existing) {
      if (existing.status !== 'removed') {
        throw new AppError(400, existing.channelId === channel.id ? msg('domainAlreadyAdded', { host }) : msg('domainTaken', { host }));
      }
      const [taken] = await tx.update(channelDomains).set(fresh).where(eq(channelDomains.id, existing.id)).returning();
      await audit?.(tx, { channelId: channel.id, before: toView(existing, settings, now), after: toView(taken!, settings, now) });
      return { row: taken!, previousChannel: existing.channelId };
    }
    const [inserted] = await tx
      .insert(channelDomains)
      .values({ host, ...fresh })
      .onConflictDoNothing({ target: channelDomains.host })
      .returning();
    // Added by another request at the same moment: theirs stands.
    if (!inserted) throw new AppError(400, msg('domainTaken', { host }));
    await audit?.(tx, { channelId: channel.id, before: null, after: toView(inserted, settings, now) });
    return { row: inserted, previousChannel: null };
  });
  domainsChanged(db, channel, [host]);
  if (row.previousChannel !== null && row.previousChannel !== channel.id) invalidate(db, [domainTags.channel(row.previousChannel)]);
  return toView(row.row, settings, now);
}

/** Channel `channelKey`'s domains, removed ones included (the console shows their history), primary first. */
export async function listDomains(db: Db, channelKey: string, settings: DomainSettings, now = new Date()): Promise<DomainView[]> {
  const channel = await requireChannelRow(db, channelKey);
  const rows = await db.select().from(channelDomains).where(eq(channelDomains.channelId, channel.id)).orderBy(channelDomains.host);
  return rows
    .map((row) => toView(row, settings, now))
    .sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary) || Number(a.status === 'removed') - Number(b.status === 'removed'));
}

async function requireDomain(db: Db, channelId: number, input: string): Promise<ChannelDomainRow> {
  const host = hostnameOf(input);
  const [row] = await db
    .select()
    .from(channelDomains)
    .where(and(eq(channelDomains.host, host), eq(channelDomains.channelId, channelId), ne(channelDomains.status, 'removed')));
  if (!row) throw new AppError(400, msg('domainNotFound', { host }));
  return row;
}

/** The columns a check's outcome sets on `row` at `now` (the grace rule: `isServed`). */
function afterCheck(row: ChannelDomainRow, outcome: DomainCheckOutcome, now: Date, graceMs: number): Partial<ChannelDomainRow> {
  if (outcome.ok) {
    const stillServed = isServed(row, now, graceMs);
    return {
      status: 'verified',
      problem: null,
      provenBy: 'txt',
      lastCheckedAt: now,
      verifiedSince: stillServed && row.verifiedSince ? row.verifiedSince : now,
      failingSince: null,
    };
  }
  // Set up before domains existed: a failing check is shown, the domain is served as before (docs/deploy.md §8).
  if (row.provenBy === 'setup') return { problem: outcome.problem, lastCheckedAt: now };
  if (isServed(row, now, graceMs)) {
    return { status: 'misconfigured', problem: outcome.problem, lastCheckedAt: now, failingSince: row.failingSince ?? now };
  }
  return { status: 'misconfigured', problem: outcome.problem, lastCheckedAt: now, verifiedSince: null, failingSince: null };
}

async function check(checker: DomainChecker, row: ChannelDomainRow, settings: DomainSettings): Promise<DomainCheckOutcome> {
  try {
    return await checker(row.host, { token: row.token, target: settings.target, targetIps: settings.targetIps });
  } catch (error) {
    if (error instanceof DomainLookupError) throw new AppError(503, msg('domainLookupFailed', { host: row.host }));
    throw error;
  }
}

/**
 * "Verify": checks `host` of channel `channelKey` at the DNS now and stores the outcome (verified, or misconfigured
 * with the reason). The DNS servers not answering changes nothing (503, try again).
 */
export async function verifyDomain(
  db: Db,
  channelKey: string,
  host: string,
  settings: DomainSettings,
  checker: DomainChecker,
  now = new Date(),
  audit?: DomainAudit,
): Promise<DomainView> {
  const channel = await requireChannelRow(db, channelKey);
  const row = await requireDomain(db, channel.id, host);
  // Asked outside the transaction: a slow DNS server holds no lock.
  const outcome = await check(checker, row, settings);
  const updated = await db.transaction(async (tx) => {
    const [changed] = await tx
      .update(channelDomains)
      .set(afterCheck(row, outcome, now, settings.graceMs))
      // Unless it was removed or taken over while the DNS answered.
      .where(
        and(
          eq(channelDomains.id, row.id),
          eq(channelDomains.channelId, channel.id),
          eq(channelDomains.token, row.token),
          ne(channelDomains.status, 'removed'),
        ),
      )
      .returning();
    if (!changed) throw new AppError(400, msg('domainNotFound', { host: row.host }));
    await audit?.(tx, { channelId: channel.id, before: toView(row, settings, now), after: toView(changed, settings, now) });
    return changed;
  });
  domainsChanged(db, channel, [row.host]);
  return toView(updated, settings, now);
}

/**
 * Makes `host` channel `channelKey`'s primary: every other host of the channel answers 308 to it (proxy.ts). Only a
 * verified domain (a primary nobody is served on would send every visitor to a dead name).
 */
export async function makePrimaryDomain(
  db: Db,
  channelKey: string,
  host: string,
  settings: DomainSettings,
  now = new Date(),
  audit?: DomainAudit,
): Promise<DomainView> {
  const channel = await requireChannelRow(db, channelKey);
  const row = await requireDomain(db, channel.id, host);
  if (row.status !== 'verified') throw new AppError(400, msg('domainNotVerified', { host: row.host }));
  const changed = await db.transaction(async (tx) => {
    // One primary per channel (a unique index too): the channel's row is the lock two concurrent calls queue on.
    await tx.select({ id: channels.id }).from(channels).where(eq(channels.id, channel.id)).for('update');
    const before = await tx
      .update(channelDomains)
      .set({ isPrimary: false })
      .where(and(eq(channelDomains.channelId, channel.id), eq(channelDomains.isPrimary, true)))
      .returning({ host: channelDomains.host });
    const [updated] = await tx
      .update(channelDomains)
      .set({ isPrimary: true })
      .where(and(eq(channelDomains.id, row.id), eq(channelDomains.status, 'verified')))
      .returning();
    if (!updated) throw new AppError(400, msg('domainNotVerified', { host: row.host }));
    await audit?.(tx, { channelId: channel.id, before: toView(row, settings, now), after: toView(updated, settings, now) });
    return { updated, hosts: [row.host, ...before.map((b) => b.host)] };
  });
  domainsChanged(db, channel, changed.hosts);
  return toView(changed.updated, settings, now);
}

/**
 * Removes `host` from channel `channelKey`: it is no longer served (its visitors get the store-not-found page, the
 * TLS ask says no) and may be added again, by this channel or another. The row stays, as `removed`, for the console's
 * history and so the name does not fall back to the key rule.
 */
export async function removeDomain(
  db: Db,
  channelKey: string,
  host: string,
  settings: DomainSettings,
  now = new Date(),
  audit?: DomainAudit,
): Promise<DomainView> {
  const channel = await requireChannelRow(db, channelKey);
  const row = await requireDomain(db, channel.id, host);
  const updated = await db.transaction(async (tx) => {
    const [changed] = await tx
      .update(channelDomains)
      .set({ status: 'removed', isPrimary: false, problem: null, verifiedSince: null, failingSince: null })
      .where(and(eq(channelDomains.id, row.id), ne(channelDomains.status, 'removed')))
      .returning();
    // Removed by another request meanwhile: nothing to record twice.
    if (!changed) throw new AppError(400, msg('domainNotFound', { host: row.host }));
    await audit?.(tx, { channelId: channel.id, before: toView(row, settings, now), after: toView(changed, settings, now) });
    return changed;
  });
  domainsChanged(db, channel, [row.host]);
  return toView(updated, settings, now);
}

export type RecheckReport = { checked: number; verified: number; failing: number; stopped: number; lookupFailed: number };

/**
 * The worker's re-check (DOMAIN_RECHECK_MINUTES, lib/jobs/runner.ts): every pending, verified or misconfigured domain
 * proved by TXT is checked again. A verified domain that fails keeps being served for the grace period, with its
 * status and problem and an `[alert]` line; once the period is over it is no longer served (another `[alert]`). A
 * domain whose DNS does not answer is left as it is.
 */
export async function recheckDomains(
  db: Db,
  settings: DomainSettings,
  checker: DomainChecker,
  now = new Date(),
  log: (line: string) => void = console.log,
): Promise<RecheckReport> {
  const report: RecheckReport = { checked: 0, verified: 0, failing: 0, stopped: 0, lookupFailed: 0 };
  const rows = await db
    .select()
    .from(channelDomains)
    .where(and(inArray(channelDomains.status, ['pending', 'verified', 'misconfigured']), eq(channelDomains.provenBy, 'txt')));
  for (const row of rows) {
    let outcome: DomainCheckOutcome;
    try {
      outcome = await checker(row.host, { token: row.token, target: settings.target, targetIps: settings.targetIps });
    } catch (error) {
      report.lookupFailed++;
      log(`[domains] ${row.host}: ${error instanceof Error ? error.message : String(error)}; left as it is until the next check`);
      continue;
    }
    report.checked++;
    const set = afterCheck(row, outcome, now, settings.graceMs);
    const [updated] = await db
      .update(channelDomains)
      .set(set)
      .where(and(eq(channelDomains.id, row.id), eq(channelDomains.token, row.token), ne(channelDomains.status, 'removed')))
      .returning();
    if (!updated) continue;
    const [owner] = await db.select({ id: channels.id, key: channels.key }).from(channels).where(eq(channels.id, updated.channelId));
    if (owner) domainsChanged(db, owner, [updated.host]);
    else invalidate(db, [domainTags.channel(updated.channelId), domainTags.host(updated.host)]);
    if (outcome.ok) {
      report.verified++;
      continue;
    }
    if (isServed(updated, now, settings.graceMs)) {
      report.failing++;
      const until = new Date(updated.failingSince!.getTime() + settings.graceMs).toISOString();
      log(`[alert] domain ${updated.host} fails its DNS check (${outcome.problem}); still served until ${until}, then it stops`);
      await raiseAlert(
        db,
        {
          kind: 'domainCheck',
          channelId: updated.channelId,
          subject: updated.host,
          detail: `domain ${updated.host} fails its DNS check (${outcome.problem}); served until ${until}`,
        },
        now,
        { logged: true },
      ); // issue 32
    } else if (row.verifiedSince && !updated.verifiedSince) {
      report.stopped++;
      log(`[alert] domain ${updated.host} failed its DNS check (${outcome.problem}) for the whole grace period: no longer served`);
      await raiseAlert(
        db,
        {
          kind: 'domainCheck',
          channelId: updated.channelId,
          subject: `${updated.host} stopped`,
          detail: `domain ${updated.host} is no longer served: its DNS check failed for the whole grace period`,
        },
        now,
        { logged: true },
      ); // issue 32
    }
  }
  return report;
}

/** A domain row as the routing reads it: the row and its channel's key. */
type RoutedDomain = Pick<ChannelDomainRow, 'host' | 'channelId' | 'status' | 'verifiedSince' | 'failingSince'> & { channelKey: string };

/** The row of `host` with its channel's key, or null, from the cache (docs/caching.md). */
function readDomain(db: Db, host: string): Promise<RoutedDomain | null> {
  return cachedRead(db, `domain:${host}`, [domainTags.host(host)], async () => {
    const [row] = await db
      .select({
        host: channelDomains.host,
        channelId: channelDomains.channelId,
        status: channelDomains.status,
        verifiedSince: channelDomains.verifiedSince,
        failingSince: channelDomains.failingSince,
        channelKey: channels.key,
      })
      .from(channelDomains)
      .innerJoin(channels, eq(channels.id, channelDomains.channelId))
      .where(eq(channelDomains.host, host))
      .limit(1);
    return row ?? null;
  });
}

/**
 * The channel domain row of `host` (already a plain lower-case host name), if any: whether it is served at `now` and
 * its channel's key. For the TLS ask (lib/channel/certificate.ts), from the cache.
 */
export async function domainOfHost(
  db: Db,
  host: string,
  graceMs: number,
  now = new Date(),
): Promise<{ served: boolean; channelKey: string } | null> {
  const row = await readDomain(db, host);
  return row ? { served: isServed(row, now, graceMs), channelKey: row.channelKey } : null;
}

/** Where a request's host leads: a channel's key ('' for none) and, when it came through a served domain, that domain. */
export type HostRoute = { key: string; domain: string | null };

/**
 * The channel a request's Host header is for (issue 31): a served domain's channel; no channel for a custom domain
 * that is pending, misconfigured past its grace period or removed (the store-not-found page, whatever the key rule
 * would say); else the spec §1 key rule (lib/channel/key.ts), which alone decides the names under the brand domain, so
 * a channel's key host always works. Cached per host. `db` may be `getDb`: the handle is opened only for a read.
 */
export async function routeHost(db: Db | (() => Db), hostHeader: string, settings: DomainSettings, now = new Date()): Promise<HostRoute> {
  const host = hostnameOf(hostHeader);
  // Names under the brand domain are key hosts (no channel adds them: `addDomain`), and a name that is no host name
  // has no row: the key rule decides those without a read.
  const keyRule = { key: channelKeyForHost(hostHeader, settings.brandWord, settings.defaultChannel), domain: null };
  if (isUnderBrandDomain(host, settings.brandWord) || certificateDomainProblem(host) !== null) return keyRule;
  const row = await readDomain(typeof db === 'function' ? db() : db, host);
  if (!row) return keyRule;
  return isServed(row, now, settings.graceMs) ? { key: row.channelKey, domain: row.host } : { key: '', domain: null };
}

/**
 * `routeHost`, or the key rule alone when the domain lookup fails (the database is down): the callers (the proxy, the
 * API) then work as before domains for key hosts, and a custom domain's visitors get no channel meanwhile.
 */
export async function routeHostOrKeyRule(
  db: Db | (() => Db),
  hostHeader: string,
  settings: DomainSettings,
  now = new Date(),
): Promise<HostRoute> {
  try {
    return await routeHost(db, hostHeader, settings, now);
  } catch (error) {
    console.error('[domains] host lookup failed; the key rule decides', error);
    const key = channelKeyForHost(hostHeader, settings.brandWord, settings.defaultChannel);
    return { key: isUnderBrandDomain(hostnameOf(hostHeader), settings.brandWord) ? key : '', domain: null };
  }
}

/** The served primary domain of channel `channelId`, or null, from the cache. */
export async function readPrimaryHost(db: Db, channelId: number, settings: DomainSettings, now = new Date()): Promise<string | null> {
  const row = await cachedRead(db, `domain-primary:${channelId}`, [domainTags.channel(channelId)], async () => {
    const [found] = await db
      .select({
        host: channelDomains.host,
        status: channelDomains.status,
        verifiedSince: channelDomains.verifiedSince,
        failingSince: channelDomains.failingSince,
      })
      .from(channelDomains)
      .where(and(eq(channelDomains.channelId, channelId), eq(channelDomains.isPrimary, true)))
      .limit(1);
    return found ?? null;
  });
  return row && isServed(row, now, settings.graceMs) ? row.host : null;
}

/**
 * The host a channel's pages belong on (lib/channel/canonical-host.ts): its served primary domain; without one, the
 * served domain the request came through (so a verified domain serves pages itself until a primary is chosen); else
 * the channel's `host` as today (docs/deploy.md §8).
 */
export async function canonicalHostOf(
  db: Db,
  channel: { id: number; host: string },
  route: HostRoute,
  settings: DomainSettings,
  now = new Date(),
): Promise<string> {
  return (await readPrimaryHost(db, channel.id, settings, now)) ?? route.domain ?? channel.host;
}

/**
 * Makes channel `channelKey`'s key host (spec §1, `channels.host`) its primary again: no custom domain is primary, so
 * the channel's links and previews carry the key host (publicHostOf) and its served domains stop redirecting. Returns
 * the domain that was primary, or null when none was (nothing changes, nothing is recorded).
 */
export async function makeKeyHostPrimary(
  db: Db,
  channelKey: string,
  settings: DomainSettings,
  now = new Date(),
  audit?: DomainAudit,
): Promise<DomainView | null> {
  const channel = await requireChannelRow(db, channelKey);
  const was = await db.transaction(async (tx) => {
    await tx.select({ id: channels.id }).from(channels).where(eq(channels.id, channel.id)).for('update');
    const [before] = await tx
      .select()
      .from(channelDomains)
      .where(and(eq(channelDomains.channelId, channel.id), eq(channelDomains.isPrimary, true)));
    if (!before) {
      // The key host is primary already: nothing changes, and the trail still says who asked (the same before and after).
      const keyHostPrimary = { primary: channel.host };
      await audit?.(tx, { channelId: channel.id, before: keyHostPrimary, after: keyHostPrimary });
      return null;
    }
    const [after] = await tx.update(channelDomains).set({ isPrimary: false }).where(eq(channelDomains.id, before.id)).returning();
    await audit?.(tx, { channelId: channel.id, before: toView(before, settings, now), after: toView(after!, settings, now) });
    return after!;
  });
  if (!was) return null;
  domainsChanged(db, channel, [was.host]);
  return toView(was, settings, now);
}

/**
 * The host a channel's absolute links carry (issue 31, "Domains"): link previews (og:url, og:image), canonical URLs,
 * share links and payment return URLs. Its served primary domain; else its key host (`channels.host`, spec §1), which
 * always works. Cached under the channel's domain tag, so a new primary shows on the next page view everywhere.
 */
export async function publicHostOf(
  db: Db,
  channel: { id: number; host: string },
  settings: DomainSettings,
  now = new Date(),
): Promise<string> {
  return (await readPrimaryHost(db, channel.id, settings, now)) ?? channel.host;
}

/** A host of a channel as the console's channel list shows it. */
export type ChannelHost = { host: string; status: DomainStatus | 'key'; primary: boolean; served: boolean };

/**
 * The hosts of each channel in `channelIds` (issue 31: the console's channel list): its served primary domain first,
 * then its key host (`channels.host`, primary when no domain is), then its other domains that are not removed, each with
 * its status. Pre-console hosts (docs/deploy.md §8) that equal the key host are shown once.
 */
export async function hostsOfChannels(
  db: Db,
  list: readonly { id: number; host: string }[],
  settings: DomainSettings,
  now = new Date(),
): Promise<Map<number, ChannelHost[]>> {
  const ids = list.map((c) => c.id);
  const rows =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(channelDomains)
          .where(and(inArray(channelDomains.channelId, ids), ne(channelDomains.status, 'removed')))
          .orderBy(channelDomains.host);
  const result = new Map<number, ChannelHost[]>();
  for (const channel of list) {
    const own = rows.filter((r) => r.channelId === channel.id);
    const primary = own.find((r) => r.isPrimary && isServed(r, now, settings.graceMs));
    const hosts: ChannelHost[] = [];
    if (primary) hosts.push({ host: primary.host, status: primary.status, primary: true, served: true });
    const keyHost = hostnameOf(channel.host);
    hosts.push({ host: keyHost, status: 'key', primary: !primary, served: true });
    for (const row of own) {
      if (row === primary || row.host === keyHost) continue;
      hosts.push({ host: row.host, status: row.status, primary: false, served: isServed(row, now, settings.graceMs) });
    }
    result.set(channel.id, hosts);
  }
  return result;
}
