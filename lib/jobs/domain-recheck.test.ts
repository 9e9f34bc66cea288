import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { startFakeDns } from '@/test/dns-server';
import { channelDomains } from '@/lib/db/schema';
import { addDomain, domainSettings, verifyDomain } from '@/lib/channel/domains';
import { dnsDomainChecker } from '@/lib/channel/domain-dns';
import { startJobs } from './runner';

// The background jobs re-check the custom domains at the DNS the deployment names (DNS_RESOLVER; issue 31): a verified
// domain whose TXT record went away is still served, and an operator reads an [alert] in the server's log.

const db = seededTestDb(new Date());
let dns: Awaited<ReturnType<typeof startFakeDns>>;
beforeAll(async () => {
  dns = await startFakeDns();
  // Before the first env() of this file: the deployment's resolver is the fake one.
  process.env.DNS_RESOLVER = dns.server;
});
afterAll(async () => {
  delete process.env.DNS_RESOLVER;
  await dns.close();
});

it('checks a verified domain again when the jobs start, and alerts when it fails, keeping it served', async () => {
  const settings = domainSettings();
  const added = await addDomain(db, 'AURORA', 'recheck.example.test', settings);
  const txt = added.records.find((r) => r.type === 'TXT')!;
  dns.zone.txt.set(txt.name, [txt.value]);
  await verifyDomain(db, 'AURORA', 'recheck.example.test', settings, dnsDomainChecker([dns.server]));
  dns.zone.txt.delete(txt.name);

  const alerted = new Promise<string>((resolve) => {
    jest.spyOn(console, 'error').mockImplementation((line: unknown) => {
      if (typeof line === 'string' && line.startsWith('[alert] domain recheck.example.test')) resolve(line);
    });
  });
  const stop = startJobs(db);
  try {
    expect(await alerted).toMatch(/fails its DNS check \(txt_missing\); still served until /);
  } finally {
    stop();
    jest.restoreAllMocks();
  }
  const [row] = await db.select().from(channelDomains).where(eq(channelDomains.host, 'recheck.example.test'));
  expect(row).toMatchObject({ status: 'misconfigured', problem: 'txt_missing' });
  expect(row!.verifiedSince).not.toBeNull();
});
