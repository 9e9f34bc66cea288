import { seededTestDb } from '@/test/db';
import { parseSkin } from '@/lib/channel/skin';
import { readChannel } from '@/lib/channel/service';
import { and, desc, eq } from 'drizzle-orm';
import { operatorAudit } from '@/lib/db/schema';
import { disableOperator } from '@/lib/operator/accounts';
import { revokeApiKey } from '@/lib/operator/api-keys';
import { apiKeyOf, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { handleOperatorSettings, handleOperatorSkin } from './operator';

// The operator API's skin change (docs/api.md): who may call it (issue 31: an operator's API key, no more
// OPERATOR_TOKEN), what it accepts, and that the next page view shows it (the channel's cached read is dropped at once).

const db = seededTestDb(new Date('2026-11-22T08:00:00Z'));
const MADE = new Date('2026-11-22T07:00:00Z');
/** An owner's key: every channel. */
let TOKEN = '';
let owner: TestOperator;
/** Keys that must not write: a manager of AURORA's (for LUMEN), support's, a revoked one, a disabled manager's. */
const refusedKeys: Record<string, string> = {};
let auroraManagerKey = '';

beforeAll(async () => {
  owner = await signedInOperator(db, { name: 'api.owner', role: 'owner', now: MADE });
  TOKEN = (await apiKeyOf(db, owner, { now: MADE })).key;
  const manager = await signedInOperator(db, { name: 'api.manager', role: 'manager', channels: ['AURORA', 'LUMEN'], now: MADE });
  auroraManagerKey = (await apiKeyOf(db, manager, { now: MADE, channels: ['AURORA'] })).key;
  const support = await signedInOperator(db, { name: 'api.support', role: 'support', channels: ['AURORA'], now: MADE });
  refusedKeys.support = (await apiKeyOf(db, support, { now: MADE, channels: ['AURORA'] })).key;
  const revoked = await apiKeyOf(db, owner, { now: MADE, label: 'old automation' });
  await revokeApiKey(db, {
    id: revoked.id,
    viewer: { sessionId: 0, operatorId: owner.operatorId, name: owner.name, role: 'owner' },
    now: MADE,
    ip: '127.0.0.1',
  });
  refusedKeys.revoked = revoked.key;
  const gone = await signedInOperator(db, { name: 'api.gone', role: 'manager', channels: ['AURORA'], now: MADE });
  refusedKeys.disabled = (await apiKeyOf(db, gone, { now: MADE, channels: ['AURORA'] })).key;
  await disableOperator(db, {
    operatorId: gone.operatorId,
    by: { operatorId: owner.operatorId, name: owner.name, ip: '127.0.0.1' },
    now: MADE,
  });
});

// Each wrong token is logged (issue 29); the tests about those lines look at them through their own spies.
beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => {}));
afterEach(() => jest.restoreAllMocks());

function patch(key: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) {
  const request = new Request(`http://127.0.0.1:3000/api/operator/channels/${key}/skin`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return handleOperatorSkin(request, key, { db });
}

async function answer(response: Response) {
  return { status: response.status, ...((await response.json()) as { code: number; message: string; data: unknown }) };
}

describe('PATCH /api/operator/channels/:key/skin', () => {
  it('changes the colour the channel’s next page view reads, at once, keeping the rest of the skin', async () => {
    const before = parseSkin((await readChannel(db, 'LUMEN'))!.skinJson);
    const result = await answer(await patch('LUMEN', { color1: '#123456', buttonBgColor: 'rgb(1, 2, 3)' }));
    expect(result).toMatchObject({ status: 200, code: 200, data: { ...before, color1: '#123456', buttonBgColor: 'rgb(1, 2, 3)' } });
    const after = parseSkin((await readChannel(db, 'LUMEN'))!.skinJson);
    expect(after).toEqual({ ...before, color1: '#123456', buttonBgColor: 'rgb(1, 2, 3)' });
  });

  it('refuses a missing, wrong, revoked or disabled operator’s key with 401 and changes nothing', async () => {
    const before = (await readChannel(db, 'AURORA'))!.skinJson;
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: `Bearer sfk_${'x'.repeat(43)}` },
      { authorization: TOKEN },
      { authorization: `Basic ${TOKEN}` },
      { authorization: `Bearer ${refusedKeys.revoked}` },
      { authorization: `Bearer ${refusedKeys.disabled}` },
    ];
    for (const headers of attempts) {
      const response = await patch('AURORA', { color1: '#000000' }, headers);
      expect({ headers, status: response.status }).toEqual({ headers, status: 401 });
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await readChannel(db, 'AURORA'))!.skinJson).toBe(before);
  });

  it('refuses a support key (403) and a key on a channel it does not work on (404), and changes nothing', async () => {
    const before = (await readChannel(db, 'LUMEN'))!.skinJson;
    const support = await answer(await patch('AURORA', { color1: '#000000' }, { authorization: `Bearer ${refusedKeys.support}` }));
    expect(support).toMatchObject({ status: 403, message: 'Your role cannot do this.' });
    // The manager works on LUMEN too, but this key of theirs only on AURORA.
    const other = await answer(await patch('LUMEN', { color1: '#000000' }, { authorization: `Bearer ${auroraManagerKey}` }));
    expect(other).toMatchObject({ status: 404, message: 'There is no such store among those you work on.' });
    expect((await readChannel(db, 'LUMEN'))!.skinJson).toBe(before);
    expect((await patch('AURORA', { color1: '#0f766e' }, { authorization: `Bearer ${auroraManagerKey}` })).status).toBe(200);
  });

  it('records the change in the audit trail under the key’s operator, with the skin before and after', async () => {
    await patch('GIFT', { color1: '#445566' });
    const entries = await db
      .select()
      .from(operatorAudit)
      .where(and(eq(operatorAudit.procedure, 'PATCH /api/operator/channels/:key/skin'), eq(operatorAudit.operatorName, 'api.owner')));
    const entry = entries.find((e) => (e.input as { color1?: string }).color1 === '#445566');
    expect(entry).toMatchObject({ operatorId: owner.operatorId, input: { color1: '#445566' }, after: { color1: '#445566' } });
    expect((entry!.before as { color1: string }).color1).not.toBe('#445566');
  });

  it('says which field is wrong and why, and changes nothing', async () => {
    const before = (await readChannel(db, 'AURORA'))!.skinJson;
    const cases: [unknown, number, string][] = [
      [{ color1: 'red; background:url(https://evil.example)' }, 400, 'color1: must be a CSS colour'],
      [{ color1: 42 }, 400, 'color1: must be a CSS colour'],
      [{ bannerImg: 'javascript:alert(1)' }, 400, 'bannerImg: must be /brands/aurora/<name>.svg, /brands/default/<name>.svg'],
      [{ colour1: '#000000' }, 400, 'colour1: is not a skin field'],
      [{}, 400, 'body: must name at least one skin field'],
      [[], 400, 'body: must be a JSON object of skin fields'],
      ['{"color1":', 400, 'body: must be a JSON object of skin fields'],
      [JSON.stringify({ color1: '#000000', pad: 'x'.repeat(20_000) }), 413, 'body: must be 16 KiB or less'],
    ];
    for (const [body, status, message] of cases) {
      const result = await answer(await patch('AURORA', body));
      expect([body, result.status, result.message.slice(0, message.length)]).toEqual([body, status, message]);
    }
    expect((await readChannel(db, 'AURORA'))!.skinJson).toBe(before);
  });

  it('answers 404 for a channel that does not exist', async () => {
    for (const key of ['NOWHERE', 'not a key', '../AURORA']) {
      expect(await answer(await patch(key, { color1: '#000000' }))).toMatchObject({
        status: 404,
        message: 'There is no such store among those you work on.',
      });
    }
  });
});

describe('PATCH /api/operator/channels/:key/settings', () => {
  function settings(key: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) {
    const request = new Request(`http://127.0.0.1:3000/api/operator/channels/${key}/settings`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return handleOperatorSettings(request, key, { db });
  }

  it("sets the channel's SMS sender, read at once by the next call, and audits it with before and after", async () => {
    const set = await answer(await settings('LUMEN', { smsSignName: '流明画廊', smsTemplateId: 'SMS_123456789' }));
    expect(set).toMatchObject({
      status: 200,
      data: { paymentProviders: ['sandbox'], smsSignName: '流明画廊', smsTemplateId: 'SMS_123456789' },
    });
    const after = await readChannel(db, 'LUMEN');
    expect(after).toMatchObject({ smsSignName: '流明画廊', smsTemplateId: 'SMS_123456789' });
    const [entry] = await db
      .select()
      .from(operatorAudit)
      .where(eq(operatorAudit.procedure, 'PATCH /api/operator/channels/:key/settings'))
      .orderBy(desc(operatorAudit.id))
      .limit(1);
    expect(entry!.after).toMatchObject({ smsSignName: '流明画廊' });
    expect(entry!.before).toMatchObject({ paymentProviders: ['sandbox'], smsSignName: null });
    // null gives the deployment's sender back.
    expect((await answer(await settings('LUMEN', { smsSignName: null, smsTemplateId: null }))).data).toMatchObject({
      smsSignName: null,
      smsTemplateId: null,
    });
  });

  it('refuses the payment providers to a key: a sensitive write needs a person at the console (red team)', async () => {
    const refused = await answer(await settings('LUMEN', { paymentProviders: [], smsSignName: '流明画廊' }));
    expect(refused).toMatchObject({
      status: 403,
      message: 'paymentProviders: This change needs a person at the console: an API key cannot make it.',
    });
    expect(await readChannel(db, 'LUMEN')).toMatchObject({ paymentProviders: ['sandbox'], smsSignName: null });
  });

  it('says which field is wrong and why, and changes nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [{ paymentProviders: ['paypal'] }, /^paymentProviders: must name payment providers: sandbox, wechatpay/],
      [{ paymentProviders: ['sandbox', 'sandbox'] }, /^paymentProviders: names a provider twice$/],
      [{ paymentProviders: 'sandbox' }, /^paymentProviders: must be a list of payment provider names$/],
      [{ smsTemplateId: 'SMS 1; drop' }, /^smsTemplateId: must be the carrier template id/],
      [{ smsSignName: 'x' }, /^smsSignName: must be 2 characters or more$/],
      [{ skin: {} }, /^skin: is not a channel setting$/],
      [{}, /^body: must name at least one of paymentProviders, smsSignName, smsTemplateId$/],
      ['[1]', /^body: must be a JSON object of channel settings$/],
      ['not json', /^body: must be a JSON object of channel settings$/],
    ];
    for (const [body, message] of cases) {
      const refused = await answer(await settings('LUMEN', body));
      expect({ status: refused.status, message: refused.message }).toEqual({ status: 400, message: expect.stringMatching(message) });
    }
    expect((await readChannel(db, 'LUMEN'))!.paymentProviders).toEqual(['sandbox']);
  });

  it('needs a manager’s or owner’s key of that channel, and a channel that exists', async () => {
    expect((await settings('LUMEN', { paymentProviders: [] }, {})).status).toBe(401);
    expect((await settings('LUMEN', { paymentProviders: [] }, { authorization: 'Bearer wrong-token-0123456789abcdef0123' })).status).toBe(
      401,
    );
    for (const key of Object.values(refusedKeys)) {
      expect((await settings('AURORA', { paymentProviders: [] }, { authorization: `Bearer ${key}` })).status).not.toBe(200);
    }
    expect((await settings('LUMEN', { paymentProviders: [] }, { authorization: `Bearer ${auroraManagerKey}` })).status).toBe(404);
    expect((await settings('NOSUCH', { paymentProviders: [] })).status).toBe(404);
    expect((await readChannel(db, 'LUMEN'))!.paymentProviders).toEqual(['sandbox']);
  });
});

// Issue 29, finding 9: the operator API took unlimited wrong tokens without a limit or a log line, stored a NUL in the
// SMS sign name as an HTTP 500, took control characters, and took a skin image from any https host.

describe('wrong API keys (issue 29, kept for the keys of issue 31)', () => {
  const AT = new Date('2026-11-22T08:00:00Z');
  let warnings: jest.SpyInstance;
  let alerts: jest.SpyInstance;
  beforeEach(() => {
    warnings = jest.spyOn(console, 'warn').mockImplementation(() => {});
    alerts = jest.spyOn(console, 'error').mockImplementation(() => {});
  });

  /** A wrong key of the right shape (a guess; a token of another shape is refused without a lookup). */
  const guess = (word: string) => `sfk_${word}${'x'.repeat(43 - word.length)}`;

  /** A skin change from `ip` (as the entry server resolved it) with `token`, at `now`. */
  function from(ip: string, token: string, now = AT) {
    const request = new Request('http://127.0.0.1:3000/api/operator/channels/AURORA/skin', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-client-ip': ip, authorization: `Bearer ${token}` },
      body: JSON.stringify({ color1: '#0f766e' }),
    });
    return handleOperatorSkin(request, 'AURORA', { db, now });
  }

  it('answers 429 with Retry-After from the 11th wrong token in 15 minutes of one address, and says so once', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await from('203.0.113.7', guess(`guess${i}`))).status);
    expect(statuses).toEqual(Array(10).fill(401));
    expect(alerts).not.toHaveBeenCalled();

    const refused = await from('203.0.113.7', guess('guess10'), new Date(AT.getTime() + 60_000));
    expect(refused.status).toBe(429);
    // The window of 15 minutes began at 08:00; one minute in, 14 are left.
    expect(refused.headers.get('retry-after')).toBe(String(14 * 60));
    expect(await refused.json()).toEqual({
      code: 429,
      message: 'Too many wrong API keys from this address. Please try again in 14 minutes.',
      data: null,
    });
    expect(alerts).toHaveBeenCalledTimes(1);
    const line = String(alerts.mock.calls[0]![0]);
    expect(line).toMatch(/^\[alert\] operator API: 10 wrong API keys from 203\.0\.113\.7 within 15 minutes/);
    expect(line).not.toContain('guess');
    // Each wrong token was logged with the address and never the token itself.
    expect(warnings).toHaveBeenCalledTimes(10);
    for (const [message] of warnings.mock.calls) {
      expect(String(message)).toContain('203.0.113.7');
      expect(String(message)).not.toContain('guess');
    }

    // Counted before the comparison: the right token from that address waits too; one alert per address and window.
    expect((await from('203.0.113.7', TOKEN)).status).toBe(429);
    expect(alerts).toHaveBeenCalledTimes(1);
    // Per address, not per account: the operator elsewhere is not locked out.
    expect((await from('198.51.100.2', TOKEN)).status).toBe(200);
    // The next window starts afresh.
    expect((await from('203.0.113.7', TOKEN, new Date(AT.getTime() + 15 * 60_000))).status).toBe(200);
  });

  /** The statuses of 11 wrong tokens from `ip`: ten 401, then 429 when the limit holds. */
  async function elevenWrong(ip: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await from(ip, guess(`wrong${i}`))).status);
    return statuses;
  }

  it('gives a right token back: an operator calling often keeps the whole allowance', async () => {
    for (let i = 0; i < 25; i++) expect((await from('198.51.100.3', TOKEN)).status).toBe(200);
    expect(await elevenWrong('198.51.100.3')).toEqual([...Array(10).fill(401), 429]);
  });

  it('lets exactly 10 of 30 concurrent wrong tokens be compared', async () => {
    const statuses = await Promise.all(Array.from({ length: 30 }, async (_, i) => (await from('203.0.113.8', guess(`burst${i}`))).status));
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect(alerts).toHaveBeenCalledTimes(1);
  });

  it('does not count a call without credentials', async () => {
    const bare = () =>
      handleOperatorSkin(
        new Request('http://127.0.0.1:3000/api/operator/channels/AURORA/skin', {
          method: 'PATCH',
          headers: { 'x-client-ip': '203.0.113.9' },
          body: '{"color1":"#000000"}',
        }),
        'AURORA',
        { db, now: AT },
      );
    for (let i = 0; i < 12; i++) expect((await bare()).status).toBe(401);
    expect(await elevenWrong('203.0.113.9')).toEqual([...Array(10).fill(401), 429]);
  });
});

describe('operator text fields and skin images (issue 29)', () => {
  const CDN = 'https://cdn.example.com';
  function call(handler: typeof handleOperatorSkin, what: 'skin' | 'settings', key: string, body: unknown, mediaOrigins: string[] = []) {
    const request = new Request(`http://127.0.0.1:3000/api/operator/channels/${key}/${what}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, 'x-client-ip': '192.0.2.50' },
      body: JSON.stringify(body),
    });
    return handler(request, key, { db, mediaOrigins });
  }

  it.each([
    [{ smsSignName: 'ab\u0000c' }, 'smsSignName'],
    [{ smsSignName: '奥罗拉\n【另一个签名】' }, 'smsSignName'],
    [{ smsSignName: 'Aurora\u001b[31m' }, 'smsSignName'],
    [{ smsSignName: 'Aurora\u0085' }, 'smsSignName'],
    [{ smsSignName: 'Aurora\ud800' }, 'smsSignName'],
    [{ smsSignName: 'Aurora\t' }, 'smsSignName'],
    [{ smsTemplateId: 'SMS_1\u0000' }, 'smsTemplateId'],
  ])('refuses control characters in %j with 400 naming %s, and changes nothing', async (body, field) => {
    const before = await readChannel(db, 'GIFT');
    const refused = await answer(await call(handleOperatorSettings, 'settings', 'GIFT', body));
    expect({ status: refused.status, message: refused.message }).toEqual({
      status: 400,
      message: `${field}: must not contain control characters (NUL, line breaks, tabs) or broken Unicode`,
    });
    expect(await readChannel(db, 'GIFT')).toMatchObject({ smsSignName: before!.smsSignName, smsTemplateId: before!.smsTemplateId });
  });

  it('takes a sign name in any script, emoji included, but not with a line break', async () => {
    const set = await answer(await call(handleOperatorSettings, 'settings', 'GIFT', { smsSignName: '礼物 Gift 🎁' }));
    expect(set).toMatchObject({ status: 200, data: { smsSignName: '礼物 Gift 🎁' } });
    expect((await call(handleOperatorSettings, 'settings', 'GIFT', { smsSignName: '礼物 Gift 🎁\n' })).status).toBe(400);
    await call(handleOperatorSettings, 'settings', 'GIFT', { smsSignName: null });
  });

  it.each([
    ['https://evil.example/banner.png', 'a host the deployment does not list'],
    ['https://cdn.example.com.evil.example/banner.png', 'a look-alike host'],
    ['https://cdn.example.com@evil.example/banner.png', 'credentials that hide the host'],
    ['http://cdn.example.com/banner.png', 'plain http'],
    ['/brands/dark/banner.svg', "another channel's brand folder"],
    ['/brands/aurora/banner.png', 'a path the proxy does not serve as a file'],
    ['/brands/aurora/../dark/banner.svg', 'a way out of the folder'],
    ['/api/og/sale/1', 'a route rather than art'],
    ['/brands/aurora/banner\u0000.svg', 'NUL'],
    ['/brands/aurora/ban\u0007ner.svg', 'a control character'],
  ])('refuses %j (%s) with 400 naming the field, and changes nothing', async (src) => {
    const before = (await readChannel(db, 'AURORA'))!.skinJson;
    const refused = await answer(await call(handleOperatorSkin, 'skin', 'AURORA', { bannerImg: src }, [CDN]));
    expect({ status: refused.status, message: refused.message }).toEqual({
      status: 400,
      message:
        'bannerImg: must be /brands/aurora/<name>.svg, /brands/default/<name>.svg or /goods/<name>.svg (lower-case names), ' +
        'an uploaded image (/media/<key>.webp), or an https URL on a media host of the deployment (MEDIA_ORIGINS: https://cdn.example.com)',
    });
    expect((await readChannel(db, 'AURORA'))!.skinJson).toBe(before);
  });

  it("takes the channel's own art, the default art, the goods art, and a media host only while the deployment lists it", async () => {
    const before = parseSkin((await readChannel(db, 'AURORA'))!.skinJson);
    const images = {
      bannerImg: '/brands/aurora/banner.svg',
      brandImg: '/brands/default/brand.svg',
      coverChainImg: '/goods/star-fox.svg',
      userFaceImg: `${CDN}/faces/aurora.png`,
    };
    const set = await answer(await call(handleOperatorSkin, 'skin', 'AURORA', images, [CDN]));
    expect(set).toMatchObject({ status: 200, data: images });
    await call(handleOperatorSkin, 'skin', 'AURORA', before, [CDN]);

    const unlisted = await answer(await call(handleOperatorSkin, 'skin', 'AURORA', { userFaceImg: `${CDN}/faces/aurora.png` }));
    expect({ status: unlisted.status, message: unlisted.message }).toEqual({
      status: 400,
      message: expect.stringMatching(/^userFaceImg: .*\(MEDIA_ORIGINS: none listed\)$/),
    });
    expect(parseSkin((await readChannel(db, 'AURORA'))!.skinJson)).toEqual(before);
  });
});
