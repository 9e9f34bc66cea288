import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { makeUsers } from '@/test/buying';
import { buyerIdentities, channels } from '../db/schema';
import { accountNumberOf } from '../auth/account-numbers';
import { dayIn } from '../channel/identity-policy';
import { verifiedBuyerCounts } from './service';

// issue 33, "The console shows a buyer's verification state (masked), and the verification counts in the reports":
// the buyer view says whether and when the buyer verified, only in masked forms; the Reports tab counts the channel's
// verified buyers, in all and on the channel's today, and no one else's.

let api: TestApi;
let manager: TestOperator;
const HOUR = 3_600_000;

beforeAll(async () => {
  api = await createTestApi();
  manager = await signedInOperator(api.db, {
    name: 'verif.aurora',
    role: 'manager',
    channels: ['AURORA'],
    now: new Date(api.now.getTime() - 60_000),
  });
  await api.db.update(channels).set({ timeZone: 'Asia/Shanghai' }).where(eq(channels.key, 'AURORA'));
});
afterAll(() => api.close());

let hashes = 0;
async function verify(userId: number, verifiedAt: Date): Promise<void> {
  await api.db.insert(buyerIdentities).values({
    userId,
    idHash: `verif-hash-${++hashes}`,
    nameSealed: 'sealed',
    idNumberSealed: 'sealed',
    keyId: 'test',
    birthDate: '1990-03-07',
    maskedName: '张*',
    maskedIdNumber: '1101**********1234',
    provider: 'demo',
    verifiedAt,
  });
}

it("counts the channel's verified buyers, in all and on the channel's today, and no other channel's", async () => {
  const aurora = await api.channelId('AURORA');
  const today = dayIn('Asia/Shanghai', api.now);
  const before = await verifiedBuyerCounts(api.db, aurora, 'Asia/Shanghai', today);

  const todays = await api.buyer('13944000001', 'AURORA');
  const earlier = await api.buyer('13944000002', 'AURORA');
  await api.buyer('13944000003', 'AURORA'); // not verified
  const elsewhere = await api.buyer('13944000004', 'LUMEN');
  const [nowhere] = await makeUsers(api.db, 1, '4404');
  await verify(todays.userId, api.now);
  await verify(earlier.userId, new Date(api.now.getTime() - 48 * HOUR));
  await verify(elsewhere.userId, api.now);
  await verify(nowhere!, api.now);

  expect(await verifiedBuyerCounts(api.db, aurora, 'Asia/Shanghai', today)).toEqual({
    total: before.total + 2,
    today: before.today + 1,
  });
});

it('the buyer view shows the verification masked, or that there is none', async () => {
  const aurora = await api.channelId('AURORA');
  const verified = await api.buyer('13944000011', 'AURORA');
  const plain = await api.buyer('13944000012', 'AURORA');
  await verify(verified.userId, api.now);
  const view = async (userId: number) =>
    api.callApi(
      '/ops/api/buyer/view',
      { channel: 'AURORA', accountNumber: await accountNumberOf(api.db, aurora, userId, api.now) },
      { host: OPS_HOST, headers: { cookie: manager.cookie } },
    );
  const seen = await view(verified.userId);
  expect(seen.data).toMatchObject({
    identity: { maskedName: '张*', maskedIdNumber: '1101**********1234', verifiedAt: api.now.toISOString() },
  });
  expect(seen.text).not.toContain('sealed');
  expect(seen.text).not.toContain('verif-hash');
  expect(seen.text).not.toContain('1990-03-07');
  expect((await view(plain.userId)).data).toMatchObject({ identity: null });
});
