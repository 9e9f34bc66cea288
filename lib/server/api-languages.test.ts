import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { createTestApi, type TestApi } from '@/test/api';
import { channels, sales } from '@/lib/db/schema';
import { API_MESSAGE_KEYS, describeInput, inputError, msg, renderMessage, type ApiMessage } from '@/lib/procedure/messages';
import { apiLocale } from '@/lib/i18n/locale';
import { CATALOGUES } from '@/lib/i18n/translator';
import { registry } from '@/lib/server/registry';
import { invalidate, tags } from '@/lib/cache/store';

// The API's refusals follow the caller's locale (issue 17, item 4; docs/api.md, "Languages"): the Accept-Language a
// store page sends with its own locale, else the channel's locale, else English. Their words live in the store's
// catalogues (namespace `api`, ICU) and read as sentences in every language; the field travels in `data.field` (issue 30).

process.env.BUY_MAX_LAG_MS = '60000';

let api: TestApi;
let token: string;
beforeAll(async () => {
  api = await createTestApi();
  token = (await api.buyer('13612340077', 'AURORA')).token;
});
afterAll(() => api.close());

const saleOf = async (channelKey: string, code: string) => {
  const [row] = await api.db
    .select({ id: sales.id, saleStartTime: sales.saleStartTime })
    .from(sales)
    .where(and(eq(sales.code, code), eq(sales.channelId, await api.channelId(channelKey))));
  return { id: String(row!.id), saleStartTime: row!.saleStartTime };
};

/** A moment as the English texts write it, in a time zone. */
const moment = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en', {
    timeZone,
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);

describe('the answer language', () => {
  it('is the locale Accept-Language asks for, else the channel locale, else English', () => {
    expect(apiLocale('zh-CN', null)).toBe('zh-CN');
    expect(apiLocale('zh-TW,zh;q=0.9', 'en')).toBe('zh-CN');
    expect(apiLocale('en-GB', 'zh-CN')).toBe('en');
    expect(apiLocale('fr-FR', 'zh-CN')).toBe('zh-CN');
    expect(apiLocale(null, 'zh-CN')).toBe('zh-CN');
    expect(apiLocale('fr-FR, de;q=0.5', null)).toBe('en');
    expect(apiLocale('', 'xx')).toBe('en');
  });

  it('refuses in Chinese when the page is Chinese, and in English sentences when it is English, the field in data', async () => {
    const body = { saleId: (await saleOf('AURORA', 'aurora-dawn')).id, quantity: 99, idempotencyKey: 'lang-over-limit-1' };
    const zh = await api.callApi('/market/api/order/create', body, { token, headers: { 'accept-language': 'zh-CN' } });
    expect(zh.body).toEqual({ code: 400, message: '每人限购 5 份', data: { field: 'quantity' } });
    const en = await api.callApi('/market/api/order/create', body, { token, headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(en.body).toEqual({ code: 400, message: 'You can buy at most 5 copies of this sale.', data: { field: 'quantity' } });
  });

  let tap = 0;
  it('writes when a sale opens as a buyer reads it, in the channel’s time zone', async () => {
    const rabbit = await saleOf('AURORA', 'moon-rabbit');
    const call = () =>
      api.callApi(
        '/market/api/order/create',
        { saleId: rabbit.id, quantity: 1, idempotencyKey: `lang-not-open-${++tap}` },
        { token, headers: { 'accept-language': 'en' } },
      );
    const shanghai = await call();
    expect(shanghai.body).toEqual({
      code: 409,
      message: `This sale opens on ${moment(rabbit.saleStartTime, 'Asia/Shanghai')}.`,
      data: { reason: 'notOpen', saleStartTime: rabbit.saleStartTime.toISOString() },
    });
    // The operator moves the store to London: the same refusal now says London's time.
    await api.db.update(channels).set({ timeZone: 'Europe/London' }).where(eq(channels.key, 'AURORA'));
    invalidate(api.db, [tags.channel('AURORA')]);
    try {
      expect((await call()).message).toBe(`This sale opens on ${moment(rabbit.saleStartTime, 'Europe/London')}.`);
    } finally {
      await api.db.update(channels).set({ timeZone: 'Asia/Shanghai' }).where(eq(channels.key, 'AURORA'));
      invalidate(api.db, [tags.channel('AURORA')]);
    }
  });

  it("speaks the channel's locale to a caller who names none", async () => {
    const bazaarToken = (await api.buyer('13612340078', 'BAZAAR')).token;
    const answer = await api.callApi(
      '/market/api/order/detail',
      { orderNo: '1'.repeat(22) },
      { host: 'bazaar.localhost:3000', token: bazaarToken },
    );
    expect(answer.code).toBe(404);
    expect(answer.message).toBe('找不到您的这笔订单');
  });

  it('names the field of a bad input in Chinese words', async () => {
    const answer = await api.callApi('/auth/api/auth/getAuthCode', { phone: 'abc' }, { headers: { 'accept-language': 'zh-CN' } });
    expect(answer.code).toBe(400);
    expect(answer.message).toMatch(/^手机号：/);
    expect(answer.message).not.toMatch(/[A-Za-z]/);
  });

  it('tells a field of the wrong type from a missing one, and keeps "field: why" in English', async () => {
    const call = (phone: unknown, locale: string) =>
      api.callApi('/auth/api/auth/getAuthCode', { phone }, { headers: { 'accept-language': locale } });
    expect((await call(13800138000, 'zh-CN')).body).toEqual({ code: 400, message: '手机号：类型不正确', data: null });
    expect((await call(undefined, 'zh-CN')).message).toBe('手机号：不能为空');
    expect((await call(13800138000, 'en')).message).toBe('phone: is required and must be a string of digits');
  });

  it('names the code a chain-up form asks for, not a redeem code, when one is wrong', async () => {
    const body = { code: 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GG', storeCode: 'BJ001' };
    const zh = await api.callApi('/market/api/channel/queryCodeRecord', body, { token, headers: { 'accept-language': 'zh-CN' } });
    expect(zh.body).toEqual({ code: 409, message: '商品或证书编码无效，或已被使用', data: { field: 'code', reason: 'badCode' } });
    const en = await api.callApi('/market/api/channel/queryCodeRecord', body, { token, headers: { 'accept-language': 'en' } });
    expect(en.message).toBe('This product or certificate code is not valid here, or has been used.');
  });

  it('asks a logged-out caller to log in, in their language', async () => {
    const answer = await api.callApi('/market/api/order/list', {}, { headers: { 'accept-language': 'zh-CN' } });
    expect(answer).toMatchObject({ code: 401, message: '未登录或登录已过期，请重新登录' });
  });
});

describe('the message catalogue', () => {
  // Every key with values of every kind; names a buyer sees (a collectible, a brand) are Chinese as on a zh-CN store.
  const values = {
    waitMs: 90_000,
    // Issue 32's catalogue and sales refusals.
    field: 'price',
    taken: 3,
    minted: 4,
    percent: '99.99%',
    key: 'BAZAAR',
    host: '集市.中国',
    tries: 5,
    left: 2,
    brand: '集市',
    at: new Date('2026-12-01T12:00:00Z'),
    limit: 3,
    id: '7',
    state: 'paid',
    why: 'notOffered',
    kind: 'chain',
    name: '夜市狐狸',
    quantity: 2,
    got: 1,
    have: 1,
    is: 1,
    asked: 2,
    client: 'browser',
    names: 'sandbox',
    offered: 'sandbox',
    here: 'sandbox',
    provider: 'alipay',
    code: 'ACQ.TRADE_HAS_CLOSE',
    detail: 'closed',
    max: 10,
    width: 20_000,
    height: 300,
    minWidth: 750,
    minHeight: 360,
    purpose: 'banner',
    fit: 'cover',
    // Refunds (issue 32): an order, a copy, an edition number and amounts as written in yuan.
    orderNo: '2026120208000012345678',
    holdingId: '9',
    number: 12,
    amount: '¥99.00',
    paid: '¥198.00',
    refunded: '¥0.00',
    // Campaigns and codes (issue 32).
    line: 2,
    hours: 24,
    // Real-name verification (issue 33): the ID number's problem.
    problem: 'checkDigit',
    // The real-name gate (issue 33): the action a channel guards.
    action: 'buy',
    blindBox: 'yes',
    minAge: 14,
    // Risk at order time (issue 33): unpaid orders and the end of the pause.
    count: 3,
    until: new Date('2026-11-23T11:10:00Z'),
    // A lottery's buy (issue 35): a waitlisted buyer's place.
    position: 2,
    // A sale's times frozen by its allocation (issue 35): a waiting room's.
    mode: 'queue',
    // issue 36: gifting, a gift already answered.
    status: 'expired',
    // issue 36: profile, a nickname's bounds and a refused word.
    min: 2,
    word: '客服',
  };
  /** The values an English text takes (its ICU arguments), from the text itself. */
  const argumentsOf = (text: string) => new Set([...text.matchAll(/\{(\w+)\s*[,}]/g)].map((m) => m[1]!));
  const enText = (key: string) => CATALOGUES.en.api[key as keyof typeof CATALOGUES.en.api] as string;
  const only = (names: Set<string>) => Object.fromEntries(Object.entries(values).filter(([name]) => names.has(name)));
  const message = (key: string) => ({ key, params: only(argumentsOf(enText(key))) }) as unknown as ApiMessage;

  let errors: jest.SpyInstance;
  beforeEach(() => {
    errors = jest.spyOn(console, 'error');
  });
  afterEach(() => {
    // A text that uses a value its English text does not take, or does not parse, is reported here.
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it('has Chinese words for every refusal, with no English left in them, from the values the English text takes', () => {
    expect(API_MESSAGE_KEYS.length).toBeGreaterThan(70);
    for (const key of API_MESSAGE_KEYS) {
      const zh = renderMessage(message(key), 'zh-CN');
      // File formats and sizes go by their own names in Chinese too (PNG, SVG, MB: an uploaded image's refusals), and so
      // do IP and DNS (a domain's), and API (an API key).
      const words = zh.replace(/\b(PNG|JPEG|WebP|GIF|SVG|IP|DNS|API)\b|(?<=\d)MB\b/g, '');
      expect({ key, zh: words }).toEqual({ key, zh: expect.not.stringMatching(/[A-Za-z]/) });
      expect(zh).not.toBe(renderMessage(message(key), 'en'));
    }
  });

  it('writes every English refusal as a sentence a buyer reads: no "field:" in front, no ISO time, a full stop at the end', () => {
    // `busy` keeps the spec's own words (spec §8), which the client's busy toast shows too.
    for (const key of API_MESSAGE_KEYS.filter((k) => k !== 'busy')) {
      const en = renderMessage(message(key), 'en');
      expect({ key, en }).toEqual({ key, en: expect.stringMatching(/^[A-Z“].*[.]$/) });
      expect({ key, en }).toEqual({ key, en: expect.not.stringMatching(/^\w+: |\d{4}-\d{2}-\d{2}T/) });
    }
  });

  it('words the refusals the audit found read as developer text', () => {
    expect(renderMessage(msg('codeWrong'), 'en')).toBe('This redeem code is not valid here, or has been used.');
    expect(renderMessage(msg('saleOverLimit', { limit: 5 }), 'en')).toBe('You can buy at most 5 copies of this sale.');
    expect(renderMessage(msg('giftNotOpen', { at: new Date('2026-12-01T12:00:00Z') }), 'en')).toBe(
      'This gift opens on December 1, 2026 at 20:00.',
    );
    expect(renderMessage(msg('saleNotOpen', { at: new Date('2026-12-01T12:00:00Z') }), 'zh-CN')).toBe(
      '尚未开售，开售时间：2026年12月1日 20:00',
    );
  });

  it('counts in each language: one try, two tries', () => {
    expect(renderMessage(msg('smsCodeWrong', { left: 1 }), 'en')).toBe('The code is wrong. You have 1 try left.');
    expect(renderMessage(msg('smsCodeWrong', { left: 4 }), 'en')).toBe('The code is wrong. You have 4 tries left.');
    expect(renderMessage(msg('smsCodeWrong', { left: 4 }), 'zh-CN')).toBe('验证码错误，还可以再试 4 次');
    expect(renderMessage(msg('saleOnlyLeft', { left: 1 }), 'en')).toBe('Only 1 copy is left.');
  });

  it('writes waits in each language', () => {
    const wait = (waitMs: number, locale: 'en' | 'zh-CN') => renderMessage(msg('smsFlood', { waitMs }), locale);
    expect(wait(45_000, 'en')).toMatch(/ in 45 seconds\.$/);
    expect(wait(1_000, 'en')).toMatch(/ in 1 second\.$/);
    expect(wait(45_000, 'zh-CN')).toMatch(/请 45 秒后再试$/);
    expect(wait(10 * 60_000, 'zh-CN')).toMatch(/请 10 分钟后再试$/);
    expect(wait(3 * 3600_000, 'en')).toMatch(/ in 3 hours\.$/);
  });

  it('names in Chinese every field of every call a schema can refuse', () => {
    const fields = new Set<string>();
    for (const proc of Object.values(registry)) {
      const schema = z.toJSONSchema(proc.input, { io: 'input', unrepresentable: 'any' }) as { properties?: object };
      for (const field of Object.keys(schema.properties ?? {})) fields.add(field);
    }
    expect(fields.size).toBeGreaterThan(20);
    for (const field of [...fields, 'body']) {
      const line = describeInput([{ path: field === 'body' ? [] : [field], code: 'invalid_type' }], 'zh-CN');
      expect({ field, line }).toEqual({ field, line: expect.stringMatching(/^[^A-Za-z]+：不能为空$/) });
    }
  });

  it('tells a missing field from one of the wrong type, and lists every problem', () => {
    const schema = z.object({ phone: z.string(), holdingIds: z.array(z.string()), records: z.array(z.number()).max(2) });
    const parsed = schema.safeParse({ holdingIds: [1], records: [1, 2, 3] }, { error: inputError, reportInput: true });
    expect(describeInput(parsed.error!.issues, 'zh-CN')).toBe('手机号：不能为空；所选藏品：类型不正确；上报记录：不能超过 2 项');
    expect(describeInput(parsed.error!.issues, 'en')).toBe(
      'phone: is required; holdingIds.0: must be a text; records: must have at most 2 items',
    );
  });
});
