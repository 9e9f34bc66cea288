import { and, eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { sales } from '@/lib/db/schema';
import { API_MESSAGE_KEYS, msg, renderMessage, waitText, type ApiMessage } from '@/lib/procedure/messages';
import { apiLocale } from '@/lib/i18n/locale';

// The API's refusals follow the caller's locale (issue 17, item 4; docs/api.md, "Languages"): the Accept-Language a
// store page sends with its own locale, else the channel's locale, else English.

process.env.BUY_MAX_LAG_MS = '60000';

let api: TestApi;
let token: string;
beforeAll(async () => {
  api = await createTestApi();
  token = (await api.buyer('13612340077', 'AURORA')).token;
});
afterAll(() => api.close());

const saleIdOf = async (channelKey: string, code: string) => {
  const [row] = await api.db
    .select({ id: sales.id })
    .from(sales)
    .where(and(eq(sales.code, code), eq(sales.channelId, await api.channelId(channelKey))));
  return String(row!.id);
};

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

  it('refuses in Chinese when the page is Chinese, and in English when it is English', async () => {
    const body = { saleId: await saleIdOf('AURORA', 'aurora-dawn'), quantity: 99, idempotencyKey: 'lang-over-limit-1' };
    const zh = await api.callApi('/market/api/order/create', body, { token, headers: { 'accept-language': 'zh-CN' } });
    expect(zh.code).toBe(400);
    expect(zh.message).toMatch(/^数量：(每人限购 \d+ 份|不能超过 \d+)$/);
    const en = await api.callApi('/market/api/order/create', body, { token, headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(en.message).toMatch(/^quantity: /);
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

  it('asks a logged-out caller to log in, in their language', async () => {
    const answer = await api.callApi('/market/api/order/list', {}, { headers: { 'accept-language': 'zh-CN' } });
    expect(answer).toMatchObject({ code: 401, message: '未登录或登录已过期，请重新登录' });
  });
});

describe('the message catalogue', () => {
  // Every key with values of every kind; names a buyer sees (a collectible, a brand) are Chinese as on a zh-CN store.
  const values = {
    waitMs: 90_000,
    key: 'BAZAAR',
    problem: 'track: too fast to be a drag',
    tries: 5,
    left: 2,
    brand: '集市',
    at: new Date('2026-12-01T12:00:00Z'),
    limit: 3,
    id: 7,
    paid: true,
    name: '夜市狐狸',
    quantity: 2,
    got: 1,
    have: 1,
    is: 1,
    asked: 2,
  };
  const every = API_MESSAGE_KEYS.map((key) => ({ key, params: values }) as unknown as ApiMessage);

  it('has Chinese words for every refusal, with no English left in them', () => {
    for (const message of every) {
      const zh = renderMessage(message, 'zh-CN');
      expect({ key: message.key, zh }).toEqual({ key: message.key, zh: expect.not.stringMatching(/[A-Za-z]/) });
      expect(zh).not.toBe(renderMessage(message, 'en'));
    }
  });

  it('keeps the English words the API has always answered', () => {
    expect(renderMessage(msg('codeWrong'), 'en')).toBe('code: this code is not valid here, or has been used');
    expect(renderMessage(msg('saleOnlyLeft', { left: 3 }), 'en')).toBe('quantity: only 3 left');
    expect(renderMessage(msg('saleNotOpen', { at: new Date('2026-12-01T12:00:00Z') }), 'zh-CN')).toBe(
      '尚未开售，开售时间：2026年12月1日 20:00（北京时间）',
    );
  });

  it('writes waits in each language', () => {
    expect(waitText(45_000)).toBe('45 s');
    expect(waitText(45_000, 'zh-CN')).toBe('45 秒');
    expect(waitText(10 * 60_000, 'zh-CN')).toBe('10 分钟');
    expect(waitText(3 * 3600_000, 'en')).toBe('3 h');
  });
});
