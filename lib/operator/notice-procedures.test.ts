import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { notices, operatorAudit } from '@/lib/db/schema';
import { zonedMoment } from './notice-procedures';

// The Notices tab's calls (issue 32): an operator publishes, the store shows it at once (its cached list is dropped);
// a time in the channel's zone; who may write; bad input refused by field with nothing stored; every write audited.

let api: TestApi;
let owner: TestOperator;
let manager: TestOperator;
let support: TestOperator;

beforeAll(async () => {
  api = await createTestApi();
  const before = new Date(api.now.getTime() - 60_000);
  owner = await signedInOperator(api.db, { name: 'notices.owner', role: 'owner', now: before });
  manager = await signedInOperator(api.db, { name: 'aurora.notices', role: 'manager', channels: ['AURORA'], now: before });
  support = await signedInOperator(api.db, { name: 'aurora.support', role: 'support', channels: ['AURORA'], now: before });
}, 60_000);
afterAll(() => api.close());

const as = (op: TestOperator) => (path: string, body: unknown) =>
  api.callApi(path, body, { host: OPS_HOST, headers: { cookie: op.cookie } });
const store = (path: string, body: unknown, host = 'aurora.localhost:3000') => api.callApi(path, body, { host });
type Listed = { records: { id: string; title: string }[] };

it('publishes a notice the store lists at once, and withdraws it from the store at once', async () => {
  // The store's list is read (and cached) before the notice exists.
  const first = (await store('/market/api/notice/list', {})).data as Listed;
  expect(first.records.map((n) => n.title)).not.toContain('Drop tonight');

  const made = await as(manager)('/ops/api/notice/create', {
    channel: 'AURORA',
    type: 'drop',
    title: 'Drop tonight',
    body: 'Star Fox II at eight.\n\nTen copies.',
    publishNow: true,
  });
  expect(made).toMatchObject({ code: 200, data: { state: 'published', title: 'Drop tonight' } });
  const id = (made.data as { id: string }).id;

  const listed = (await store('/market/api/notice/list', {})).data as Listed;
  expect(listed.records[0]).toMatchObject({ id, title: 'Drop tonight' });
  expect((await store('/market/api/notice/detail', { id }, 'lumen.localhost:3000')).code).toBe(404);

  const gone = await as(owner)('/ops/api/notice/withdraw', { channel: 'AURORA', id });
  expect(gone).toMatchObject({ code: 200, data: { state: 'withdrawn' } });
  expect(((await store('/market/api/notice/list', {})).data as Listed).records.map((n) => n.id)).not.toContain(id);
  expect((await store('/market/api/notice/detail', { id })).code).toBe(404);

  const entries = await api.db
    .select()
    .from(operatorAudit)
    .where(eq(operatorAudit.channelId, await api.channelId('AURORA')));
  const kinds = entries.map((e) => e.procedure).filter((p) => p.startsWith('notice/'));
  expect(kinds).toEqual(['notice/create', 'notice/withdraw']);
});

it('takes a publish time in the channel’s time zone, and schedules it', async () => {
  const made = await as(owner)('/ops/api/notice/create', {
    channel: 'AURORA',
    type: 'airdrop',
    title: 'Airdrop at nine',
    body: 'For holders.',
    publishAt: '2026-11-22T21:00',
  });
  // AURORA is on Asia/Shanghai: 21:00 there is 13:00 UTC, after the API's clock (08:00 UTC).
  expect(made).toMatchObject({ code: 200, data: { state: 'scheduled', publishTime: '2026-11-22T13:00:00.000Z' } });
  const listed = (await store('/market/api/notice/list', {})).data as Listed;
  expect(listed.records.map((n) => n.title)).not.toContain('Airdrop at nine');
});

it('refuses bad input by field, with nothing stored', async () => {
  const count = async () => (await api.db.select().from(notices)).length;
  const before = await count();
  const cases: [Record<string, unknown>, string][] = [
    [{ type: 'drop', title: 'x', body: 'y' }, 'publishAt'],
    [{ type: 'drop', title: 'x', body: 'y', publishAt: '2026-11-31T20:00' }, 'publishAt'],
    [{ type: 'drop', title: 'x', body: 'y', publishAt: 'tomorrow' }, 'publishAt'],
    [{ type: 'news', title: 'x', body: 'y', publishNow: true }, 'type'],
    [{ type: 'drop', title: '  ', body: 'y', publishNow: true }, 'title'],
    [{ type: 'drop', title: 'x'.repeat(81), body: 'y', publishNow: true }, 'title'],
    [{ type: 'drop', title: 'x', body: 'y'.repeat(5001), publishNow: true }, 'body'],
  ];
  for (const [input, field] of cases) {
    const answer = await as(owner)('/ops/api/notice/create', { channel: 'AURORA', ...input });
    expect({ input, code: answer.code, field: answer.message.split(':')[0] }).toEqual({ input, code: 400, field });
  }
  expect(await count()).toBe(before);
});

it('lets support read but not write, and a manager only on their channels', async () => {
  expect((await as(support)('/ops/api/notice/list', { channel: 'AURORA' })).code).toBe(200);
  const draft = { type: 'drop', title: 'Nope', body: 'Nope.', publishNow: true };
  expect((await as(support)('/ops/api/notice/create', { channel: 'AURORA', ...draft })).code).toBe(403);
  expect((await as(manager)('/ops/api/notice/create', { channel: 'LUMEN', ...draft })).code).not.toBe(200);
  expect((await api.db.select().from(notices).where(eq(notices.title, 'Nope'))).length).toBe(0);
});

it('reads a wall-clock time in a zone as its UTC moment, and refuses one that does not exist', () => {
  expect(zonedMoment('2026-12-01T20:00', 'Asia/Shanghai')?.toISOString()).toBe('2026-12-01T12:00:00.000Z');
  expect(zonedMoment('2026-07-01T20:00', 'Europe/Berlin')?.toISOString()).toBe('2026-07-01T18:00:00.000Z');
  expect(zonedMoment('2026-02-30T20:00', 'Asia/Shanghai')).toBeNull();
});
