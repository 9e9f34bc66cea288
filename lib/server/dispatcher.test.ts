import { answerDrift, dispatch } from './dispatcher';
import { registry } from './registry';
import type { AnyProcedure } from '@/lib/procedure/procedure';
import { seededTestDb } from '@/test/db';

const now = new Date('2026-11-22T08:00:00Z');

const db = seededTestDb(now);

const call = (path: string, body: unknown, host = 'aurora.localhost:3000', method = 'POST') =>
  dispatch({ method, path, host, body: typeof body === 'string' ? body : JSON.stringify(body) }, { db, now });

describe('API dispatcher (DESIGN §5)', () => {
  it('answers channel/detail with the theme info of spec §3', async () => {
    const res = await call('/market/api/channel/detail', { key: 'LUMEN' });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    expect(res.body.data).toMatchObject({ key: 'LUMEN', labelList: '1', status: 1, showAmount: false });
    expect(JSON.parse((res.body.data as { skinJson: string }).skinJson)).toHaveProperty('color1', '#b45309');
  });

  it('pages the host channel sales and never mixes channels', async () => {
    const first = await call('/market/api/channel/querySaleRecord', { pageCount: 1, pageSize: 4 });
    const data = first.body.data as {
      records: { commodity: { name: string } }[];
      total: number;
      pages: number;
      current: number;
      size: number;
    };
    expect(data.total).toBe(9);
    expect(data.pages).toBe(3);
    expect(data.records.map((r) => r.commodity.name)).toEqual(['Aurora Dawn', 'Tide Whale', 'Neon Koi', 'Moon Rabbit']);
    const lumen = await call('/market/api/channel/querySaleRecord', {}, 'lumen.localhost');
    expect((lumen.body.data as { total: number }).total).toBe(3);
  });

  it('gives a sale of the host channel and 404 for another channel’s sale', async () => {
    const list = await call('/market/api/channel/querySaleRecord', { pageSize: 50 }, 'lumen.localhost');
    const lumenSaleId = (list.body.data as { records: { id: string }[] }).records[0]!.id;
    const own = await call('/market/api/saleRecord/detail/v2', { id: lumenSaleId }, 'lumen.localhost');
    expect(own.body.code).toBe(200);
    const peek = await call('/market/api/saleRecord/detail/v2', { id: lumenSaleId }, 'aurora.localhost');
    expect(peek.body).toEqual({ code: 404, message: 'This store has no such sale.', data: { field: 'id' } });
  });

  it.each([
    ['bad JSON', '/market/api/channel/detail', '{"key":', /body: is not valid JSON/],
    ['a missing key', '/market/api/channel/detail', {}, /^key: /],
    ['a field of the wrong type', '/market/api/channel/querySaleRecord', { pageSize: 'ten' }, /^pageSize: must be a number/],
    ['a page size over the cap', '/market/api/channel/querySaleRecord', { pageSize: 500 }, /^pageSize: must be 50 or less/],
    ['an absurd page number', '/market/api/channel/querySaleRecord', { pageCount: 200000 }, /^pageCount: must be 100000 or less/],
    ['a body that is not an object', '/market/api/channel/detail', '[1]', /body: must be a JSON object/],
    ['a non-numeric sale id', '/market/api/saleRecord/detail/v2', { id: 'abc' }, /^id: must be a positive whole-number id/],
  ])('answers %s with code 400 naming the field', async (_name, path, body, message) => {
    const res = await call(path, body);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('answers an unknown path and an unknown channel with 404', async () => {
    expect((await call('/market/api/nope', {})).body).toMatchObject({ code: 404, message: 'unknown API path /market/api/nope' });
    expect((await call('/market/api/channel/detail', { key: 'NOPE' })).body).toMatchObject({ code: 404 });
    expect((await call('/market/api/channel/querySaleRecord', {}, 'nope.localhost')).body).toMatchObject({ code: 404 });
  });

  it('refuses a method other than POST', async () => {
    expect((await call('/market/api/channel/detail', '', 'aurora.localhost', 'GET')).body).toMatchObject({ code: 400 });
  });
});

describe("the typed wire: answers are checked against each procedure's output schema outside production", () => {
  const proc = registry['/market/api/channel/detail'] as AnyProcedure;

  async function withHandler(handler: AnyProcedure['handler'], run: () => Promise<void>) {
    const original = proc.handler;
    proc.handler = handler;
    try {
      await run();
    } finally {
      proc.handler = original;
    }
  }

  it('answers HTTP 500 and logs it when a handler drifts from its schema (a field renamed)', async () => {
    const original = proc.handler;
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await withHandler(
        async (ctx, input) => {
          const { showAmount, ...rest } = (await original(ctx, input)) as Record<string, unknown>;
          return { ...rest, amountShown: showAmount };
        },
        async () => {
          const res = await call('/market/api/channel/detail', { key: 'LUMEN' });
          expect(res.status).toBe(500);
          expect(res.body).toEqual({ code: 500, message: 'Something went wrong on our side. Please try again later.', data: null });
        },
      );
      expect(errors).toHaveBeenCalledWith(expect.stringMatching(/channel\/detail answered outside its output schema: showAmount: /));
    } finally {
      errors.mockRestore();
    }
  });

  it("sends the handler's own data, neither stripped nor transformed", async () => {
    const original = proc.handler;
    await withHandler(
      async (ctx, input) => ({ ...((await original(ctx, input)) as Record<string, unknown>), extra: 'kept' }),
      async () => {
        const res = await call('/market/api/channel/detail', { key: 'LUMEN' });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ key: 'LUMEN', extra: 'kept' });
      },
    );
  });

  it('does not parse answers in production (the hot path)', () => {
    const envs = process.env as Record<string, string | undefined>;
    const before = envs.NODE_ENV;
    expect(answerDrift(proc, { key: 1 })).toMatch(/^key: /);
    envs.NODE_ENV = 'production';
    try {
      expect(answerDrift(proc, { key: 1 })).toBeNull();
    } finally {
      envs.NODE_ENV = before;
    }
  });
});
