import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi, type TestBuyer } from '@/test/api';
import { sales } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import { createOrder } from '@/lib/order/service';
import { gateBuyCall } from '@/lib/order/buy-gate';
import { readSale, readSales } from '@/lib/page/cached-reads';
import {
  addCopies,
  archiveSale,
  createSale,
  deleteSale,
  editSale,
  findAdminSale,
  listAdminSales,
  setSalePaused,
  type SaleInput,
} from './admin';
import { createCollectible, type CatalogueAudit, type CollectibleInput } from './catalogue';
import { QUEUE_DEFAULTS, setUpQueue } from './queue';
import { setUpLottery } from './lottery';

// Issue 32, "Sales": the rules that keep buyers safe, each refusal naming its field and changing nothing; pause and
// resume as a buyer meets them; added copies as the store shows them.

const HOUR = 3_600_000;

let api: TestApi;
let buyer: TestBuyer;
let aurora: number;
let collectibleId: number;
let audited: unknown[];
const audit: CatalogueAudit = async (_tx, change) => {
  audited.push(change);
};

const collectible = (code: string): CollectibleInput => ({
  code,
  name: `Test ${code}`,
  description: 'A test collectible.',
  authorName: 'Ada',
  authorCover: '/brands/default/user-face.svg',
  publisherName: 'Aurora',
  seriesName: null,
  cover: '/brands/default/user-face.svg',
  gallery: [],
  amountSku: 100,
  chainName: 'Ledger',
  chainContract: 'TEST',
  contractAddress: '0x0',
  isBlindBox: false,
});

let codes = 0;
const saleInput = (over: Partial<SaleInput> = {}): SaleInput => ({
  code: `TEST-SALE-${++codes}`,
  collectibleId,
  price: 990,
  copies: 10,
  limitPerUser: 2,
  saleStartTime: new Date(api.now.getTime() - HOUR),
  saleEndTime: null,
  listed: true,
  sort: 50,
  ...over,
});

/** A sale open now, made through the service (its opening in the past confirmed). */
const openSale = (over: Partial<SaleInput> = {}) => createSale(api.db, aurora, { ...saleInput(over), confirmPast: true }, api.now, audit);

/**
 * A buy of `quantity` copies by the test buyer, through the order service (as `order/create` makes it; the dispatcher's
 * load shedding stays out of a busy test machine's way): `{code, message}` as the buyer would read them.
 */
async function buy(saleId: number, key: string, language: 'en' | 'zh-CN' = 'en', quantity = 1): Promise<{ code: number; message: string }> {
  try {
    const scope = { db: api.db, now: api.now, channelId: aurora, userId: buyer.userId };
    await createOrder(scope, { saleId, quantity, idempotencyKey: key.padEnd(16, '0') }, 900_000);
    return { code: 200, message: 'ok' };
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.messageIn(language) };
    throw error;
  }
}

const row = async (id: number) => (await api.db.select().from(sales).where(eq(sales.id, id)))[0]!;

/** Expects `write` refused with a 400 naming `field`, and the sale's row and the audit hook untouched. */
async function refusedUnchanged(saleId: number, field: string, write: () => Promise<unknown>) {
  const before = await row(saleId);
  audited = [];
  await expect(write()).rejects.toMatchObject({ code: 400, data: { field } });
  expect(await row(saleId)).toEqual(before);
  expect(audited).toEqual([]);
}

beforeAll(async () => {
  api = await createTestApi();
  buyer = await api.buyer('13912343201');
  aurora = await api.channelId('AURORA');
  audited = [];
  collectibleId = (await createCollectible(api.db, aurora, collectible('TEST-ADMIN'), audit)).id;
});
afterAll(() => api.close());
beforeEach(() => {
  audited = [];
});

describe('creating a sale', () => {
  it('makes a sale the store sells, with its audit entry', async () => {
    const sale = await openSale();
    expect(sale).toMatchObject({ price: 990, copies: 10, copiesLeft: 10, state: 'live', hasOrders: false });
    expect(audited).toHaveLength(1);
    const answer = await buy(sale.id, 'create-buys');
    expect(answer.code).toBe(200);
  });

  it('asks for confirmation of an opening time in the past, and makes nothing without it', async () => {
    const before = (await listAdminSales(api.db, aurora, api.now)).length;
    await expect(createSale(api.db, aurora, saleInput(), api.now, audit)).rejects.toMatchObject({
      code: 400,
      data: { field: 'saleStartTime' },
    });
    expect((await listAdminSales(api.db, aurora, api.now)).length).toBe(before);
    expect(audited).toEqual([]);
  });

  it('refuses closing before opening, naming saleEndTime', async () => {
    const start = new Date(api.now.getTime() + HOUR);
    await expect(
      createSale(api.db, aurora, saleInput({ saleStartTime: start, saleEndTime: new Date(start.getTime() - 1) }), api.now, audit),
    ).rejects.toMatchObject({ code: 400, data: { field: 'saleEndTime' } });
  });
});

describe('editing a sale', () => {
  it('changes price, limit and opening freely before the first order', async () => {
    const sale = await openSale();
    const start = new Date(api.now.getTime() + HOUR);
    const edited = await editSale(
      api.db,
      aurora,
      sale.id,
      { ...saleInput(), price: 1990, limitPerUser: 3, saleStartTime: start },
      api.now,
      audit,
    );
    expect(edited).toMatchObject({ price: 1990, limitPerUser: 3, saleStartTime: start, state: 'coming' });
  });

  it.each([
    ['price', { price: 1 }],
    ['limitPerUser', { limitPerUser: 5 }],
    ['saleStartTime', { saleStartTime: new Date('2026-01-01T00:00:00Z') }],
  ] as const)('refuses a change of %s once the first order exists, saying why, and changes nothing', async (field, change) => {
    const sale = await openSale();
    expect((await buy(sale.id, `frozen-${field}`)).code).toBe(200);
    const same = { ...saleInput({ saleStartTime: sale.saleStartTime }), confirmPast: true };
    await refusedUnchanged(sale.id, field, () => editSale(api.db, aurora, sale.id, { ...same, ...change }, api.now, audit));
    const error = await editSale(api.db, aurora, sale.id, { ...same, ...change }, api.now, audit).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/already has orders/);
    // The same terms sent back (a form posts every field) are no change: copies and listing still edit.
    const edited = await editSale(api.db, aurora, sale.id, { ...same, copies: 12, listed: false }, api.now, audit);
    expect(edited).toMatchObject({ copies: 12, copiesLeft: 11, listed: false });
  });

  it('refuses copies below what is sold or held in unpaid orders, naming copies', async () => {
    const sale = await openSale({ copies: 5 });
    expect((await buy(sale.id, 'copies-a', 'en', 2)).code).toBe(200);
    const same = { ...saleInput({ saleStartTime: sale.saleStartTime }), confirmPast: true };
    await refusedUnchanged(sale.id, 'copies', () => editSale(api.db, aurora, sale.id, { ...same, copies: 1 }, api.now, audit));
    const edited = await editSale(api.db, aurora, sale.id, { ...same, copies: 2 }, api.now, audit);
    expect(edited).toMatchObject({ copies: 2, copiesLeft: 0, copiesTaken: 2, state: 'soldOut' });
  });

  it('refuses closing before opening on an edit, naming saleEndTime', async () => {
    const sale = await openSale();
    const input = { ...saleInput({ saleStartTime: sale.saleStartTime, saleEndTime: new Date(sale.saleStartTime.getTime() - HOUR) }) };
    await refusedUnchanged(sale.id, 'saleEndTime', () => editSale(api.db, aurora, sale.id, input, api.now, audit));
  });

  it('asks for confirmation of a changed opening time in the past', async () => {
    const sale = await createSale(api.db, aurora, saleInput({ saleStartTime: new Date(api.now.getTime() + HOUR) }), api.now, audit);
    const past = saleInput({ saleStartTime: new Date(api.now.getTime() - 60_000) });
    await refusedUnchanged(sale.id, 'saleStartTime', () => editSale(api.db, aurora, sale.id, past, api.now, audit));
    expect((await editSale(api.db, aurora, sale.id, { ...past, confirmPast: true }, api.now, audit)).state).toBe('live');
  });

  // issue 35: buyers register for a lottery or join a waiting room on the sale's times, so they stop moving then.
  it.each([
    ['queue', /waiting room opened at/, /排队已于/],
    ['lottery', /registration opened at/, /抽签登记已于/],
  ] as const)(
    "keeps a %s sale's opening and close once buyers may register or join, and moves them before",
    async (mode, english, chinese) => {
      const opening = new Date(api.now.getTime() + 2 * HOUR);
      const sale = await createSale(api.db, aurora, saleInput({ saleStartTime: opening }), api.now, audit);
      if (mode === 'queue') {
        await setUpQueue(api.db, aurora, sale.id, { joinMinutes: 60, ...QUEUE_DEFAULTS }, api.now, audit);
      } else {
        const settings = {
          registrationOpensAt: new Date(api.now.getTime() + HOUR),
          registrationClosesAt: new Date(api.now.getTime() + 90 * 60_000),
          drawAt: new Date(api.now.getTime() + 90 * 60_000),
          purchaseWindowMinutes: 30,
          publicValueSource: 'the closing value of a named index',
        };
        await setUpLottery(api.db, aurora, sale.id, settings, api.now, audit);
      }
      const same = saleInput({ saleStartTime: opening });
      // Before joining or registration opens (an hour ahead), the opening still moves.
      const later = new Date(opening.getTime() + 60_000);
      expect((await editSale(api.db, aurora, sale.id, { ...same, saleStartTime: later }, api.now, audit)).saleStartTime).toEqual(later);
      const afterOpened = new Date(api.now.getTime() + HOUR + 60_000);
      const moved = { ...same, saleStartTime: new Date(later.getTime() + HOUR) };
      const closed = { ...same, saleStartTime: later, saleEndTime: new Date(later.getTime() + 5 * HOUR) };
      for (const [field, input] of [
        ['saleStartTime', moved],
        ['saleEndTime', closed],
      ] as const) {
        const before = await row(sale.id);
        const error = await editSale(api.db, aurora, sale.id, input, afterOpened, audit).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: 409, data: { field } });
        expect((error as AppError).messageIn('en')).toMatch(english);
        expect((error as AppError).messageIn('zh-CN')).toMatch(chinese);
        expect(await row(sale.id)).toEqual(before);
      }
      // The same times sent back with another change are no change of times.
      const edited = await editSale(api.db, aurora, sale.id, { ...same, saleStartTime: later, listed: false }, afterOpened, audit);
      expect(edited.listed).toBe(false);
    },
  );

  it("does not find another channel's sale", async () => {
    const sale = await openSale();
    const lumen = await api.channelId('LUMEN');
    await expect(setSalePaused(api.db, lumen, sale.id, true, api.now, audit)).rejects.toMatchObject({ code: 404 });
    expect((await row(sale.id)).pausedAt).toBeNull();
  });
});

describe('pausing a sale', () => {
  it.each([
    ['en', /paused/],
    ['zh-CN', /暂停购买/],
  ] as const)('refuses new orders while paused, in the buyer’s language (%s), and sells again once resumed', async (language, words) => {
    const sale = await openSale();
    await readSale({ db: api.db, now: api.now, channelId: aurora }, String(sale.id)); // the store has it cached
    expect((await setSalePaused(api.db, aurora, sale.id, true, api.now, audit)).state).toBe('paused');
    const refused = await buy(sale.id, `paused-${language}`, language);
    expect(refused.code).toBe(409);
    expect(refused.message).toMatch(words);
    expect((await row(sale.id)).amountAvailable).toBe(10);
    // The buy lane's gate answers it at the door, as the buy would (lib/order/buy-gate.ts).
    const body = JSON.stringify({ saleId: String(sale.id), quantity: 1, idempotencyKey: 'gate-paused-0001' });
    const headers = { host: 'aurora.localhost:3000', authorization: buyer.token, 'accept-language': language };
    const gate = await gateBuyCall({ headers, body }, { db: api.db, now: api.now });
    expect(JSON.parse(gate!.body)).toMatchObject({ code: 409, message: expect.stringMatching(words) });
    expect((await readSale({ db: api.db, now: api.now, channelId: aurora }, String(sale.id)))?.paused).toBe(true);
    expect((await setSalePaused(api.db, aurora, sale.id, false, api.now, audit)).state).toBe('live');
    expect((await buy(sale.id, `resumed-${language}`, language)).code).toBe(200);
    expect(audited).toHaveLength(3);
  });
});

describe('adding copies', () => {
  it('shows the store the new count at once and records it', async () => {
    const sale = await openSale({ copies: 3 });
    const scope = { db: api.db, now: api.now, channelId: aurora };
    expect((await readSale(scope, String(sale.id)))?.amountAvailable).toBe(3);
    audited = [];
    const after = await addCopies(api.db, aurora, sale.id, 7, api.now, audit);
    expect(after).toMatchObject({ copies: 10, copiesLeft: 10 });
    expect((await readSale(scope, String(sale.id)))?.amountAvailable).toBe(10);
    expect(audited).toEqual([
      expect.objectContaining({ before: expect.objectContaining({ copies: 3 }), after: expect.objectContaining({ copies: 10 }) }),
    ]);
  });
});

describe('deleting and archiving', () => {
  it('deletes a sale without orders', async () => {
    const sale = await openSale();
    await deleteSale(api.db, aurora, sale.id, api.now, audit);
    expect(await findAdminSale(api.db, aurora, sale.id, api.now)).toBeNull();
  });

  it('refuses to delete a sale with orders, which is archived instead: off the home list, refusing new orders', async () => {
    const sale = await openSale();
    expect((await buy(sale.id, 'archive-a')).code).toBe(200);
    await refusedUnchanged(sale.id, 'sale', () => deleteSale(api.db, aurora, sale.id, api.now, audit));
    const scope = { db: api.db, now: api.now, channelId: aurora };
    const listed = async () => (await readSales(scope, { pageCount: 1, pageSize: 100 })).records.map((r) => r.id);
    expect(await listed()).toContain(String(sale.id));
    expect((await archiveSale(api.db, aurora, sale.id, api.now, audit)).state).toBe('archived');
    expect(await listed()).not.toContain(String(sale.id));
    expect((await buy(sale.id, 'archive-b')).code).toBe(409);
    expect(await row(sale.id)).toBeDefined();
  });

  it('leaves a hidden sale off the home list while its page still opens', async () => {
    const sale = await openSale({ listed: false });
    const scope = { db: api.db, now: api.now, channelId: aurora };
    const page = await readSales(scope, { pageCount: 1, pageSize: 100 });
    expect(page.records.map((r) => r.id)).not.toContain(String(sale.id));
    expect(await readSale(scope, String(sale.id))).not.toBeNull();
  });
});
