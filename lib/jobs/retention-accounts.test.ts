import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import { createTestApi, type TestApi, type TestBuyer } from '@/test/api';
import { makeSale } from '@/test/buying';
import { FolderMediaStore } from '@/lib/media/store';
import {
  agreementAcceptances,
  avatarPhotos,
  buyerIdentities,
  channels,
  holdings,
  orderRefunds,
  orders,
  payments,
  saleQuotas,
} from '@/lib/db/schema';
import { residentIdCheckDigit } from '@/lib/format/resident-id';
import { IDENTITY_CONSENT_VERSION } from '@/lib/identity/consent';
import { AVATAR_UPLOAD_HEADER, AVATAR_UPLOAD_PATH, handleAvatarUpload } from '../server/avatar-upload';
import { PRESET_AVATARS } from '../buyer/avatars';
import { RETENTION, sweepExpiredRecords } from './retention';

// A busy machine's event loop must not shed these buys as a drop's would (lib/server/dispatcher.ts).
process.env.BUY_MAX_LAG_MS = '60000';

// Issue 36: what a closed account keeps goes when its period ends (docs/security.md, "Closed accounts"), and photos no
// longer anyone's avatar leave the media store after a grace (docs/profile.md). Times are the sweep's clock. Runs on
// PGlite, and on PostgreSQL under scripts/with-postgres.sh.

const DAY = 24 * 3600_000;
let api: TestApi;
let root: string;
let store: FolderMediaStore;
beforeAll(async () => {
  api = await createTestApi({ now: new Date('2026-11-28T08:00:00Z') });
  await api.db
    .update(channels)
    .set({ identityPolicy: { realName: { buy: true } } })
    .where(eq(channels.key, 'AURORA'));
  root = await mkdtemp(path.join(tmpdir(), 'retention-accounts-'));
  store = new FolderMediaStore(root);
});
afterAll(async () => {
  await api.close();
  await rm(root, { recursive: true, force: true });
});

const sweep = (at: Date) => sweepExpiredRecords(api.db, at, { store: () => store });
const later = (days: number, ms = 0) => new Date(api.now.getTime() + days * DAY + ms);

async function close(buyer: TestBuyer): Promise<void> {
  const sent = await api.callApi('/market/api/profile/closeCode', {}, { token: buyer.token });
  const code = (sent.data as { demoCode: string }).demoCode;
  expect((await api.callApi('/market/api/profile/close', { code }, { token: buyer.token })).data).toEqual({ closed: true });
}

describe('closed accounts after the period', () => {
  it('keep their identity until 3 years after closing and their last trade, then lose it; the trade records stay', async () => {
    jest.spyOn(console, 'info').mockImplementation(() => {});
    const first17 = '44030519900615125';
    const person = { name: '孙到期', idNumber: first17 + residentIdCheckDigit(first17) };
    const sale = await makeSale(api.db, { code: 'retention-closed', amount: 5, limitPerUser: 2, now: api.now });
    const buyer = await api.buyer('13912371001');
    expect(
      (await api.callApi('/market/api/identity/verify', { consentVersion: IDENTITY_CONSENT_VERSION, ...person }, { token: buyer.token }))
        .code,
    ).toBe(200);
    const made = await api.callApi(
      '/market/api/order/create',
      { saleId: String(sale.saleId), quantity: 1, idempotencyKey: 'retention-closed-1' },
      { token: buyer.token },
    );
    expect(made.code).toBe(200);
    await api.db.update(orders).set({ statusTrade: 1, payTime: api.now }).where(eq(orders.userId, buyer.userId));
    const [order] = await api.db.select().from(orders).where(eq(orders.userId, buyer.userId));
    await api.db.insert(holdings).values({
      channelId: sale.channelId,
      userId: buyer.userId,
      commodityId: sale.commodityId,
      number: 1,
      orderId: order!.id,
      createdAt: api.now,
    });
    const [payment] = await api.db
      .insert(payments)
      .values({
        paymentNo: 'P-retention-closed',
        orderId: order!.id,
        provider: 'wechat',
        amount: 1000,
        status: 1,
        createdAt: api.now,
        settledAt: api.now,
        payerOpenid: 'o-retention-payer',
      })
      .returning({ id: payments.id });
    await close(buyer);

    const kept = async () => ({
      identity: (await api.db.select().from(buyerIdentities).where(eq(buyerIdentities.userId, buyer.userId))).length,
      agreements: (await api.db.select().from(agreementAcceptances).where(eq(agreementAcceptances.userId, buyer.userId))).length > 0,
      quotas: (await api.db.select().from(saleQuotas).where(eq(saleQuotas.userId, buyer.userId))).length,
      openid: (await api.db.select({ o: payments.payerOpenid }).from(payments).where(eq(payments.id, payment!.id)))[0]!.o,
      orders: (await api.db.select().from(orders).where(eq(orders.userId, buyer.userId))).length,
      holdings: (await api.db.select().from(holdings).where(eq(holdings.userId, buyer.userId))).length,
    });
    const all = { identity: 1, agreements: true, quotas: 1, openid: 'o-retention-payer', orders: 1, holdings: 1 };
    expect(await kept()).toEqual(all);

    // An operator refunds the order 100 days after the closing: the period runs from that trade.
    await api.db.insert(orderRefunds).values({
      refundNo: 'R-retention-closed',
      orderId: order!.id,
      channelId: sale.channelId,
      paymentId: payment!.id,
      quantity: 1,
      amount: 1000,
      reason: 'sale cancelled',
      status: 'done',
      idempotencyKey: 'retention-closed-refund',
      createdAt: later(100),
      doneAt: later(100),
    });

    // 3 years after the closing, not yet after the refund: all kept.
    expect((await sweep(later(RETENTION.closedAccountDays, 1))).closedAccounts).toBe(0);
    expect(await kept()).toEqual(all);
    // A moment before 3 years after the refund: still kept.
    expect((await sweep(later(100 + RETENTION.closedAccountDays, -1))).closedAccounts).toBe(0);
    expect(await kept()).toEqual(all);
    // After: the identity and what else was kept of the person go; the orders and holdings stay.
    expect((await sweep(later(100 + RETENTION.closedAccountDays, 1))).closedAccounts).toBe(1);
    expect(await kept()).toEqual({ identity: 0, agreements: false, quotas: 0, openid: null, orders: 1, holdings: 1 });
    expect((await api.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, order!.id))).length).toBe(1);
    // Nothing left to sweep of it: the next pass finds nothing.
    expect((await sweep(later(101 + RETENTION.closedAccountDays))).closedAccounts).toBe(0);
  });

  it('never sweeps an open account, however old', async () => {
    const buyer = await api.buyer('13912371002');
    const first17 = '11010519850302124';
    const person = { name: '周长久', idNumber: first17 + residentIdCheckDigit(first17) };
    expect(
      (await api.callApi('/market/api/identity/verify', { consentVersion: IDENTITY_CONSENT_VERSION, ...person }, { token: buyer.token }))
        .code,
    ).toBe(200);
    await sweep(later(10 * 365));
    expect(await api.db.select().from(buyerIdentities).where(eq(buyerIdentities.userId, buyer.userId))).toHaveLength(1);
  });
});

describe('photos no longer anyone’s avatar', () => {
  const photo = (r: number) =>
    sharp({ create: { width: 300, height: 300, channels: 3, background: { r, g: 80, b: 40 } } })
      .png()
      .toBuffer();

  async function upload(buyer: TestBuyer, bytes: Buffer, now = api.now): Promise<string> {
    const request = new Request(`http://aurora.localhost:3000${AVATAR_UPLOAD_PATH}`, {
      method: 'POST',
      headers: { host: 'aurora.localhost:3000', [AVATAR_UPLOAD_HEADER]: '1', authorization: `Bearer ${buyer.token}` },
      body: new Uint8Array(bytes),
    });
    const response = await handleAvatarUpload(request, { db: api.db, now, store });
    expect(response.status).toBe(200);
    const json = (await response.json()) as { data: { avatar: string } };
    return json.data.avatar;
  }
  const stored = async (url: string) => (await store.get(store.keyOf(url)!)) !== null;

  it('are deleted a day after they were replaced or their account closed; an avatar in use never is', async () => {
    const replacer = await api.buyer('13912372001');
    const closer = await api.buyer('13912372002');
    const keeper = await api.buyer('13912372003');
    const replaced = await upload(replacer, await photo(10));
    const ofClosed = await upload(closer, await photo(20));
    const inUse = await upload(keeper, await photo(30));
    expect(new Set([replaced, ofClosed, inUse]).size).toBe(3);

    // The first buyer picks a shipped picture instead; the second closes their account.
    expect((await api.callApi('/market/api/profile/update', { avatar: PRESET_AVATARS[0] }, { token: replacer.token })).code).toBe(200);
    await close(closer);

    // The first pass finds them unused; a day's grace from then.
    const start = later(0, 60_000);
    expect((await sweep(start)).avatarPhotos).toBe(0);
    expect((await sweep(new Date(start.getTime() + RETENTION.unusedAvatarDays * DAY - 1))).avatarPhotos).toBe(0);
    expect([await stored(replaced), await stored(ofClosed), await stored(inUse)]).toEqual([true, true, true]);
    expect((await sweep(new Date(start.getTime() + RETENTION.unusedAvatarDays * DAY + 1))).avatarPhotos).toBe(2);
    expect([await stored(replaced), await stored(ofClosed), await stored(inUse)]).toEqual([false, false, true]);
    expect(await api.db.select({ url: avatarPhotos.url }).from(avatarPhotos).where(eq(avatarPhotos.url, inUse))).toHaveLength(1);

    // Long after, the photo in use is still there.
    await sweep(later(30));
    expect(await stored(inUse)).toBe(true);
  });

  it('keeps a photo set again within the grace (the same photo uploaded again)', async () => {
    const buyer = await api.buyer('13912372004');
    const bytes = await photo(40);
    const url = await upload(buyer, bytes);
    expect((await api.callApi('/market/api/profile/update', { avatar: null }, { token: buyer.token })).code).toBe(200);
    await sweep(later(0, 60_000));
    // Uploaded again half a day later: in use again, unmarked.
    expect(await upload(buyer, bytes, later(0.5))).toBe(url);
    await sweep(later(3));
    expect(await stored(url)).toBe(true);
    expect(
      await api.db
        .select()
        .from(avatarPhotos)
        .where(and(eq(avatarPhotos.url, url))),
    ).toEqual([expect.objectContaining({ unusedSince: null })]);
  });
});
