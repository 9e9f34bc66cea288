import { createTestApi, type TestApi } from '@/test/api';
import { makeBuyerFixtures, type BuyerFixtures } from '@/test/api-fixtures';
import { makeSale } from '@/test/buying';
import { buyerIdentities, holdings, holdingTransfers, notices } from '@/lib/db/schema';
import type { UserScope } from '@/lib/procedure/scope';
import { countUnopenedBoxes, listCollection } from '../collection/service';
import { listOrders } from '../order/service';
import { ORDER_STATUS } from '../order/status';
import { markNoticesRead, unreadNoticeCount } from '../notice/service';
import { addMessages, markMessagesRead, unreadMessageCount } from '../notice/inbox';
import { identityOf } from '../identity/records';
import { accountNumberOf } from '../auth/account-numbers';
import { AUTH_LIMITS } from '../auth/limits';
import { countIncoming } from '../transfer/service';
import { readMineSummary } from './mine-summary';

/**
 * /mine's counts in one statement (issue 34): for a buyer with one of everything (collectibles, an unopened box, an
 * unpaid order, notices seen and unseen, messages read and unread (issue 35), an account number, a verified name), the
 * same numbers each list and the old page's eight statements gave. Runs on PGlite and PostgreSQL.
 */
let api: TestApi;
let fixtures: BuyerFixtures;
let aurora: number;

beforeAll(async () => {
  api = await createTestApi({ now: new Date('2026-11-27T08:00:00Z') });
  fixtures = await makeBuyerFixtures(api, '13912340301');
  aurora = await api.channelId('AURORA');
});
afterAll(() => api.close());

const at = (ms: number) => new Date(api.now.getTime() + ms);
const scopeAt = (now: Date): UserScope => ({ db: api.db, now, channelId: aurora, userId: fixtures.buyer.userId });

/** What the page read before issue 34: each list's count, the account number, the name and the unread notices. */
async function asTheListsCount(scope: UserScope) {
  return {
    collectibles: (await listCollection(scope, { pageCount: 1, pageSize: 1 })).total,
    boxes: await countUnopenedBoxes(scope),
    // Expires the buyer's overdue orders first, as the records page does.
    toPay: (await listOrders(scope, { pageCount: 1, pageSize: 1, statusTrade: ORDER_STATUS.toPay })).total,
    unreadNotices: await unreadNoticeCount(scope),
    unreadMessages: await unreadMessageCount(scope),
    incomingGifts: await countIncoming(scope),
    accountNumber: await accountNumberOf(scope.db, scope.channelId, scope.userId),
    identityName: (await identityOf(scope.db, scope.userId))?.maskedName ?? null,
  };
}

function notice(publishAt: Date, title: string) {
  return { channelId: aurora, type: 'drop' as const, title, body: title, publishAt, createdAt: publishAt, updatedAt: publishAt };
}

describe("Mine's counts (issue 34)", () => {
  it('are the numbers the lists give, for a buyer with one of each kind', async () => {
    const scope = scopeAt(at(60_000));
    await accountNumberOf(api.db, aurora, fixtures.buyer.userId);
    await api.db.insert(notices).values([notice(at(1_000), 'seen'), notice(at(2_000), 'also seen')]);
    await markNoticesRead({ ...scope, now: at(3_000) });
    await api.db.insert(notices).values([notice(at(4_000), 'unseen'), notice(at(2 * 3600_000), 'scheduled')]);
    await api.db.insert(buyerIdentities).values({
      userId: fixtures.buyer.userId,
      idHash: 'mine-summary-test-hash',
      nameSealed: 'sealed',
      idNumberSealed: 'sealed',
      keyId: 'k1',
      birthDate: '1990-01-02',
      maskedName: '周**',
      maskedIdNumber: '1101**********1234',
      provider: 'demo',
      verifiedAt: api.now,
    });
    // issue 35: two messages of their own, one read since; and another buyer's, which is not theirs to count.
    const other = await api.buyer('13912340303');
    const [first, second] = await Promise.all(
      ['mine-summary-a', 'mine-summary-b'].map((code) => makeSale(api.db, { code, amount: 1, limitPerUser: 1, now: api.now })),
    );
    const message = (userId: number, saleId: number) => ({ channelId: aurora, userId, kind: 'lotteryWon' as const, saleId, params: {} });
    await addMessages(api.db, [message(fixtures.buyer.userId, first!.saleId), message(other.userId, first!.saleId)], at(1_000));
    await markMessagesRead({ ...scope, now: at(2_000) }, { all: true });
    await addMessages(api.db, [message(fixtures.buyer.userId, second!.saleId)], at(3_000));
    // issue 36: a gift from the other buyer waiting for their answer, and one they already refused.
    const gifts = await api.db
      .insert(holdings)
      .values(
        [1, 2].map((number) => ({ channelId: aurora, userId: other.userId, commodityId: first!.commodityId, number, createdAt: api.now })),
      )
      .returning({ id: holdings.id });
    await api.db.insert(holdingTransfers).values(
      gifts.map((h, i) => ({
        channelId: aurora,
        holdingId: h.id,
        senderId: other.userId,
        receiverId: fixtures.buyer.userId,
        status: i === 0 ? ('pending' as const) : ('refused' as const),
        idempotencyKey: `mine-summary-gift-${i}`,
        createdAt: api.now,
        expiresAt: at(72 * 3600_000),
      })),
    );

    const summary = await readMineSummary(scope);
    expect(summary).toEqual(await asTheListsCount(scope));
    // The fixture's buyer holds every kind, so none of the numbers is a zero that any statement would give.
    expect(summary).toMatchObject({ boxes: 1, toPay: 1, unreadNotices: 1, unreadMessages: 1, incomingGifts: 1, identityName: '周**' });
    expect(summary.collectibles).toBe(fixtures.holdingIds.length);
    expect(summary.accountNumber).toMatch(/^[1-9]\d{9}$/);
  });

  it('no longer counts an unpaid order once it is overdue, as the records page does after expiring it', async () => {
    const later = scopeAt(at(AUTH_LIMITS.sessionTtlMs));
    const summary = await readMineSummary(later);
    expect(summary.toPay).toBe(0);
    expect(summary).toEqual(await asTheListsCount(later));
  });

  it('counts another buyer’s things never, and a buyer with nothing as zeros', async () => {
    const other = await api.buyer('13912340302');
    const scope = { ...scopeAt(at(60_000)), userId: other.userId };
    const summary = await readMineSummary(scope);
    expect(summary).toEqual({
      collectibles: 0,
      boxes: 0,
      toPay: 0,
      // Every notice visible now: this buyer never opened the list.
      unreadNotices: await unreadNoticeCount(scope),
      unreadMessages: 0,
      incomingGifts: 0,
      accountNumber: null,
      identityName: null,
    });
    expect(summary.unreadNotices).toBeGreaterThanOrEqual(3);
  });
});
