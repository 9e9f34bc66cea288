import { seededTestDb } from '@/test/db';
import { parseSkin } from '@/lib/channel/skin';
import { readChannel } from '@/lib/channel/service';
import { channelProviders } from '@/lib/payment/providers';
import { handleOperatorSettings, handleOperatorSkin } from './operator';

// The operator API's skin change (docs/api.md): who may call it, what it accepts, and that the next page view shows
// it (the channel's cached read is dropped at once).

const db = seededTestDb(new Date('2026-11-22T08:00:00Z'));
const TOKEN = 'operator-token-for-tests-0123456789abcdef';

function patch(key: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) {
  const request = new Request(`http://127.0.0.1:3000/api/operator/channels/${key}/skin`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return handleOperatorSkin(request, key, { db, token: TOKEN });
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

  it('is off (404) when no operator token is configured', async () => {
    const request = new Request('http://127.0.0.1:3000/api/operator/channels/LUMEN/skin', {
      method: 'PATCH',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: '{"color1":"#000000"}',
    });
    expect((await handleOperatorSkin(request, 'LUMEN', { db, token: undefined })).status).toBe(404);
  });

  it('refuses a missing or wrong token with 401 and changes nothing', async () => {
    const before = (await readChannel(db, 'AURORA'))!.skinJson;
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: TOKEN },
      { authorization: `Basic ${TOKEN}` },
    ];
    for (const headers of attempts) {
      const response = await patch('AURORA', { color1: '#000000' }, headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await readChannel(db, 'AURORA'))!.skinJson).toBe(before);
  });

  it('says which field is wrong and why, and changes nothing', async () => {
    const before = (await readChannel(db, 'AURORA'))!.skinJson;
    const cases: [unknown, number, string][] = [
      [{ color1: 'red; background:url(https://evil.example)' }, 400, 'color1: must be a CSS colour'],
      [{ color1: 42 }, 400, 'color1: must be a CSS colour'],
      [{ bannerImg: 'javascript:alert(1)' }, 400, 'bannerImg: must be a site path'],
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
        message: `channel: ${key} does not exist`,
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
    return handleOperatorSettings(request, key, { db, token: TOKEN });
  }

  it("sets the providers the channel's pay page offers and its SMS sender, read at once by the next call", async () => {
    const before = await readChannel(db, 'LUMEN');
    expect(before!.paymentProviders).toEqual(['sandbox']);
    const set = await answer(await settings('LUMEN', { paymentProviders: [], smsSignName: '流明画廊', smsTemplateId: 'SMS_123456789' }));
    expect(set).toMatchObject({
      status: 200,
      data: { paymentProviders: [], smsSignName: '流明画廊', smsTemplateId: 'SMS_123456789' },
    });
    const after = await readChannel(db, 'LUMEN');
    expect(after).toMatchObject({ paymentProviders: [], smsSignName: '流明画廊', smsTemplateId: 'SMS_123456789' });
    // Empty: every provider the deployment runs (here the sandbox only).
    expect(channelProviders(db, after!).map((p) => p.name)).toEqual(['sandbox']);
    // null gives the deployment's sender back.
    expect((await answer(await settings('LUMEN', { smsSignName: null, smsTemplateId: null }))).data).toMatchObject({
      smsSignName: null,
      smsTemplateId: null,
    });
    await settings('LUMEN', { paymentProviders: ['sandbox'] });
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

  it('needs the operator token, and a channel that exists', async () => {
    expect((await settings('LUMEN', { paymentProviders: [] }, {})).status).toBe(401);
    expect((await settings('LUMEN', { paymentProviders: [] }, { authorization: 'Bearer wrong-token-0123456789abcdef0123' })).status).toBe(
      401,
    );
    expect((await settings('NOSUCH', { paymentProviders: [] })).status).toBe(404);
    expect((await readChannel(db, 'LUMEN'))!.paymentProviders).toEqual(['sandbox']);
  });
});
