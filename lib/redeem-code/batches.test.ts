import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { channels, operatorAudit, redeemCodeBatches } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import { recordAudit } from '@/lib/operator/audit';
import { claimGift } from '@/lib/gift/service';
import { createCampaign, createOffer, type CampaignAudit } from '@/lib/campaign/manage';
import {
  batchSealKey,
  batchUsage,
  exportBatch,
  generateBatch,
  importBatch,
  listBatches,
  revokeBatch,
  revokeCode,
  BATCH_LIMITS,
} from './batches';
import { generateCode } from './service';

// issue 32, "redeem-code batches": generate N codes of the project's format or import given ones, export a generated
// batch once as CSV, revoke a batch or a code, see which were used and by whom (masked); a revoked or expired code is
// refused at claim with its own words in both languages.

const t0 = new Date('2026-11-22T08:00:00Z');
const HOUR = 3_600_000;
const db = seededTestDb(t0);
const sealKey = batchSealKey('a test secret of at least thirty-two characters');
const by = { operatorId: null, name: 'test operator' };
let seq = 0;

async function channelId(key: string): Promise<number> {
  const [c] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, key));
  return c!.id;
}

/** A gift campaign of AURORA with one offer asking for a code. */
async function codeGift(total = 2000) {
  const n = ++seq;
  const { commodityId, channelId: ch } = await makeSale(db, {
    code: `batch-gift-${n}`,
    amount: 1,
    limitPerUser: 1,
    amountSku: 5000,
    now: t0,
  });
  const campaign = await createCampaign(db, {
    channelId: ch,
    kind: 'gift',
    code: `batch-campaign-${n}`,
    name: `Codes ${n}`,
    description: '',
    cover: '',
    startTime: new Date(t0.getTime() - HOUR),
    endTime: null,
    sort: 0,
  });
  const offer = await createOffer(db, {
    channelId: ch,
    campaignId: campaign.id,
    commodityId,
    total,
    limitPerUser: 5,
    requiresCommodityId: null,
    requiresCode: true,
    inputs: [],
    sort: 0,
  });
  return { channelId: ch, campaignId: campaign.id, offerId: offer.id };
}

const buyer = (ch: number, userId: number, now = t0) => ({ db, now, channelId: ch, userId, ip: '203.0.113.9' });

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** Reads the CSV's codes. */
const codesOf = (csv: string) =>
  csv
    .trim()
    .split('\r\n')
    .slice(1)
    .map((line) => line.split(',')[0]!);

describe('a batch of 1,000 generated codes (the issue test)', () => {
  it('exports once, serves a buyer, and once revoked refuses the next code in both languages', async () => {
    const gift = await codeGift();
    const batch = await generateBatch(db, {
      channelId: gift.channelId,
      offerId: gift.offerId,
      size: 1000,
      expiresAt: null,
      by,
      now: t0,
      sealKey,
    });
    expect(batch).toMatchObject({ size: 1000, source: 'generated', exportable: true, used: 0 });

    const exported = await exportBatch(db, { channelId: gift.channelId, batchId: batch.id, now: t0, sealKey });
    const codes = codesOf(exported.csv);
    expect(codes).toHaveLength(1000);
    expect(new Set(codes).size).toBe(1000);
    for (const c of codes) expect(c).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{3}(-[0-9A-HJKMNP-TV-Z]{1,4}){6}$/);

    const second = await refusal(exportBatch(db, { channelId: gift.channelId, batchId: batch.id, now: t0, sealKey }));
    expect(second.code).toBe(409);
    expect(second.data?.field).toBe('batchId');
    expect(second.messageIn('en')).toMatch(/only ever exported once/);
    // The sealed copy is gone from the database after the export.
    const [row] = await db.select().from(redeemCodeBatches).where(eq(redeemCodeBatches.id, batch.id));
    expect(row!.sealedCodes).toBeNull();

    const [userId] = await makeUsers(db, 1, '7101');
    const claim = await claimGift(buyer(gift.channelId, userId!), {
      campaignId: gift.campaignId,
      offerId: gift.offerId,
      code: codes[0]!,
      idempotencyKey: 'b-1',
    });
    expect(claim).toBeTruthy();
    const usage = await batchUsage(db, { channelId: gift.channelId, batchId: batch.id, now: t0 });
    expect(usage.used).toHaveLength(1);
    expect(usage.used[0]!.usedBy).toBe('171****0000');
    expect(usage.batch.used).toBe(1);

    await revokeBatch(db, { channelId: gift.channelId, batchId: batch.id, now: t0 });
    const refused = await refusal(
      claimGift(buyer(gift.channelId, userId!), {
        campaignId: gift.campaignId,
        offerId: gift.offerId,
        code: codes[1]!,
        idempotencyKey: 'b-2',
      }),
    );
    expect(refused.code).toBe(409);
    expect(refused.data?.field).toBe('code');
    expect(refused.messageIn('en')).toBe('This redeem code has been withdrawn by the store and can no longer be used.');
    expect(refused.messageIn('zh-CN')).toBe('该兑换码已被商家作废，无法使用');
    // The code used before the revocation stays used (the buyer keeps the gift).
    expect((await batchUsage(db, { channelId: gift.channelId, batchId: batch.id, now: t0 })).used).toHaveLength(1);
  });
});

describe('batches', () => {
  it('an expired batch refuses its codes with the expiry in both languages; before it, they work', async () => {
    const gift = await codeGift();
    const batch = await generateBatch(db, {
      channelId: gift.channelId,
      offerId: gift.offerId,
      size: 3,
      expiresAt: new Date(t0.getTime() + HOUR),
      by,
      now: t0,
      sealKey,
    });
    const codes = codesOf((await exportBatch(db, { channelId: gift.channelId, batchId: batch.id, now: t0, sealKey })).csv);
    const [userId] = await makeUsers(db, 1, '7102');
    await claimGift(buyer(gift.channelId, userId!), {
      campaignId: gift.campaignId,
      offerId: gift.offerId,
      code: codes[0]!,
      idempotencyKey: 'e-1',
    });
    const later = new Date(t0.getTime() + 2 * HOUR);
    const refused = await refusal(
      claimGift(buyer(gift.channelId, userId!, later), {
        campaignId: gift.campaignId,
        offerId: gift.offerId,
        code: codes[1]!,
        idempotencyKey: 'e-2',
      }),
    );
    expect(refused.messageIn('en', 'Asia/Shanghai')).toBe('This redeem code expired on November 22, 2026 at 17:00.');
    expect(refused.messageIn('zh-CN', 'Asia/Shanghai')).toBe('该兑换码已于 2026年11月22日 17:00 过期');
  });

  it('one code revoked by its text is refused; the batch’s others still work', async () => {
    const gift = await codeGift();
    const batch = await generateBatch(db, {
      channelId: gift.channelId,
      offerId: gift.offerId,
      size: 2,
      expiresAt: null,
      by,
      now: t0,
      sealKey,
    });
    const codes = codesOf((await exportBatch(db, { channelId: gift.channelId, batchId: batch.id, now: t0, sealKey })).csv);
    await revokeCode(db, { channelId: gift.channelId, offerId: gift.offerId, code: codes[0]!.toLowerCase(), now: t0 });
    const [a, b] = await makeUsers(db, 2, '7103');
    const refused = await refusal(
      claimGift(buyer(gift.channelId, a!), { campaignId: gift.campaignId, offerId: gift.offerId, code: codes[0]!, idempotencyKey: 'r-1' }),
    );
    expect(refused.text?.key).toBe('codeRevoked');
    await claimGift(buyer(gift.channelId, b!), {
      campaignId: gift.campaignId,
      offerId: gift.offerId,
      code: codes[1]!,
      idempotencyKey: 'r-2',
    });
    expect((await listBatches(db, gift.channelId, gift.offerId, t0))[0]).toMatchObject({ used: 1, revokedCodes: 1 });
    // A code used cannot be revoked (the buyer holds its gift); the refusal names the code.
    const used = await refusal(revokeCode(db, { channelId: gift.channelId, offerId: gift.offerId, code: codes[1]!, now: t0 }));
    expect(used.data?.field).toBe('code');
  });

  it('imports given codes (as the demo does), refuses a line that is no code or repeats one, and never exports them', async () => {
    const gift = await codeGift();
    const given = [generateCode(), generateCode()];
    const bad = await refusal(
      importBatch(db, { channelId: gift.channelId, offerId: gift.offerId, codes: [given[0]!, 'hello'], expiresAt: null, by, now: t0 }),
    );
    expect(bad.data?.field).toBe('codes');
    expect(bad.messageIn('en')).toMatch(/^Line 2 /);
    const twice = await refusal(
      importBatch(db, {
        channelId: gift.channelId,
        offerId: gift.offerId,
        codes: [given[0]!, given[0]!.toLowerCase()],
        expiresAt: null,
        by,
        now: t0,
      }),
    );
    expect(twice.messageIn('en')).toMatch(/^Line 2 repeats/);
    const batch = await importBatch(db, { channelId: gift.channelId, offerId: gift.offerId, codes: given, expiresAt: null, by, now: t0 });
    expect(batch).toMatchObject({ size: 2, source: 'imported', exportable: false });
    const again = await refusal(
      importBatch(db, { channelId: gift.channelId, offerId: gift.offerId, codes: [given[1]!], expiresAt: null, by, now: t0 }),
    );
    expect(again.messageIn('en')).toMatch(/^Line 1 repeats/);
    expect((await refusal(exportBatch(db, { channelId: gift.channelId, batchId: batch.id, now: t0, sealKey }))).text?.key).toBe(
      'opsBatchImported',
    );
    const [userId] = await makeUsers(db, 1, '7104');
    await claimGift(buyer(gift.channelId, userId!), {
      campaignId: gift.campaignId,
      offerId: gift.offerId,
      code: given[1]!,
      idempotencyKey: 'i-1',
    });
  });

  it('a generated batch not exported within the seal time is gone for good', async () => {
    const gift = await codeGift();
    const batch = await generateBatch(db, {
      channelId: gift.channelId,
      offerId: gift.offerId,
      size: 2,
      expiresAt: null,
      by,
      now: t0,
      sealKey,
    });
    const late = new Date(t0.getTime() + (BATCH_LIMITS.sealHours + 1) * HOUR);
    const refused = await refusal(exportBatch(db, { channelId: gift.channelId, batchId: batch.id, now: late, sealKey }));
    expect(refused.text?.key).toBe('opsBatchSealExpired');
    const [row] = await db.select().from(redeemCodeBatches).where(eq(redeemCodeBatches.id, batch.id));
    expect(row!.sealedCodes).toBeNull();
  });

  it('two exports at once: one gets the codes, the other is refused', async () => {
    const gift = await codeGift();
    const batch = await generateBatch(db, {
      channelId: gift.channelId,
      offerId: gift.offerId,
      size: 5,
      expiresAt: null,
      by,
      now: t0,
      sealKey,
    });
    const results = await Promise.allSettled(
      [1, 2].map(() => exportBatch(db, { channelId: gift.channelId, batchId: batch.id, now: t0, sealKey })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => ((r as PromiseRejectedResult).reason as AppError).text?.key)).toEqual([
      'opsBatchExported',
    ]);
  });

  it('another channel’s batch or offer is not found; an offer without codes takes no batch', async () => {
    const gift = await codeGift();
    const batch = await generateBatch(db, {
      channelId: gift.channelId,
      offerId: gift.offerId,
      size: 1,
      expiresAt: null,
      by,
      now: t0,
      sealKey,
    });
    const lumen = await channelId('LUMEN');
    expect((await refusal(exportBatch(db, { channelId: lumen, batchId: batch.id, now: t0, sealKey }))).code).toBe(404);
    expect((await refusal(revokeBatch(db, { channelId: lumen, batchId: batch.id, now: t0 }))).code).toBe(404);
    expect(
      (await refusal(generateBatch(db, { channelId: lumen, offerId: gift.offerId, size: 1, expiresAt: null, by, now: t0, sealKey }))).code,
    ).toBe(404);
    const { commodityId } = await makeSale(db, { code: 'batch-welcome', amount: 1, limitPerUser: 1, now: t0 });
    const welcome = await createOffer(db, {
      channelId: gift.channelId,
      campaignId: gift.campaignId,
      commodityId,
      total: 10,
      limitPerUser: 1,
      requiresCommodityId: null,
      requiresCode: false,
      inputs: [],
      sort: 1,
    });
    const noCode = await refusal(
      generateBatch(db, { channelId: gift.channelId, offerId: welcome.id, size: 1, expiresAt: null, by, now: t0, sealKey }),
    );
    expect(noCode.data?.field).toBe('offerId');
  });

  it('its generation is one audit entry naming the size, never a code', async () => {
    const gift = await codeGift();
    const audit: CampaignAudit = (tx, change) =>
      recordAudit(tx, {
        at: t0,
        operatorId: null,
        operatorName: 'auditor',
        ip: '127.0.0.1',
        channelId: change.channelId,
        procedure: 'test/batch',
        input: { size: 3 },
        after: change.after,
      });
    await generateBatch(db, { channelId: gift.channelId, offerId: gift.offerId, size: 3, expiresAt: null, by, now: t0, sealKey }, audit);
    const entries = await db.select().from(operatorAudit).where(eq(operatorAudit.procedure, 'test/batch'));
    expect(entries).toHaveLength(1);
    expect(entries[0]!.after).toMatchObject({ size: 3, source: 'generated' });
    expect(JSON.stringify(entries[0])).not.toMatch(/[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-/);
  });
});
