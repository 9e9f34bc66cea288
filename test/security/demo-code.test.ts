import { eq } from 'drizzle-orm';
import { smsCodes, smsOutbox } from '@/lib/db/schema';
import { env } from '@/lib/env';
import { sendCode } from '@/lib/auth/sms-codes';
import { outboxProvider, type SmsProvider } from '@/lib/auth/sms';
import { securityHarness } from './support';

// Security review, finding 1: anyone could read any phone's login code from the demo outbox by phone number. Now the
// code goes back only in the answer to the request that asked for it, and only with the demo provider. Finding 14: the
// text kept in the outbox has no code in it.

const h = securityHarness();
beforeAll(() => jest.spyOn(console, 'info').mockImplementation(() => {}));

async function ticket(): Promise<string> {
  // A captcha ticket made the way verify makes one; these tests are about what happens after the captcha.
  const { captchaChallenges } = await import('@/lib/db/schema');
  const { randomToken, sha256 } = await import('@/lib/security/crypto');
  const value = randomToken();
  const [channel] = await h.db().query.channels.findMany({ where: (c, { eq: is }) => is(c.key, 'AURORA'), limit: 1 });
  await h
    .db()
    .insert(captchaChallenges)
    .values({
      id: randomToken(18),
      channelId: channel!.id,
      kind: 'text',
      answer: 0,
      createdAt: h.now(),
      expiresAt: new Date(h.now().getTime() + 60_000),
      answeredAt: h.now(),
      ticketHash: sha256(value),
      ticketExpiresAt: new Date(h.now().getTime() + 60_000),
    });
  return value;
}

describe('the demo login code (finding 1)', () => {
  it('goes only to the request that asked for it', async () => {
    expect(env().SMS_PROVIDER).toBe('outbox');
    const phone = '13700000001';
    const asked = await h.call('/auth/api/auth/getAuthCode', { phone }, { headers: { behaviorVerify: await ticket() } });
    expect(asked.body).toMatchObject({ code: 200, data: { demoCode: expect.stringMatching(/^\d{6}$/) } });
    const code = (asked.body.data as { demoCode: string }).demoCode;

    // A second browser cannot read it: there is no outbox to ask by phone number any more...
    const peek = await h.call('/auth/api/auth/outbox', { phone });
    expect(peek.body).toEqual({ code: 404, message: 'unknown API path /auth/api/auth/outbox', data: null });
    // ...and asking for the same phone itself is refused (the phone's wait), with no code in the answer.
    const again = await h.call('/auth/api/auth/getAuthCode', { phone }, { headers: { behaviorVerify: await ticket() } });
    expect(again.body.code).toBe(429);
    expect(JSON.stringify(again.body)).not.toContain(code);

    // The first browser's code logs in.
    const login = await h.call('/auth/api/auth/authCodeLoginV2', { phone, code });
    expect(login.body.code).toBe(200);
  });

  it('is never handed back by a real provider', async () => {
    const quiet: SmsProvider = { name: 'carrier', showsCodes: false, send: async () => {} };
    const [channel] = await h.db().query.channels.findMany({ limit: 1 });
    const answer = await sendCode(
      { db: h.db(), now: h.now(), channelId: channel!.id, ip: '198.18.0.1', secret: env().AUTH_SECRET, sms: quiet },
      '13700000002',
    );
    expect(answer).toEqual({ cooldownSeconds: 60, expiresInSeconds: 300 });
  });

  it('is not kept in the outbox, nor in the log (finding 14)', async () => {
    const logged = jest.spyOn(console, 'info').mockImplementation(() => {});
    const [channel] = await h.db().query.channels.findMany({ limit: 1 });
    const phone = '13700000003';
    await sendCode(
      { db: h.db(), now: h.now(), channelId: channel!.id, ip: '198.18.0.2', secret: env().AUTH_SECRET, sms: outboxProvider },
      phone,
    );
    const rows = await h.db().select().from(smsOutbox).where(eq(smsOutbox.phone, phone));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.text).toBe('Your verification code is ******. It is valid for 5 minutes. Do not share it with anyone.');
    expect(String(logged.mock.calls.at(-1)?.[0])).not.toMatch(/\d{6}/);
    // What is kept of the code itself is a keyed hash.
    const [stored] = await h.db().select().from(smsCodes).where(eq(smsCodes.phone, phone));
    expect(stored!.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
