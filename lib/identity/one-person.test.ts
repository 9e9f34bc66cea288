import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { makeSale } from '@/test/buying';
import { buyerIdentities, channels } from '../db/schema';
import { residentIdCheckDigit } from '../format/resident-id';
import { IDENTITY_CONSENT_VERSION } from './consent';

// Issue 33: "one person with five phones is one buyer". An identity verifies one account in the deployment, so on a
// channel that asks a real name before buying, a person's other phones cannot buy past the per-buyer limit their
// verified account has reached: they cannot verify with the same identity, and unverified they cannot buy at all.

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
  await api.db
    .update(channels)
    .set({ identityPolicy: { realName: { buy: true } } })
    .where(eq(channels.key, 'AURORA'));
});
afterAll(async () => {
  await api.close();
});

const first17 = '44030519900615123';
const person = { name: '陈一人', idNumber: first17 + residentIdCheckDigit(first17) };

const verify = (token: string) =>
  api.callApi('/market/api/identity/verify', { consentVersion: IDENTITY_CONSENT_VERSION, ...person }, { token });
const buy = (token: string, saleId: number, key: string) =>
  api.callApi('/market/api/order/create', { saleId: String(saleId), quantity: 1, idempotencyKey: `one-person-${key}` }, { token });

it('a person with three phones and one identity buys no more than the per-buyer limit across them', async () => {
  jest.spyOn(console, 'info').mockImplementation(() => {});
  const sale = await makeSale(api.db, { code: 'one-person', amount: 10, limitPerUser: 2, now: api.now });
  const [first, second, third] = await Promise.all(['13912349001', '13912349002', '13912349003'].map((phone) => api.buyer(phone)));

  // The first phone verifies the person and buys up to the limit; a third copy is refused.
  expect((await verify(first!.token)).code).toBe(200);
  expect((await buy(first!.token, sale.saleId, 'p1-a')).code).toBe(200);
  expect((await buy(first!.token, sale.saleId, 'p1-b')).code).toBe(200);
  expect((await buy(first!.token, sale.saleId, 'p1-c')).code).toBe(409);

  for (const [phone, other] of [
    ['second', second!],
    ['third', third!],
  ] as const) {
    // The same identity on another phone: refused, without saying which account holds it.
    const refused = await verify(other.token);
    expect({ phone, code: refused.code, reason: refused.body.data?.reason }).toEqual({ phone, code: 409, reason: 'identityInUse' });
    expect(refused.message).not.toContain(first!.phone.slice(-4));
    // And unverified, no buy at all on this channel.
    const buying = await buy(other.token, sale.saleId, `${phone}-a`);
    expect({ phone, code: buying.code, reason: buying.body.data?.reason }).toEqual({ phone, code: 1010, reason: 'identityRequired' });
  }

  // One identity row, on the first account; two copies sold in all.
  const rows = await api.db.select({ userId: buyerIdentities.userId }).from(buyerIdentities).where(eq(buyerIdentities.maskedName, '陈**'));
  expect(rows).toEqual([{ userId: first!.userId }]);
});
