import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createTestDb } from '@/test/db';
import type { Db } from '@/lib/db/client';
import { channelDomains, channels } from '@/lib/db/schema';
import { MIGRATIONS_FOLDER } from '@/lib/db/migrate';
import { dnsDomainChecker } from './domain-dns';
import { listDomains, recheckDomains, routeHost, type DomainSettings } from './domains';

// The hosts a deployment served before channels had domains (docs/deploy.md §8: each channel's `host`, its key host or
// a domain of its own) become verified domains when the migration runs, so no store goes dark on the upgrade, and the
// re-check leaves them alone (they have no TXT record to find).

const settings: DomainSettings = { brandWord: 'shop.example', operatorHost: 'ops.shop.example', targetIps: [], graceMs: 72 * 3_600_000 };

/** The migration's statement that carries the hosts over, as the migrations run it. */
function carryOverStatement(): string {
  const file = readdirSync(MIGRATIONS_FOLDER).find((name) => name.endsWith('_channel_domains.sql'));
  if (!file) throw new Error('no channel_domains migration');
  const statements = readFileSync(path.join(MIGRATIONS_FOLDER, file), 'utf8').split('--> statement-breakpoint');
  const insert = statements.find((s) => s.includes('INSERT INTO "channel_domains"'));
  if (!insert) throw new Error('the channel_domains migration carries no hosts over');
  return insert;
}

let db: Db;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ db, close } = await createTestDb());
  // Channels as an operator added them before (docs/deploy.md §8), one with a port in its host.
  await db.insert(channels).values([
    { key: 'AURORA', host: 'aurora.shop.example', name: 'Aurora', brandName: 'Aurora', labelList: '1' },
    { key: 'AURORAARTCOM', host: 'AuroraArt.com', name: 'Aurora Art', brandName: 'Aurora Art', labelList: '1' },
    { key: 'LOCAL', host: 'local.shop.example:8443', name: 'Local', brandName: 'Local', labelList: '1' },
  ]);
  await db.execute(sql.raw(carryOverStatement()));
});
afterAll(() => close());

describe('the hosts served before domains', () => {
  it('are verified domains of their channels, not primary, and served', async () => {
    const rows = await db.select({ host: channelDomains.host, status: channelDomains.status }).from(channelDomains);
    expect(rows.map((r) => r.host).sort()).toEqual(['aurora.shop.example', 'auroraart.com']);
    const [art] = await listDomains(db, 'AURORAARTCOM', settings);
    expect(art).toMatchObject({ host: 'auroraart.com', status: 'verified', isPrimary: false, served: true, preexisting: true });
    expect(await routeHost(db, 'auroraart.com', settings)).toEqual({ key: 'AURORAARTCOM', domain: 'auroraart.com' });
    expect(await routeHost(db, 'aurora.shop.example', settings)).toEqual({ key: 'AURORA', domain: null });
  });

  it('are not re-checked at the DNS', async () => {
    const checker = dnsDomainChecker(['127.0.0.1:9']);
    const report = await recheckDomains(db, settings, checker, new Date(), () => {});
    expect(report).toEqual({ checked: 0, verified: 0, failing: 0, stopped: 0, lookupFailed: 0 });
  });

  it('are carried over once: running the statement again changes nothing', async () => {
    const before = await db.select().from(channelDomains);
    await db.execute(sql.raw(carryOverStatement()));
    expect(await db.select().from(channelDomains)).toEqual(before);
  });
});
