import { and, eq, sql } from 'drizzle-orm';
import { campaignOffers, campaigns, chainCampaigns, commodities, holdings, notices, sales } from '@/lib/db/schema';
import { demoCode } from '@/lib/demo/seed-data';
import { chainUpPending } from '@/lib/chain/ledger-job';
import { accountNumberOf } from '@/lib/auth/account-numbers';
import type { ApiPath } from '@/lib/server/registry';
import type { ApiAnswer, TestApi, TestBuyer } from './api';

/**
 * Buyer A on AURORA with one of everything a buyer can own, made through the API as a phone would: an unpaid order
 * with an open payment, paid orders and their holdings (on the chain ledger, with token ids and tx hashes), an unopened
 * blind box, a gift received, an exchange made and a code chained up. `secrets` is what nobody but A may ever see.
 */
export type BuyerFixtures = {
  buyer: TestBuyer;
  /** Star Fox, on sale on AURORA. */
  saleId: string;
  /** A's unpaid order, with `paymentNo` open on it. */
  orderNo: string;
  paymentNo: string;
  paidOrderNos: string[];
  /** A's unopened blind box (a holding id). */
  boxId: string;
  /** A's holdings in the collection (not boxes, not destroyed); the first ones are Star Fox. */
  holdingIds: string[];
  starFoxHoldingIds: string[];
  tokenIds: string[];
  tradeHashes: string[];
  gift: { campaignId: string; offerId: string; claimId: string; idempotencyKey: string };
  exchange: { campaignId: string; offerId: string; recordId: string; idempotencyKey: string };
  chain: { campaignId: string; recordId: string; code: string; storeCode: string };
  orderKey: string;
  /** A's account number on LUMEN (issue 32: per channel), for the console's buyer calls. */
  lumenAccountNumber: string;
  /** A published notice on LUMEN (issue 32), for the console's notice calls. */
  noticeId: string;
  /** Every identifier of A's that must not reach anyone else, as it would appear in a JSON answer. */
  secrets: { label: string; pattern: string }[];
};

/**
 * A's serial ids start far above any other row's, so an id of A's in an answer cannot be a coincidence with a sale's
 * or a campaign's id.
 */
const ID_FLOOR = { holdings: 700_000, offer_claims: 710_000, chain_records: 720_000 } as const;

function ok(answer: ApiAnswer, what: string): Record<string, unknown> {
  if (answer.status !== 200 || answer.code !== 200) throw new Error(`fixture: ${what} failed: ${answer.text}`);
  return answer.data as Record<string, unknown>;
}

export async function makeBuyerFixtures(api: TestApi, phone = '13912340001'): Promise<BuyerFixtures> {
  const { db } = api;
  for (const [table, floor] of Object.entries(ID_FLOOR)) {
    await db.execute(sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), ${floor})`));
  }
  const buyer = await api.buyer(phone, 'AURORA');
  const aurora = await api.channelId('AURORA');
  const as = (path: string, body: Record<string, unknown>) => api.callApi(path, body, { token: buyer.token });

  const saleIdOf = async (code: string) => {
    const [row] = await db
      .select({ id: sales.id })
      .from(sales)
      .where(and(eq(sales.channelId, aurora), eq(sales.code, code)));
    return String(row!.id);
  };
  const buyAndPay = async (code: string, quantity: number, key: string) => {
    const order = ok(
      await as('/market/api/order/create', { saleId: await saleIdOf(code), quantity, idempotencyKey: key }),
      `buying ${code}`,
    );
    const payment = ok(await as('/market/api/pay/create', { orderNo: order.orderNo }), `paying ${code}`);
    ok(await as('/market/api/pay/sandbox/complete', { paymentNo: payment.paymentNo, outcome: 'paid' }), `settling ${code}`);
    return String(order.orderNo);
  };

  const orderKey = 'fixture-a-star-fox';
  const paidOrderNos = [await buyAndPay('star-fox', 4, orderKey), await buyAndPay('aurora-mystery-box', 1, 'fixture-a-box')];
  const unpaid = ok(
    await as('/market/api/order/create', { saleId: await saleIdOf('tide-whale'), quantity: 1, idempotencyKey: 'fixture-a-whale' }),
    'buying tide-whale',
  );
  const payment = ok(await as('/market/api/pay/create', { orderNo: unpaid.orderNo }), 'opening a payment');

  const boxes = ok(await as('/market/api/channel/queryBox', {}), 'listing boxes').boxes as { id: string }[];
  const campaignOf = async (kind: 'gift' | 'exchange', code: string) => {
    const [row] = await db
      .select({ campaignId: campaigns.id, offerId: campaignOffers.id })
      .from(campaigns)
      .innerJoin(campaignOffers, eq(campaignOffers.campaignId, campaigns.id))
      .where(and(eq(campaigns.channelId, aurora), eq(campaigns.kind, kind), eq(campaigns.code, code)))
      .orderBy(campaignOffers.sort)
      .limit(1);
    return { campaignId: String(row!.campaignId), offerId: String(row!.offerId) };
  };

  const giftIds = await campaignOf('gift', 'fox-holders');
  const gift = { ...giftIds, idempotencyKey: 'fixture-a-gift', claimId: '' };
  gift.claimId = String(
    ok(
      await as('/goods/api/giftReceive/receive', { id: gift.campaignId, exchangeId: gift.offerId, idempotencyKey: gift.idempotencyKey }),
      'receiving a gift',
    ).id,
  );

  const exchangeIds = await campaignOf('exchange', 'constellation');
  const exchange = { ...exchangeIds, idempotencyKey: 'fixture-a-exchange', recordId: '' };
  exchange.recordId = String(
    ok(
      await as('/market/api/exchange/create', {
        id: exchange.campaignId,
        exchangeId: exchange.offerId,
        idempotencyKey: exchange.idempotencyKey,
      }),
      'exchanging',
    ).id,
  );

  const [chainCampaign] = await db
    .select({ id: chainCampaigns.id })
    .from(chainCampaigns)
    .innerJoin(commodities, eq(commodities.id, chainCampaigns.commodityId))
    .where(and(eq(chainCampaigns.channelId, aurora), eq(commodities.code, 'aurora-dawn-print')));
  const chain = { campaignId: String(chainCampaign!.id), code: demoCode('aurora-print', 1), storeCode: 'SH001', recordId: '' };
  chain.recordId = String(
    ok(
      await as('/market/api/channelChainRecord/create', { id: chain.campaignId, code: chain.code, type: 1, storeCode: chain.storeCode }),
      'chaining up',
    ).id,
  );

  // The chain-up job puts every holding on the ledger: token ids and tx hashes are A's too.
  await chainUpPending(db, api.now);

  const owned = await db
    .select({
      id: holdings.id,
      tokenId: holdings.tokenId,
      tradeHash: holdings.tradeHash,
      destroyedAt: holdings.destroyedAt,
      code: commodities.code,
      isBlindBox: commodities.isBlindBox,
    })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(eq(holdings.userId, buyer.userId))
    .orderBy(holdings.id);
  const live = owned.filter((h) => !h.destroyedAt && !h.isBlindBox);
  const starFoxHoldingIds = live.filter((h) => h.code === 'star-fox').map((h) => String(h.id));
  if (boxes.length !== 1 || starFoxHoldingIds.length !== 2 || owned.some((h) => !h.tokenId || !h.tradeHash)) {
    throw new Error(`fixture: unexpected holdings ${JSON.stringify(owned)}`);
  }
  const tokenIds = owned.map((h) => h.tokenId!);
  const tradeHashes = owned.map((h) => h.tradeHash!);

  const quoted = (label: string, values: string[]) => values.map((v) => ({ label, pattern: JSON.stringify(v) }));
  const secrets = [
    { label: 'phone', pattern: phone },
    { label: 'masked phone', pattern: buyer.maskedPhone },
    { label: 'userUuid', pattern: buyer.uuid },
    ...[String(unpaid.orderNo), ...paidOrderNos].map((orderNo) => ({ label: 'orderNo', pattern: orderNo })),
    { label: 'paymentNo', pattern: String(payment.paymentNo) },
    ...tradeHashes.map((hash) => ({ label: 'tx hash', pattern: hash })),
    ...quoted('tokenId', tokenIds),
    ...quoted(
      'holding id',
      owned.map((h) => String(h.id)),
    ),
    ...quoted('gift claim id', [gift.claimId]),
    ...quoted('exchange record id', [exchange.recordId]),
    ...quoted('chain-up record id', [chain.recordId]),
    { label: 'chain-up code', pattern: chain.code },
  ];

  const lumen = await api.channelId('LUMEN');
  const [notice] = await db
    .insert(notices)
    .values({
      channelId: lumen,
      type: 'drop',
      title: 'Fixture notice',
      body: 'A notice for the console’s calls.',
      publishAt: api.now,
      createdAt: api.now,
      updatedAt: api.now,
    })
    .returning({ id: notices.id });

  return {
    buyer,
    noticeId: String(notice!.id),
    saleId: await saleIdOf('star-fox'),
    orderNo: String(unpaid.orderNo),
    paymentNo: String(payment.paymentNo),
    paidOrderNos,
    boxId: boxes[0]!.id,
    holdingIds: live.map((h) => String(h.id)),
    starFoxHoldingIds,
    tokenIds,
    tradeHashes,
    gift,
    exchange,
    chain,
    orderKey,
    lumenAccountNumber: await accountNumberOf(db, await api.channelId('LUMEN'), buyer.userId, api.now),
    secrets,
  };
}

/** The secrets of A that an answer shows, by label (empty when it shows none). */
export function leakedSecrets(fixtures: BuyerFixtures, answerText: string): string[] {
  return fixtures.secrets.filter((s) => answerText.includes(s.pattern)).map((s) => `${s.label} ${s.pattern}`);
}

/** A collectible and a sale's terms the catalogue's sample inputs write (issue 32). */
const MATRIX_COLLECTIBLE = {
  name: 'Matrix box',
  description: '',
  authorName: 'Matrix',
  authorCover: '/brands/default/user-face.svg',
  publisherName: 'Matrix',
  seriesName: null,
  cover: '/brands/default/user-face.svg',
  gallery: [],
  amountSku: 100,
  chainName: 'Ledger',
  chainContract: 'MATRIX',
  contractAddress: '0x0',
  isBlindBox: true,
};
const MATRIX_SALE = {
  price: 990,
  copies: 10,
  limitPerUser: 1,
  saleStartTime: '2030-01-01T12:00:00+08:00',
  saleEndTime: null,
  listed: true,
  sort: 90,
};

/**
 * A valid input for every procedure of the registry, naming A's objects wherever the input names an object. Typed by
 * the registry's paths, and checked at run time by the authorization matrix: a new procedure needs its line here.
 */
export const SAMPLE_INPUTS: Record<ApiPath, (f: BuyerFixtures) => Record<string, unknown>> = {
  // The operator console (issue 31): a wrong link and a wrong sign-in; another channel than a manager's (LUMEN).
  '/ops/api/enrol/complete': () => ({ token: 'x'.repeat(43), password: 'a long wrong password', code: '123456' }),
  '/ops/api/session/signIn': () => ({ name: 'nobody', password: 'a wrong password', code: '123456' }),
  '/ops/api/session/signOut': () => ({}),
  '/ops/api/session/me': () => ({}),
  '/ops/api/channel/list': () => ({}),
  '/ops/api/channel/detail': () => ({ channel: 'LUMEN' }),
  '/ops/api/operator/invite': () => ({ name: 'matrix.invitee', role: 'support', channels: ['LUMEN'] }),
  // Refunds and cancelled sales (issue 32): A's order and sale, asked of LUMEN (404: not that channel's).
  '/ops/api/refund/preview': (f) => ({ channel: 'LUMEN', orderNo: f.paidOrderNos[0] }),
  '/ops/api/refund/create': (f) => ({ channel: 'LUMEN', orderNo: f.paidOrderNos[0], reason: 'matrix', idempotencyKey: 'matrix-refund' }),
  '/ops/api/refund/cancelSale': (f) => ({ channel: 'LUMEN', saleId: Number(f.saleId) }),
  '/ops/api/refund/cancelProgress': (f) => ({ channel: 'LUMEN', saleId: Number(f.saleId) }),
  '/ops/api/domain/list': () => ({ channel: 'LUMEN' }),
  '/ops/api/domain/add': () => ({ channel: 'LUMEN', host: 'matrix-shop.example.test' }),
  '/ops/api/domain/verify': () => ({ channel: 'LUMEN', host: 'matrix-shop.example.test' }),
  '/ops/api/domain/makePrimary': () => ({ channel: 'LUMEN', host: 'lumen.localhost' }),
  '/ops/api/domain/remove': () => ({ channel: 'LUMEN', host: 'matrix-shop.example.test' }),
  // Campaigns and codes (issue 32): a campaign made on LUMEN; the rest name rows LUMEN does not have (404; their audit
  // entries are proved in lib/operator/campaign-procedures.test.ts).
  '/ops/api/campaign/list': () => ({ channel: 'LUMEN' }),
  '/ops/api/campaign/detail': () => ({ channel: 'LUMEN', campaignId: 999_999 }),
  '/ops/api/campaign/create': () => ({
    channel: 'LUMEN',
    kind: 'gift',
    code: 'matrix-gift',
    name: 'Matrix gift',
    startTime: '2026-12-01T20:00:00+08:00',
    endTime: null,
  }),
  '/ops/api/campaign/update': () => ({
    channel: 'LUMEN',
    campaignId: 999_999,
    code: 'matrix-gift',
    name: 'Matrix gift',
    startTime: '2026-12-01T20:00:00+08:00',
    endTime: null,
  }),
  '/ops/api/campaign/offer/create': () => ({ channel: 'LUMEN', campaignId: 999_999, commodity: 999_999, total: 10 }),
  '/ops/api/campaign/offer/update': () => ({ channel: 'LUMEN', offerId: 999_999, total: 10, limitPerUser: 1 }),
  '/ops/api/campaign/end': () => ({ channel: 'LUMEN', campaignId: 999_999 }),
  '/ops/api/campaign/chain/end': () => ({ channel: 'LUMEN', campaignId: 999_999 }),
  '/ops/api/campaign/batch/generate': () => ({ channel: 'LUMEN', offerId: 999_999, size: 10 }),
  '/ops/api/campaign/batch/import': () => ({ channel: 'LUMEN', offerId: 999_999, codes: ['0000-0000-0000-0000-0000-0000-00'] }),
  '/ops/api/campaign/batch/export': () => ({ channel: 'LUMEN', batchId: 999_999 }),
  '/ops/api/campaign/batch/revoke': () => ({ channel: 'LUMEN', batchId: 999_999 }),
  '/ops/api/campaign/code/revoke': () => ({ channel: 'LUMEN', offerId: 999_999, codeId: 999_999 }),
  '/ops/api/campaign/batch/usage': () => ({ channel: 'LUMEN', batchId: 999_999 }),
  '/ops/api/campaign/chain/create': () => ({
    channel: 'LUMEN',
    name: 'Matrix chain',
    commodity: 999_999,
    authorStageName: 'Matrix',
    startTime: '2026-12-01T20:00:00+08:00',
    endTime: null,
  }),
  '/ops/api/campaign/chain/update': () => ({
    channel: 'LUMEN',
    campaignId: 999_999,
    name: 'Matrix chain',
    commodity: 999_999,
    authorStageName: 'Matrix',
    startTime: '2026-12-01T20:00:00+08:00',
    endTime: null,
  }),
  '/ops/api/campaign/chain/addCodes': () => ({ channel: 'LUMEN', campaignId: 999_999, type: 1, generate: 1 }),
  '/ops/api/notice/list': () => ({ channel: 'LUMEN', pageCount: 1, pageSize: 10 }),
  '/ops/api/notice/create': () => ({ channel: 'LUMEN', type: 'drop', title: 'Matrix drop', body: 'Tonight.', publishNow: true }),
  '/ops/api/notice/update': (f) => ({
    channel: 'LUMEN',
    id: f.noticeId,
    type: 'activity',
    title: 'Matrix activity',
    body: 'Tomorrow.',
    publishAt: '2026-12-01T20:00',
  }),
  '/ops/api/notice/withdraw': (f) => ({ channel: 'LUMEN', id: f.noticeId }),
  '/ops/api/skin/get': () => ({ channel: 'LUMEN' }),
  '/ops/api/skin/publish': () => ({ channel: 'LUMEN', skin: { color1: '#123456' } }),
  '/ops/api/channel/create': () => ({
    key: 'MATRIXNEW',
    name: 'Matrix new',
    brandName: 'Matrix',
    locale: null,
    timeZone: 'Asia/Shanghai',
    labels: [1],
  }),
  '/ops/api/channel/setStatus': () => ({ channel: 'LUMEN', status: 0 }),
  '/ops/api/channel/settings': () => ({ channel: 'LUMEN' }),
  '/ops/api/channel/saveProfile': () => ({
    channel: 'LUMEN',
    name: 'Lumen renamed',
    brandName: 'Lumen',
    locale: 'en',
    timeZone: 'Europe/London',
    labels: [1, 2],
    attributes: {},
    appScheme: '',
    appDownloadUrl: '',
  }),
  '/ops/api/channel/saveTexts': () => ({
    channel: 'LUMEN',
    marketText: 'changed',
    buyText: '',
    exchangeText: '',
    privacyText: '',
    salesStrategyText: '',
  }),
  '/ops/api/channel/saveCustomerService': () => ({ channel: 'LUMEN', phone: '400-123-4567', hours: '', email: '', url: '' }),
  '/ops/api/channel/saveSmsSender': () => ({ channel: 'LUMEN', smsSignName: 'Lumen', smsTemplateId: 'SMS_1' }),
  '/ops/api/channel/savePayment': () => ({ channel: 'LUMEN', paymentProviders: ['sandbox'] }),
  '/ops/api/channel/saveCompliance': () => ({
    channel: 'LUMEN',
    icpFiling: '京ICP备12345678号-1',
    publicSecurityFiling: '',
    blockchainFiling: '',
  }),
  '/ops/api/channel/saveIdentityPolicy': () => ({
    channel: 'LUMEN',
    // Asks nothing: the calls after it in the same database still buy on LUMEN without an identity.
    realName: { buy: false, receive: false, exchange: false, chainUp: false },
    minAge: null,
    blindBoxMinAge: null,
  }),
  // issue 36: the holding period before a gift between buyers, on LUMEN (A manager's other channel).
  '/ops/api/channel/saveHoldingPeriod': () => ({ channel: 'LUMEN', holdingHours: 24 }),
  // issue 36: the WeChat official account of the share card (none, as the demo has).
  '/ops/api/channel/saveWechatAccount': () => ({ channel: 'LUMEN', wechatAppId: null }),
  '/ops/api/channel/saveRiskPolicy': () => ({
    channel: 'LUMEN',
    unpaid: { limit: 3, withinHours: 24, blockHours: 24 },
    captcha: true,
  }),
  '/ops/api/session/confirm': () => ({ password: 'a wrong password', code: '123456' }),
  '/ops/api/team/list': () => ({}),
  '/ops/api/team/update': () => ({ operatorId: 1, role: 'support', channels: ['LUMEN'] }),
  '/ops/api/team/disable': () => ({ operatorId: 1 }),
  '/ops/api/team/enable': () => ({ operatorId: 1 }),
  '/ops/api/team/resetSecondFactor': () => ({ operatorId: 1 }),
  '/ops/api/apiKey/list': () => ({}),
  '/ops/api/apiKey/create': () => ({ label: 'matrix key', role: 'manager', channels: ['LUMEN'] }),
  // Buyers and orders in the console (issue 32): A's account number on LUMEN, blocked then unblocked.
  '/ops/api/buyer/find': (f) => ({ channel: 'LUMEN', query: f.buyer.phone }),
  '/ops/api/buyer/view': (f) => ({ channel: 'LUMEN', accountNumber: f.lumenAccountNumber }),
  '/ops/api/buyer/order': (f) => ({ channel: 'LUMEN', orderNo: f.orderNo }),
  '/ops/api/buyer/block': (f) => ({ channel: 'LUMEN', accountNumber: f.lumenAccountNumber, reason: 'matrix block' }),
  '/ops/api/buyer/unblock': (f) => ({ channel: 'LUMEN', accountNumber: f.lumenAccountNumber, reason: 'matrix unblock' }),
  // The blocklist of identities, phones and ranges (issue 33): a documentation range; the lift names no live block.
  '/ops/api/blocklist/list': () => ({ channel: 'LUMEN' }),
  '/ops/api/blocklist/add': () => ({ channel: 'LUMEN', kind: 'cidr', value: '198.51.100.0/24', reason: 'matrix range' }),
  '/ops/api/blocklist/lift': () => ({ channel: 'LUMEN', id: 2147483000, reason: 'matrix lift' }),
  // Catalogue and sales (issue 32), in the order the registry lists them: what one creates, the next ones change.
  '/ops/api/catalogue/list': () => ({ channel: 'LUMEN' }),
  '/ops/api/catalogue/detail': () => ({ channel: 'LUMEN', collectible: 'lumen-sunrise' }),
  '/ops/api/catalogue/create': () => ({ channel: 'LUMEN', code: 'matrix-box', ...MATRIX_COLLECTIBLE }),
  '/ops/api/catalogue/edit': () => ({
    channel: 'LUMEN',
    collectible: 'matrix-box',
    code: 'matrix-box',
    ...MATRIX_COLLECTIBLE,
    name: 'Renamed',
  }),
  '/ops/api/catalogue/setPrizes': () => ({
    channel: 'LUMEN',
    box: 'matrix-box',
    prizes: [{ collectible: 'lumen-sunrise', weight: 10000, value: 990 }],
  }),
  '/ops/api/sale/list': () => ({ channel: 'LUMEN' }),
  '/ops/api/sale/detail': () => ({ channel: 'LUMEN', sale: 'lumen-sunrise' }),
  '/ops/api/sale/create': () => ({ channel: 'LUMEN', code: 'matrix-sale', collectible: 'matrix-box', ...MATRIX_SALE }),
  '/ops/api/sale/edit': () => ({ channel: 'LUMEN', sale: 'matrix-sale', ...MATRIX_SALE, price: 1990 }),
  '/ops/api/sale/pause': () => ({ channel: 'LUMEN', sale: 'matrix-sale', paused: true }),
  '/ops/api/sale/addCopies': () => ({ channel: 'LUMEN', sale: 'matrix-sale', copies: 5 }),
  '/ops/api/sale/archive': () => ({ channel: 'LUMEN', sale: 'matrix-sale' }),
  '/ops/api/sale/delete': () => ({ channel: 'LUMEN', sale: 'matrix-sale' }),
  // A sale's lottery (issue 35): set up on a LUMEN sale not yet open (no orders), then a draw refused before its time.
  '/ops/api/sale/lottery': () => ({ channel: 'LUMEN', sale: 'lumen-candle' }),
  '/ops/api/sale/lottery/set': () => ({
    channel: 'LUMEN',
    sale: 'lumen-candle',
    registrationOpensAt: '2030-01-01T12:00:00+08:00',
    registrationClosesAt: '2030-01-02T12:00:00+08:00',
    drawAt: '2030-01-03T12:00:00+08:00',
    purchaseWindowMinutes: 60,
    publicValueSource: 'The matrix lottery numbers of 2030-01-03',
  }),
  '/ops/api/sale/lottery/draw': () => ({ channel: 'LUMEN', sale: 'lumen-candle', publicValue: '1 2 3' }),
  // A sale's waiting room (issue 35): the same LUMEN sale not yet open, its joining 10 minutes before the opening.
  '/ops/api/sale/queue': () => ({ channel: 'LUMEN', sale: 'lumen-candle' }),
  '/ops/api/sale/queue/set': () => ({ channel: 'LUMEN', sale: 'lumen-candle', joinMinutes: 10 }),
  // A sale's priority purchase (issue 35) on the same LUMEN sale: by the time these run in registry order it goes
  // through a waiting room, so the writes are refused (409 `mode`); lib/sale/priority.test.ts makes them for real.
  '/ops/api/sale/priority': () => ({ channel: 'LUMEN', sale: 'lumen-candle' }),
  '/ops/api/sale/priority/set': () => ({
    channel: 'LUMEN',
    sale: 'lumen-candle',
    priority: { minutesEarly: 10, holderCollectibles: [], minPaidOrders: 1, decideAt: '2026-11-23T08:00:00Z' },
  }),
  '/ops/api/sale/priority/whitelist': () => ({ channel: 'LUMEN', sale: 'lumen-candle', csv: 'account_number\n12345\n' }),
  '/ops/api/apiKey/revoke': () => ({ id: 1 }),
  '/ops/api/audit/list': () => ({}),
  '/ops/api/report/daily': () => ({ channel: 'LUMEN' }),
  '/ops/api/report/live': () => ({ channel: 'LUMEN' }),
  '/ops/api/report/alerts': () => ({ channel: 'LUMEN' }),
  // A channel's alert webhook (issue 32): a receiver on loopback's discard port (nothing listens: the test post fails).
  '/ops/api/alert/webhook': () => ({ channel: 'LUMEN' }),
  '/ops/api/alert/webhook/set': () => ({
    channel: 'LUMEN',
    url: 'http://127.0.0.1:9/alerts',
    format: 'json',
    secret: 'a sample signing secret',
  }),
  '/ops/api/alert/webhook/test': () => ({ channel: 'LUMEN' }),
  '/ops/api/alert/webhook/remove': () => ({ channel: 'LUMEN' }),
  // Passkeys (issue 31): made-up answers and ids; a caller gets as far as their role lets them and no further.
  '/ops/api/passkey/registerOptions': () => ({}),
  '/ops/api/passkey/add': () => ({
    ceremony: 'x'.repeat(43),
    name: 'Matrix key',
    response: {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: 'e30', attestationObject: 'oA' },
    },
  }),
  '/ops/api/passkey/rename': () => ({ id: 2_000_000_000, name: 'Matrix key' }),
  '/ops/api/passkey/remove': () => ({ id: 2_000_000_000 }),
  '/ops/api/session/passkeyOptions': () => ({ name: 'matrix.owner' }),
  '/ops/api/session/passkeySignIn': () => ({
    name: 'matrix.owner',
    password: 'a wrong password',
    ceremony: 'x'.repeat(43),
    response: {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
    },
  }),
  '/market/api/channel/detail': () => ({ key: 'AURORA' }),
  '/market/api/channel/querySaleRecord': () => ({ pageCount: 1, pageSize: 50 }),
  '/market/api/saleRecord/detail/v2': (f) => ({ id: f.saleId }),
  // issue 34: the pay page's buyer part, for A's sale (its own data only; the matrix checks auth).
  '/market/api/saleRecord/payState': (f) => ({ id: f.saleId }),
  '/log/track': (f) => ({
    records: [
      {
        dev_id: 'fixture-device',
        proj_id: 5,
        session_id: 'fixture-session',
        up_time: 1_795_000_000_000,
        event_type: 'page_view',
        user_uuid: f.buyer.uuid,
        page_id: 'orderDetail',
        page_url: `/AURORA/order/detail/${f.orderNo}`,
      },
    ],
  }),
  '/auth/api/captcha/challenge': () => ({ kind: 'text' }),
  '/auth/api/captcha/verify': () => ({ id: 'no-such-challenge', answer: 7 }),
  '/auth/api/auth/getAuthCode': (f) => ({ phone: f.buyer.phone }),
  '/auth/api/auth/authCodeLoginV2': (f) => ({ phone: f.buyer.phone, code: '123456' }),
  '/auth/api/auth/logout': () => ({}),
  '/market/api/userAttribute/queryByUserUuid': () => ({}),
  '/market/api/userAttribute/mineSummary': () => ({}),
  // The lottery (issue 35): A's sale goes first come, so a buyer's call gets as far as "not a lottery" (404).
  '/market/api/lottery/register': (f) => ({ saleId: f.saleId }),
  '/market/api/lottery/status': (f) => ({ saleId: f.saleId }),
  '/market/api/lottery/published': (f) => ({ saleId: f.saleId }),
  // The waiting room (issue 35): A's sale goes first come, so a buyer's call gets as far as "no waiting room" (404).
  '/market/api/queue/join': (f) => ({ saleId: f.saleId }),
  '/market/api/queue/position': (f) => ({ saleId: f.saleId }),
  '/market/api/queue/watch': (f) => ({ saleId: f.saleId }),
  // Priority purchase (issue 35): A's sale has none, so the answer is null.
  '/market/api/priority/status': (f) => ({ saleId: f.saleId }),
  '/user/api/thirdAccount/brandChannel': () => ({ brandName: 'Aurora Collectibles' }),
  '/market/api/order/create': (f) => ({ saleId: f.saleId, quantity: 1, idempotencyKey: f.orderKey }),
  '/market/api/order/list': () => ({ pageCount: 1, pageSize: 50 }),
  '/market/api/order/detail': (f) => ({ orderNo: f.orderNo }),
  '/market/api/order/cancel': (f) => ({ orderNo: f.orderNo }),
  '/market/api/pay/create': (f) => ({ orderNo: f.orderNo }),
  '/market/api/pay/query': (f) => ({ orderNo: f.orderNo }),
  '/market/api/pay/sandbox/detail': (f) => ({ paymentNo: f.paymentNo }),
  '/market/api/pay/sandbox/complete': (f) => ({ paymentNo: f.paymentNo, outcome: 'paid' }),
  '/market/api/channel/queryTreasureSku': () => ({ pageCount: 1, pageSize: 50 }),
  '/market/api/channel/queryBox': () => ({}),
  '/market/api/box/open': (f) => ({ id: f.boxId }),
  '/market/api/channel/queryGiftConfig': () => ({}),
  '/market/api/channel/giftReceiveList': () => ({}),
  '/market/api/channel/getGiftConfit': (f) => ({ id: f.gift.campaignId, exchangeId: f.gift.offerId }),
  '/market/api/channel/giftReceiveDetail': (f) => ({ id: f.gift.campaignId, exchangeId: f.gift.offerId }),
  '/goods/api/giftReceive/receive': (f) => ({ id: f.gift.campaignId, exchangeId: f.gift.offerId, idempotencyKey: f.gift.idempotencyKey }),
  '/market/api/channel/userGiftReceivePage': () => ({ pageCount: 1, pageSize: 50 }),
  '/market/api/channel/queryActivityList': () => ({}),
  // Real-name verification (issue 33): a wrong check digit, so nothing is verified or stored.
  '/market/api/identity/status': () => ({}),
  '/market/api/identity/verify': () => ({ name: 'Matrix Buyer', idNumber: '110105194912310021', consentVersion: 'matrix' }),
  '/market/api/exchange/detail': (f) => ({ id: f.exchange.campaignId, exchangeId: f.exchange.offerId }),
  '/market/api/exchange/create': (f) => ({
    id: f.exchange.campaignId,
    exchangeId: f.exchange.offerId,
    holdingIds: f.starFoxHoldingIds,
    idempotencyKey: f.exchange.idempotencyKey,
  }),
  '/market/api/exchange/list': () => ({ pageCount: 1, pageSize: 50 }),
  '/market/api/notice/list': () => ({ pageCount: 1, pageSize: 10 }),
  '/market/api/notice/detail': (f) => ({ id: f.noticeId }),
  '/market/api/notice/unread': () => ({}),
  '/market/api/notice/read': () => ({}),
  // issue 35: a buyer's own messages (their ids are theirs; another buyer's ids are ignored)
  '/market/api/message/list': () => ({ page: 1 }),
  '/market/api/message/read': () => ({ all: true }),
  '/market/api/channel/treasureSkuDestroyPage': () => ({ pageCount: 1, pageSize: 50 }),
  '/market/api/channel/queryChainList': () => ({}),
  '/market/api/channel/queryCodeRecord': (f) => ({ code: f.chain.code, storeCode: f.chain.storeCode }),
  '/market/api/channelChainRecord/create': (f) => ({ id: f.chain.campaignId, code: f.chain.code, type: 1, storeCode: f.chain.storeCode }),
  '/market/api/channelChainRecord/detail': (f) => ({ id: f.chain.recordId }),
  '/market/api/channelChainRecord/list': () => ({ pageCount: 1, pageSize: 50 }),
  // issue 36: gifts between buyers (A's holding; a number nobody on AURORA has; a gift of nobody's)
  '/market/api/transfer/giftability': (f) => ({ holdingId: f.holdingIds[0] }),
  '/market/api/transfer/lookup': () => ({ accountNumber: '1000000009' }),
  '/market/api/transfer/give': (f) => ({ holdingId: f.holdingIds[0], accountNumber: '1000000009', idempotencyKey: 'matrix-gift' }),
  '/market/api/transfer/incoming': () => ({}),
  '/market/api/transfer/accept': () => ({ transferId: '1' }),
  '/market/api/transfer/refuse': () => ({ transferId: '1' }),
  '/market/api/transfer/records': () => ({ pageCount: 1, pageSize: 50 }),
  // issue 36: profile (a wrong closing code: nothing closes)
  '/market/api/profile/read': () => ({}),
  '/market/api/profile/update': () => ({ nickname: 'Matrix Buyer', avatar: '/brands/avatars/sun.svg' }),
  '/market/api/profile/logins': () => ({}),
  '/market/api/profile/signOutOthers': () => ({}),
  '/market/api/profile/closing': () => ({}),
  '/market/api/profile/closeCode': () => ({}),
  '/market/api/profile/close': () => ({ code: '000000' }),
  // issue 36: the WeChat share card (the demo channels have no account: a 404 naming it).
  '/market/api/wechat/jsConfig': () => ({ url: 'http://aurora.localhost/goods/detail/1' }),
};
