import { eq, sql } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { channels, operatorAudit } from '@/lib/db/schema';
import type { OperatorSession } from '@/lib/procedure/scope';
import { AppError } from '@/lib/procedure/errors';
import { SECRET_FIELDS, auditCsv, changedFields, csvCell, listAudit, readAuditEntry, recordAudit } from './audit';
import { sweepAuditTrail } from './audit-retention';
import { auditFilterInput, exportAuditResponse } from './audit-procedures';

// The audit trail (issue 31, "An audit trail"): what each operator reads of it, in pages, by filter, as CSV; and that
// it is append-only in the database itself, the retention sweep excepted.

const NOW = new Date('2026-11-26T08:00:00Z');
const db = seededTestDb(NOW);

let owner: TestOperator;
let manager: TestOperator;
let aurora: number;
let lumen: number;
const session = (op: TestOperator, sessionId = 0): OperatorSession => ({
  sessionId,
  operatorId: op.operatorId,
  name: op.name,
  role: op.role,
});
const SHANGHAI = { timeZone: 'Asia/Shanghai' };

beforeAll(async () => {
  const before = new Date(NOW.getTime() - 5 * 60_000);
  owner = await signedInOperator(db, { name: 'trail.owner', role: 'owner', now: before });
  manager = await signedInOperator(db, { name: 'aurora.manager', role: 'manager', channels: ['AURORA'], now: before });
  const ids = Object.fromEntries((await db.select({ id: channels.id, key: channels.key }).from(channels)).map((c) => [c.key, c.id]));
  aurora = ids.AURORA!;
  lumen = ids.LUMEN!;
  // Twelve writes on AURORA at one and the same moment (keyset paging must neither skip nor repeat them), one on LUMEN
  // late on 25 November UTC (26 November in Shanghai), and one old enough for the retention sweep.
  const same = new Date('2026-11-26T07:00:00Z');
  for (let i = 0; i < 12; i++) {
    await recordAudit(db, {
      at: same,
      operatorId: owner.operatorId,
      operatorName: owner.name,
      ip: '198.51.100.7',
      channelId: aurora,
      procedure: 'channel/settings',
      input: { channel: 'AURORA', title: `title ${i}`, password: 'hunter2 hunter2' },
      before: { title: `title ${i - 1}`, status: 1 },
      after: { title: `title ${i}`, status: 1 },
    });
  }
  await recordAudit(db, {
    at: new Date('2026-11-25T17:30:00Z'),
    operatorId: owner.operatorId,
    operatorName: owner.name,
    ip: '198.51.100.7',
    channelId: lumen,
    procedure: 'channel/pause',
    input: { channel: 'LUMEN' },
    before: { status: 1, name: '=HYPERLINK("http://evil.example")' },
    after: { status: 0, name: '藏品店' },
  });
});

describe('reading the trail', () => {
  it('pages newest first by keyset: every entry once, none skipped, even twelve at one moment', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listAudit(db, session(owner), SHANGHAI, { cursor, limit: 5 });
      seen.push(...page.entries.map((e) => e.id));
      for (let i = 1; i < page.entries.length; i++) expect(page.entries[i - 1]!.at >= page.entries[i]!.at).toBe(true);
      cursor = page.next ?? undefined;
      pages++;
    } while (cursor && pages < 20);
    const all = await db.select({ id: operatorAudit.id }).from(operatorAudit);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual(all.map((r) => String(r.id)).sort());
  });

  it('filters by operator, channel, kind and calendar days in the console time zone', async () => {
    const ids = async (filter: Parameters<typeof listAudit>[2]) => (await listAudit(db, session(owner), filter, { limit: 200 })).entries;
    expect((await ids({ ...SHANGHAI, channel: 'LUMEN' })).map((e) => e.kind)).toEqual(['channel/pause']);
    expect(await ids({ ...SHANGHAI, kind: 'channel/settings' })).toHaveLength(12);
    expect(await ids({ ...SHANGHAI, operator: 'nobody' })).toHaveLength(0);
    expect((await ids({ ...SHANGHAI, operator: 'trail.owner', kind: 'channel/settings' })).every((e) => e.channel === 'AURORA')).toBe(true);
    // 17:30 UTC on the 25th is 01:30 on the 26th in Shanghai, 12:30 on the 25th in New York.
    expect((await ids({ ...SHANGHAI, channel: 'LUMEN', from: '2026-11-26', to: '2026-11-26' })).length).toBe(1);
    expect((await ids({ ...SHANGHAI, channel: 'LUMEN', to: '2026-11-25' })).length).toBe(0);
    expect((await ids({ timeZone: 'America/New_York', channel: 'LUMEN', from: '2026-11-25', to: '2026-11-25' })).length).toBe(1);
    expect((await ids({ timeZone: 'America/New_York', channel: 'LUMEN', from: '2026-11-26' })).length).toBe(0);
  });

  it('takes every kind the trail holds as a filter, the operator API’s too, and nothing else', () => {
    for (const kind of ['operator/invite', 'PATCH /api/operator/channels/:key/skin', 'PATCH /api/operator/channels/:key/settings']) {
      expect(auditFilterInput.safeParse({ kind }).success).toBe(true);
    }
    for (const kind of ['x; drop table', 'a  b', 'PATCH /a /b', '<script>']) {
      expect(auditFilterInput.safeParse({ kind }).success).toBe(false);
    }
  });

  it('shows an API key only the entries of its own channels, not all its operator may read (red team)', async () => {
    const keyOfAurora = (op: TestOperator): OperatorSession => ({ ...session(op), apiKey: { id: 1, channels: ['AURORA'] } });
    for (const op of [owner, manager]) {
      const entries = (await listAudit(db, keyOfAurora(op), SHANGHAI, { limit: 200 })).entries;
      expect(entries.some((e) => e.channel === 'AURORA')).toBe(true);
      expect(entries.filter((e) => e.channel !== 'AURORA' && e.kind !== 'session/signIn')).toEqual([]);
    }
    const [lumenEntry] = await db.select({ id: operatorAudit.id }).from(operatorAudit).where(eq(operatorAudit.channelId, lumen));
    expect(await readAuditEntry(db, keyOfAurora(owner), lumenEntry!.id)).toBeNull();
    expect(await readAuditEntry(db, { ...session(owner), apiKey: { id: 1, channels: null } }, lumenEntry!.id)).not.toBeNull();
  });

  it('shows a manager only the entries of the channels granted and their own sign-ins', async () => {
    const entries = (await listAudit(db, session(manager), SHANGHAI, { limit: 200 })).entries;
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      const own = e.operator === manager.name && e.kind === 'session/signIn';
      expect({ kind: e.kind, channel: e.channel, own }).toEqual(own ? expect.anything() : { kind: e.kind, channel: 'AURORA', own });
    }
    expect(entries.some((e) => e.kind === 'session/signIn' && e.operator === manager.name)).toBe(true);
    expect(entries.some((e) => e.operator === owner.name && e.kind === 'session/signIn')).toBe(false);
    await expect(listAudit(db, session(manager), { ...SHANGHAI, channel: 'LUMEN' })).rejects.toMatchObject({ code: 404 });
    await expect(listAudit(db, session(manager), { ...SHANGHAI, channel: 'NOSUCH' })).rejects.toBeInstanceOf(AppError);
    const [lumenEntry] = await db.select({ id: operatorAudit.id }).from(operatorAudit).where(eq(operatorAudit.channelId, lumen));
    expect(await readAuditEntry(db, session(manager), lumenEntry!.id)).toBeNull();
    expect(await readAuditEntry(db, session(owner), lumenEntry!.id)).toMatchObject({ channel: 'LUMEN', changed: ['name', 'status'] });
  });

  it('keeps no secret of an input, and marks the fields that changed', async () => {
    const [entry] = (await listAudit(db, session(owner), { ...SHANGHAI, kind: 'channel/settings' }, { limit: 1 })).entries;
    expect(entry!.input).toEqual({ channel: 'AURORA', title: 'title 11', password: '[redacted]' });
    expect(entry!.changed).toEqual(['title']);
    expect(changedFields(null, { a: 1 })).toEqual(['a']);
    expect(changedFields({ a: [1, 2] }, { a: [1, 2] })).toEqual([]);
  });
});

describe('the CSV export', () => {
  const collect = async (gen: AsyncGenerator<string>) => {
    let text = '';
    for await (const chunk of gen) text += chunk;
    return text;
  };

  it('neutralises every cell a spreadsheet would run as a formula', () => {
    for (const bad of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(bad)).toBe(`"'${bad}"`);
    expect(csvCell('say "hi", 你好')).toBe('"say ""hi"", 你好"');
  });

  it('starts with a byte-order mark, keeps Chinese text, and stops at its bound saying so', async () => {
    const text = await collect(auditCsv(db, session(owner), SHANGHAI, 5));
    expect(text.startsWith('\uFEFF"id"')).toBe(true);
    const lines = text.trim().split('\r\n');
    expect(lines).toHaveLength(1 + 5 + 1);
    expect(lines.at(-1)).toContain('stopped at 5 rows');
    const lumenOnly = await collect(auditCsv(db, session(owner), { ...SHANGHAI, channel: 'LUMEN' }));
    expect(lumenOnly).toContain('藏品店');
    expect(lumenOnly).toContain('2026-11-26 01:30:00 +08:00');
    // The formula in the before cell is inside a JSON text starting with `{`, so it cannot run; a cell starting with
    // one is neutralised (above).
    expect(lumenOnly.trim().split('\r\n')).toHaveLength(2);
  });

  describe('GET /audit/export', () => {
    const get = (query: string, headers: Record<string, string>, host = OPS_HOST) =>
      exportAuditResponse(new Request(`http://${host}/audit/export${query}`, { headers: { host, ...headers } }), { db, now: NOW });

    it('answers an owner the filtered rows as a CSV download', async () => {
      const answer = await get('?channel=LUMEN', { cookie: owner.cookie });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-2026-11-26\.csv"$/);
      const body = new TextDecoder().decode(await answer.arrayBuffer());
      expect(body).toContain('channel/pause');
      expect(body).not.toContain('channel/settings');
    });

    it('refuses whoever may not read it, and names a bad field', async () => {
      expect((await get('', {})).status).toBe(401);
      expect((await get('', { cookie: 'next-auth.session-token=x' })).status).toBe(401);
      expect((await get('', { cookie: owner.cookie }, 'aurora.localhost:3000')).status).toBe(404);
      expect((await get('', { cookie: owner.cookie, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
      const lumen = await get('?channel=LUMEN', { cookie: manager.cookie });
      expect(lumen.status).toBe(404);
      expect(await lumen.text()).not.toContain('LUMEN');
      const bad = await get('?from=2026-02-30', { cookie: owner.cookie });
      expect({ status: bad.status, text: await bad.text() }).toEqual({ status: 400, text: expect.stringMatching(/^from: /) });
      const backwards = await get('?from=2026-11-26&to=2026-11-01', { cookie: owner.cookie });
      expect({ status: backwards.status, text: await backwards.text() }).toEqual({ status: 400, text: expect.stringMatching(/^to: /) });
      const managerAll = new TextDecoder().decode(await (await get('', { cookie: manager.cookie })).arrayBuffer());
      expect(managerAll).not.toContain('LUMEN');
      expect(managerAll).toContain('channel/settings');
    });
  });
});

/** The database's words when it refuses a statement (drizzle wraps them in its own error's cause); '' if it ran. */
async function refusal(statement: PromiseLike<unknown>): Promise<string> {
  try {
    await statement;
    return '';
  } catch (error) {
    const e = error as Error & { cause?: Error };
    return `${e.message} ${e.cause?.message ?? ''}`;
  }
}

describe('append-only in the database (issue 31)', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of the trail', async () => {
    for (const statement of [
      sql`update operator_audit set operator_name = 'someone else'`,
      sql`delete from operator_audit`,
      sql`truncate operator_audit`,
    ]) {
      expect(await refusal(db.execute(statement))).toMatch(/append-only/);
    }
    expect(await refusal(db.update(operatorAudit).set({ ip: '0.0.0.0' }))).toMatch(/append-only/);
    expect((await db.select({ ip: operatorAudit.ip }).from(operatorAudit).where(eq(operatorAudit.ip, '0.0.0.0'))).length).toBe(0);
  });

  it('lets the retention sweep delete what is past the keeping time, in batches, and nothing younger', async () => {
    const old = new Date(NOW.getTime() - 400 * 24 * 3600_000);
    for (let i = 0; i < 5; i++) {
      await recordAudit(db, {
        at: old,
        operatorId: null,
        operatorName: 'ops:owner',
        ip: 'command line',
        procedure: 'old/write',
        input: { i },
      });
    }
    const before = (await db.select({ id: operatorAudit.id }).from(operatorAudit)).length;
    expect(await sweepAuditTrail(db, NOW, 365, 2)).toBe(5);
    const after = await db.select({ procedure: operatorAudit.procedure }).from(operatorAudit);
    expect(after.length).toBe(before - 5);
    expect(after.some((r) => r.procedure === 'old/write')).toBe(false);
    // The permission ended with the sweep's transactions.
    expect(await refusal(db.execute(sql`delete from operator_audit`))).toMatch(/append-only/);
    expect(await sweepAuditTrail(db, NOW, 365, 2)).toBe(0);
  });
});

describe('what the trail blanks (issue 32: a list of secret fields, not every name containing "code")', () => {
  const at = new Date('2026-11-26T07:30:00Z');
  /** Records one entry of `procedure` and reads it back as an owner reads it on the audit page. */
  async function kept(procedure: string, input: unknown, after: unknown = null) {
    await recordAudit(db, {
      at,
      operatorId: owner.operatorId,
      operatorName: owner.name,
      ip: '198.51.100.7',
      channelId: aurora,
      procedure,
      input,
      after,
    });
    const [row] = await db
      .select({ id: operatorAudit.id })
      .from(operatorAudit)
      .where(eq(operatorAudit.procedure, procedure.replace(/^\/ops\/api\//, '')))
      .orderBy(sql`${operatorAudit.id} desc`)
      .limit(1);
    return (await readAuditEntry(db, session(owner), row!.id))!;
  }

  it("shows a sale's, a collectible's and a campaign's code, which buyers see on the store anyway", async () => {
    const sale = await kept(
      '/ops/api/sale/update',
      { channel: 'AURORA', saleId: 7, price: 19900 },
      { id: 7, code: 'AUR-S-007', price: 19900 },
    );
    expect(sale.after).toEqual({ id: 7, code: 'AUR-S-007', price: 19900 });
    const collectible = await kept('/ops/api/catalogue/create', { channel: 'AURORA', code: 'AUR-C-001', name: 'Nebula' });
    expect(collectible.input).toEqual({ channel: 'AURORA', code: 'AUR-C-001', name: 'Nebula' });
    const campaign = await kept('/ops/api/campaign/gift/create', { channel: 'AURORA', code: 'WELCOME26', name: 'Welcome' });
    expect(campaign.input).toMatchObject({ code: 'WELCOME26' });
  });

  it('still blanks every secret the console writes: second factors, passwords, tokens, keys, plain codes', async () => {
    // The second factor's `code` on the calls that take one (sign-in, confirming a sensitive write, enrolment).
    for (const procedure of ['/ops/api/session/signIn', 'session/confirm', 'enrol/complete']) {
      const entry = await kept(procedure, { name: 'someone', token: 'enrol-token', password: 'hunter2 hunter2', code: '123456' });
      expect(entry.input).toEqual({ name: 'someone', token: '[redacted]', password: '[redacted]', code: '[redacted]' });
    }
    // Plain redeem and chain-up codes an import carries, at any depth, and a batch's sealing key.
    const imported = await kept('/ops/api/campaign/batch/import', {
      channel: 'AURORA',
      offerId: 3,
      codes: ['0ABCDEFGHJKMNPQRSTVWXYZ012', '1ABCDEFGHJKMNPQRSTVWXYZ012'],
      nested: [{ plainCodes: ['X'], sealKey: 'k'.repeat(32) }],
    });
    expect(imported.input).toEqual({
      channel: 'AURORA',
      offerId: 3,
      codes: '[redacted]',
      nested: [{ plainCodes: '[redacted]', sealKey: '[redacted]' }],
    });
    // Every name on the list, whatever its case.
    const every = Object.fromEntries([...SECRET_FIELDS].map((name) => [name.toUpperCase(), `value of ${name}`]));
    const entry = await kept('channel/settings', every, every);
    for (const value of [entry.input, entry.after]) {
      expect(Object.values(value as Record<string, unknown>).every((v) => v === '[redacted]')).toBe(true);
    }
    for (const name of ['password', 'totpSecret', 'recoveryCodes', 'token', 'apiKey', 'codes', 'smsCode', 'webhookSecret', 'secret']) {
      expect(SECRET_FIELDS.has(name.toLowerCase())).toBe(true);
    }
  });
});
