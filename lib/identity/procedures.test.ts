import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { agreementAcceptances, buyerIdentities, channels } from '../db/schema';
import { residentIdCheckDigit } from '../format/resident-id';
import { IDENTITY_CONSENT_VERSION } from './consent';

// Issue 33: the buyer's real-name calls end to end through the dispatcher, with the demo vendor (docs/demo.md).

/** A well-formed number from its first 17 digits. */
const idNumber = (first17: string) => first17 + residentIdCheckDigit(first17);

let api: TestApi;
let output: string[];
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => {
  // Every line the server writes while a test runs, to prove no raw name or number reaches a log.
  output = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      output.push(
        args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '),
      );
    });
  }
});
afterEach(() => {
  jest.restoreAllMocks();
});

const verify = (token: string, body: Record<string, unknown>) =>
  api.callApi('/market/api/identity/verify', { consentVersion: IDENTITY_CONSENT_VERSION, ...body }, { token });

async function storedFor(userId: number) {
  const identities = await api.db.select().from(buyerIdentities).where(eq(buyerIdentities.userId, userId));
  const consents = await api.db.select().from(agreementAcceptances).where(eq(agreementAcceptances.userId, userId));
  return { identities, consents };
}

describe('identity/status', () => {
  it("answers an unverified buyer with the channel's requirement per action and the consent version", async () => {
    await api.db
      .update(channels)
      .set({ identityPolicy: { realName: { buy: true }, minAge: 16, blindBoxMinAge: 18 } })
      .where(eq(channels.key, 'AURORA'));
    const buyer = await api.buyer('13912340101');
    const res = await api.callApi('/market/api/identity/status', {}, { token: buyer.token });
    expect(res.code).toBe(200);
    expect(res.data).toEqual({
      verified: false,
      maskedName: null,
      maskedIdNumber: null,
      verifiedAt: null,
      requirement: {
        buy: { realName: true, minAge: 16 },
        receive: { realName: true, minAge: 16 },
        exchange: { realName: true, minAge: 16 },
        chainUp: { realName: true, minAge: 16 },
      },
      blindBoxMinAge: 18,
      consentVersion: IDENTITY_CONSENT_VERSION,
    });
    await api.db.update(channels).set({ identityPolicy: {} }).where(eq(channels.key, 'AURORA'));
  });

  it('is for logged-in buyers only', async () => {
    const res = await api.callApi('/market/api/identity/status', {});
    expect(res.code).toBe(401);
  });
});

describe('identity/verify with the demo vendor', () => {
  it('verifies a well-formed pair, keeps it sealed with the consent accepted, and answers masked forms only', async () => {
    const buyer = await api.buyer('13912340102');
    const number = idNumber('11010519491231002');
    const res = await verify(buyer.token, { name: ' 张三丰 ', idNumber: number.slice(0, 6) + ' ' + number.slice(6).toLowerCase() });
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({
      verified: true,
      maskedName: '张**',
      maskedIdNumber: '1101**********002X',
      verifiedAt: api.now.toISOString(),
    });
    const { identities, consents } = await storedFor(buyer.userId);
    expect(identities).toHaveLength(1);
    expect(identities[0]).toMatchObject({ birthDate: '1949-12-31', provider: 'demo', maskedName: '张**' });
    expect(JSON.stringify(identities)).not.toContain('张三丰');
    expect(JSON.stringify(identities)).not.toContain(number);
    expect(consents).toEqual([expect.objectContaining({ agreement: 'identityConsent', version: IDENTITY_CONSENT_VERSION })]);
    expect(res.text).not.toContain('张三丰');
    expect(res.text).not.toContain(number);
    expect(output.join('\n')).not.toMatch(/张三丰|11010519491231002X/);

    const again = await verify(buyer.token, { name: '张三丰', idNumber: number });
    expect(again.code).toBe(409);
    expect(again.data).toMatchObject({ reason: 'alreadyVerified' });
    const status = await api.callApi('/market/api/identity/status', {}, { token: buyer.token });
    expect(status.data).toMatchObject({ verified: true, maskedIdNumber: '1101**********002X' });
  });

  it('refuses a wrong check digit naming idNumber, in words, and stores nothing', async () => {
    const buyer = await api.buyer('13912340103');
    const res = await verify(buyer.token, { name: '李四', idNumber: '110105194912310021' });
    expect(res.code).toBe(400);
    expect(res.data).toMatchObject({ field: 'idNumber' });
    expect(res.message).toContain('the last character does not match the rest: check the number');
    const zh = await api.callApi(
      '/market/api/identity/verify',
      { name: '李四', idNumber: '110105194912310021', consentVersion: IDENTITY_CONSENT_VERSION },
      { token: buyer.token, headers: { 'accept-language': 'zh-CN' } },
    );
    expect(zh.message).toContain('最后一位与前面不符');
    expect(res.text).not.toContain('110105194912310021');
    expect(await storedFor(buyer.userId)).toEqual({ identities: [], consents: [] });
  });

  it('refuses a name with digits or of one character, naming name', async () => {
    const buyer = await api.buyer('13912340104');
    for (const name of ['李4', '李', ' ', 'x'.repeat(31)]) {
      const res = await verify(buyer.token, { name, idNumber: idNumber('11010519800101001') });
      expect([res.code, res.data]).toEqual([400, expect.objectContaining({ field: 'name' })]);
    }
  });

  it('refuses a consent version that is not the current text', async () => {
    const buyer = await api.buyer('13912340105');
    const res = await verify(buyer.token, { name: '王五', idNumber: idNumber('11010519800101002'), consentVersion: 'old' });
    expect([res.code, res.data]).toEqual([400, expect.objectContaining({ field: 'consentVersion' })]);
    expect(await storedFor(buyer.userId)).toEqual({ identities: [], consents: [] });
  });

  it('refuses an identity bound to account A for account B, without a hint of A', async () => {
    const a = await api.buyer('13912340106');
    const b = await api.buyer('13912340107', 'LUMEN');
    const number = idNumber('44030420080102123');
    expect((await verify(a.token, { name: '赵六', idNumber: number })).code).toBe(200);
    const res = await api.callApi(
      '/market/api/identity/verify',
      { name: '赵六', idNumber: number, consentVersion: IDENTITY_CONSENT_VERSION },
      { token: b.token, host: 'lumen.localhost:3000' },
    );
    expect(res.code).toBe(409);
    expect(res.data).toEqual({ reason: 'identityInUse' });
    for (const hint of [a.phone, a.maskedPhone, a.uuid, 'AURORA', 'aurora', String(a.userId)]) expect(res.text).not.toContain(hint);
    expect(await storedFor(b.userId)).toEqual({ identities: [], consents: [] });
  });

  it('answers a race for one identity by two accounts with one verification and the same identityInUse, not a 500', async () => {
    const [a, b] = [await api.buyer('13912340111'), await api.buyer('13912340112')];
    const number = idNumber('11010519800101007');
    // Both pass the check before the vendor; the unique index decides which one keeps it.
    const answers = await Promise.all([
      verify(a.token, { name: '周七', idNumber: number }),
      verify(b.token, { name: '周七', idNumber: number }),
    ]);
    expect(answers.map((answer) => answer.code).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.code === 409)!.data).toEqual({ reason: 'identityInUse' });
    const kept = await api.db
      .select()
      .from(buyerIdentities)
      .where(eq(buyerIdentities.maskedIdNumber, '1101**********' + number.slice(-4)));
    expect(kept).toHaveLength(1);
    expect(output.join('\n')).not.toMatch(/周七|11010519800101007/);
  });

  it("refuses the vendor's mismatch and no record with 409, storing nothing", async () => {
    const buyer = await api.buyer('13912340108');
    const number = idNumber('11010519800101003');
    for (const name of ['张不符', 'Li Mismatch', 'Wang NoRecord']) {
      const res = await verify(buyer.token, { name, idNumber: number });
      expect(res.code).toBe(409);
      expect(res.data).toEqual(
        name.includes('NoRecord') ? { reason: 'identityMismatch', field: 'idNumber' } : { reason: 'identityMismatch' },
      );
      expect(res.message).toMatch(name.includes('NoRecord') ? /no record of this ID number/ : /do not match/);
      expect(res.text).not.toContain(name);
      expect(res.text).not.toContain(number);
    }
    expect(await storedFor(buyer.userId)).toEqual({ identities: [], consents: [] });
    expect(output.join('\n')).not.toMatch(/不符|Mismatch|NoRecord|11010519800101003/);
  });

  it('answers a vendor that does not answer with 503 in the envelope, not the busy toast, storing nothing', async () => {
    const buyer = await api.buyer('13912340109');
    const number = idNumber('11010519800101004');
    const res = await verify(buyer.token, { name: '钱超时', idNumber: number });
    expect(res.status).toBe(200);
    expect(res.code).toBe(503);
    expect(res.message).toMatch(/did not answer/);
    expect(res.text).not.toContain(number);
    expect(await storedFor(buyer.userId)).toEqual({ identities: [], consents: [] });
    expect(output.join('\n')).not.toMatch(/钱超时|11010519800101004/);
  });

  it('allows 5 vendor calls per account per day, then 429 saying until when', async () => {
    const buyer = await api.buyer('13912340110');
    const number = idNumber('11010519800101005');
    for (let i = 0; i < 5; i++) expect((await verify(buyer.token, { name: '孙不符', idNumber: number })).code).toBe(409);
    const res = await verify(buyer.token, { name: '孙不符', idNumber: number });
    expect(res.code).toBe(429);
    expect(res.data).toMatchObject({ until: expect.any(String) });
    expect(new Date((res.data as { until: string }).until).getTime()).toBeGreaterThan(api.now.getTime());
    // A vendor that does not answer costs the buyer no try.
    const other = await api.buyer('13912340113');
    for (let i = 0; i < 6; i++) expect((await verify(other.token, { name: '孙超时', idNumber: number })).code).toBe(503);
    // Input the store refuses on its own costs no vendor call, and is still answered.
    expect((await verify(buyer.token, { name: '孙', idNumber: number })).code).toBe(400);
  });
});
