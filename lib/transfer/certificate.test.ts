import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { accountNumberOf } from '@/lib/auth/account-numbers';
import { channels, holdings, users } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import type { UserScope } from '@/lib/procedure/scope';
import { acceptTransfer, giveHolding } from './service';
import { CERTIFICATE_CODE, giftableEditions, ownCertificate, publicCertificate } from './certificate';

// A held edition's certificate (issue 36; docs/gifting.md, "Certificate"): what its owner's page and its public page
// show, before and after a gift. Runs on PGlite and, with PG_TEST_PORT, on PostgreSQL.

const t0 = new Date('2026-11-28T08:00:00Z');
const HOUR = 3_600_000;
const at = (hours: number) => new Date(t0.getTime() + hours * HOUR);

const db = seededTestDb(t0);

let aurora = 0;
let lumen = 0;
let commodityId = 0;
let edition = 0;
let userSeq = 0;

beforeAll(async () => {
  const sale = await makeSale(db, { code: 'CERT-T', amount: 500, amountSku: 500, limitPerUser: 10, now: t0 });
  aurora = sale.channelId;
  commodityId = sale.commodityId;
  const [l] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'LUMEN'));
  lumen = l!.id;
});

async function buyer(nickname: string | null): Promise<{ id: number; number: string; phone: string }> {
  userSeq += 1;
  const [id] = await makeUsers(db, 1, `87${String(userSeq).padStart(2, '0')}`);
  const [row] = await db.update(users).set({ nickname }).where(eq(users.id, id!)).returning({ phone: users.phone });
  return { id: id!, number: await accountNumberOf(db, aurora, id!, t0), phone: row!.phone };
}

async function holding(userId: number, ageHours = 48, source: 'order' | 'box' | 'gift' = 'order'): Promise<number> {
  edition += 1;
  const [row] = await db
    .insert(holdings)
    .values({
      channelId: aurora,
      userId,
      commodityId,
      number: edition,
      source,
      createdAt: at(-ageHours),
      chainStatus: 1,
      tokenId: `8234567890123456789012345678901234567890${edition}`,
      tradeHash: `0x${'ab'.repeat(32)}`,
    })
    .returning({ id: holdings.id });
  return row!.id;
}

const scope = (userId: number, now = t0, channelId = aurora): UserScope => ({ db, now, channelId, userId, ip: '203.0.113.36' });

async function code404(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the certificate of a held edition', () => {
  it('shows its owner the edition, the full token id and hash, how it came, and a public code that stays', async () => {
    const a = await buyer('Alice Wang');
    const id = await holding(a.id, 48, 'box');
    const mine = await ownCertificate(scope(a.id), id);
    expect(mine).toMatchObject({
      holdingId: String(id),
      name: expect.any(String),
      number: edition,
      amountNumber: 500,
      onChain: true,
      tokenId: `8234567890123456789012345678901234567890${edition}`,
      txHash: `0x${'ab'.repeat(32)}`,
      acquired: { how: 'box', at: at(-48).toISOString(), from: null },
      holder: 'A****g',
      provenance: [{ name: 'A****g', since: at(-48).toISOString() }],
      canGive: true,
      why: null,
    });
    expect(mine.code).toMatch(CERTIFICATE_CODE);
    // Random, not the holding's id: another edition's code has nothing in common with it.
    const next = await ownCertificate(scope(a.id), await holding(a.id, 48));
    expect(next.code).toMatch(CERTIFICATE_CODE);
    expect(next.code).not.toBe(mine.code);
    // The code is made once: the next visit shows the same one.
    expect((await ownCertificate(scope(a.id, at(1)), id)).code).toBe(mine.code);
  });

  it("answers another buyer's edition as an unknown one (404), and an edition in the holding period with from when", async () => {
    const a = await buyer('Alice Wang');
    const other = await buyer('Bo');
    const fresh = await holding(a.id, 2);
    expect(await code404(ownCertificate(scope(other.id), fresh))).toBe(404);
    expect(await code404(ownCertificate(scope(a.id), 999_999))).toBe(404);
    expect(await code404(ownCertificate(scope(a.id, t0, lumen), fresh))).toBe(404);
    expect(await ownCertificate(scope(a.id), fresh)).toMatchObject({ canGive: false, why: 'holdingPeriod', from: at(22).toISOString() });
  });

  it('after a gift: the receiver sees who gave it and the provenance; the public link follows the edition', async () => {
    const a = await buyer('Alice Wang');
    const b = await buyer(null);
    const id = await holding(a.id, 48);
    const code = (await ownCertificate(scope(a.id), id)).code;
    const before = await publicCertificate({ db, now: t0, channelId: aurora }, code);
    expect(before).toMatchObject({ holder: 'A****g', provenance: [{ name: 'A****g' }] });

    const sent = await giveHolding(scope(a.id, at(1)), { holdingId: id, accountNumber: b.number, idempotencyKey: `cert-${id}` });
    // Offered: the owner's page says so, and the public page still shows the sender as the holder.
    expect(await ownCertificate(scope(a.id, at(1)), id)).toMatchObject({ canGive: false, why: 'offered' });
    await acceptTransfer(scope(b.id, at(2)), Number(sent.id));

    const bMasked = `****${b.phone.slice(-4)}`;
    const theirs = await ownCertificate(scope(b.id, at(3)), id);
    expect(theirs).toMatchObject({
      code,
      holder: bMasked,
      acquired: { how: 'gift', at: at(2).toISOString(), from: 'A****g' },
      provenance: [
        { name: 'A****g', since: at(-48).toISOString() },
        { name: bMasked, since: at(2).toISOString() },
      ],
      // The holding period starts again from the gift.
      canGive: false,
      why: 'holdingPeriod',
    });
    expect(await code404(ownCertificate(scope(a.id, at(3)), id))).toBe(404);

    const after = await publicCertificate({ db, now: at(3), channelId: aurora }, code);
    expect(after).toMatchObject({ holder: bMasked, provenance: [{ name: 'A****g' }, { name: bMasked }] });
    // Nothing of the holders beyond their masked names: no phone number, no account number.
    const json = JSON.stringify(after);
    for (const secret of [a.phone, b.phone, a.number, b.number]) expect(json).not.toContain(secret);
  });

  it('answers no certificate for an unknown code, a malformed one, or another channel', async () => {
    const a = await buyer('Alice Wang');
    const id = await holding(a.id);
    const { code } = await ownCertificate(scope(a.id), id);
    expect(await publicCertificate({ db, now: t0, channelId: aurora }, 'A'.repeat(22))).toBeNull();
    expect(await publicCertificate({ db, now: t0, channelId: aurora }, String(id))).toBeNull();
    expect(await publicCertificate({ db, now: t0, channelId: lumen }, code)).toBeNull();
  });

  it('lists the editions a buyer can give now, for the page a gift code opens', async () => {
    const a = await buyer('Alice Wang');
    const old = await holding(a.id, 48);
    await holding(a.id, 2);
    const listed = await giftableEditions(scope(a.id));
    expect(listed.map((e) => e.holdingId)).toEqual([String(old)]);
  });
});
