import 'server-only';
import { isBlindBoxCommodity, requireIdentityIn } from '../identity/gate';
import { and, asc, count, desc, eq, isNull } from 'drizzle-orm';
import { chainCampaigns, chainCodes, chainRecords, commodities, holdings, storeCodes } from '../db/schema';
import { AppError } from '../procedure/errors';
import { mintHoldings } from '../collection/mint';
import { hashCode, takeCodeAttempt, wrongCode, type CodeAttempt } from '../redeem-code/service';
import { campaignStatus, STATUS_ORDER } from '../campaign/status';
import type { ChannelScope, UserScope } from '../procedure/scope';
import { toPage, type Page, type Paging } from '../procedure/paging';
import { claimOnce } from '../procedure/idempotent';
import type { ChainCampaignView, ChainRecordView, CodeLookupView, CodeType, StoreView } from './schema';
import { tags, writeInvalidating } from '../cache/store';
import { msg } from '../procedure/messages';
import { REASON } from '../procedure/reasons';

/**
 * Self chain-up (spec §2 chain, chainUp, chainResult, mineChain; label 4). A physical product carries a code (type 1
 * product code, 2 certificate code); its buyer enters the code and the store they bought it from (one of the channel's
 * allowed store codes, spec §9) and gets the product's digital twin: one numbered holding, which the chain-up job then
 * records on the chain ledger. A code is used once; every wrong code gets one answer and counts against the user's
 * and the IP's allowance (DESIGN §10). The code itself is the idempotency key: chaining up a code one already chained
 * up answers with that record again.
 */

type CampaignRow = typeof chainCampaigns.$inferSelect;
type CommodityRow = typeof commodities.$inferSelect;

function campaignView(c: CampaignRow, commodity: CommodityRow, now: Date): ChainCampaignView {
  return {
    id: String(c.id),
    name: c.name,
    description: c.description,
    cover: c.cover,
    authorStageName: c.authorStageName,
    startTime: c.startTime.toISOString(),
    endTime: c.endTime?.toISOString() ?? null,
    status: campaignStatus(c, now),
    commodity: { id: String(commodity.id), name: commodity.name, cover: commodity.cover, amountSku: commodity.amountSku },
  };
}

/** The channel's allowed store codes (spec §9), in code order. */
export async function listStores(ctx: ChannelScope): Promise<StoreView[]> {
  return ctx.db
    .select({ code: storeCodes.code, name: storeCodes.name })
    .from(storeCodes)
    .where(eq(storeCodes.channelId, ctx.channelId))
    .orderBy(asc(storeCodes.code));
}

/** The channel's store with this code; 400 naming the field when it is not one of the channel's stores. */
export async function requireStore(ctx: ChannelScope, code: string): Promise<StoreView> {
  const wanted = code.trim().toUpperCase();
  const [store] = await ctx.db
    .select({ code: storeCodes.code, name: storeCodes.name })
    .from(storeCodes)
    .where(and(eq(storeCodes.channelId, ctx.channelId), eq(storeCodes.code, wanted)));
  if (!store) throw new AppError(400, msg('chainStoreUnknown'));
  return store;
}

/** The channel's self chain-up campaigns (channel/queryChainList), open ones first, and its stores. */
export async function listChainCampaigns(ctx: ChannelScope): Promise<{ campaigns: ChainCampaignView[]; stores: StoreView[] }> {
  const rows = await ctx.db
    .select({ c: chainCampaigns, commodity: commodities })
    .from(chainCampaigns)
    .innerJoin(commodities, eq(commodities.id, chainCampaigns.commodityId))
    .where(eq(chainCampaigns.channelId, ctx.channelId))
    .orderBy(asc(chainCampaigns.sort), asc(chainCampaigns.id))
    .limit(100);
  const campaigns = rows
    .map((r) => campaignView(r.c, r.commodity, ctx.now))
    .sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
  return { campaigns, stores: await listStores(ctx) };
}

/** One chain-up campaign of the channel (the chain-up page's `:id`); 404 when it is not this channel's. */
export async function getChainCampaign(ctx: ChannelScope, campaignId: number): Promise<ChainCampaignView> {
  const [row] = await ctx.db
    .select({ c: chainCampaigns, commodity: commodities })
    .from(chainCampaigns)
    .innerJoin(commodities, eq(commodities.id, chainCampaigns.commodityId))
    .where(and(eq(chainCampaigns.id, campaignId), eq(chainCampaigns.channelId, ctx.channelId)));
  if (!row) throw new AppError(404, msg('chainCampaignNotFound'));
  return campaignView(row.c, row.commodity, ctx.now);
}

function assertOpen(campaign: ChainCampaignView): void {
  if (campaign.status === 0)
    throw new AppError(409, msg('chainNotOpen', { name: campaign.name, at: new Date(campaign.startTime) }), {
      reason: REASON.notOpen,
      startTime: campaign.startTime,
    });
  if (campaign.status === 2) throw new AppError(409, msg('chainEnded', { name: campaign.name }), { reason: REASON.ended });
}

/** The code of this channel with this text, whatever its campaign, with whom it was used by. */
async function findCode(ctx: ChannelScope, code: string) {
  const [row] = await ctx.db
    .select({ id: chainCodes.id, campaignId: chainCodes.campaignId, type: chainCodes.type, usedBy: chainCodes.usedBy })
    .from(chainCodes)
    .innerJoin(chainCampaigns, eq(chainCampaigns.id, chainCodes.campaignId))
    .where(and(eq(chainCodes.codeHash, hashCode(code)), eq(chainCampaigns.channelId, ctx.channelId)));
  return row ?? null;
}

/** The user's record of a code they already chained up, or null. */
async function recordOfCode(ctx: UserScope, chainCodeId: number): Promise<ChainRecordView | null> {
  const [found] = await recordsQuery(ctx, eq(chainRecords.chainCodeId, chainCodeId)).limit(1);
  return found ? recordView(found) : null;
}

/**
 * Looks a code up (channel/queryCodeRecord): what it unlocks, checked against the store. A code the user already
 * chained up answers 409 `alreadyChainedUp` with the record's id; an unknown code, another user's used code or another
 * channel's code all get the one wrong-code answer and count against the allowance.
 */
export async function lookUpChainCode(ctx: UserScope, input: { code: string; storeCode: string }): Promise<CodeLookupView> {
  const store = await requireStore(ctx, input.storeCode);
  const attempt = await takeCodeAttempt({ db: ctx.db, kind: 'chain', userId: ctx.userId, ip: ctx.ip, now: ctx.now });
  const found = await findCode(ctx, input.code);
  if (!found || (found.usedBy !== null && found.usedBy !== ctx.userId)) throw wrongCode('chain');
  await attempt.giveBack();
  if (found.usedBy === ctx.userId) {
    const record = await recordOfCode(ctx, found.id);
    throw new AppError(409, msg('chainDone'), { reason: REASON.alreadyChainedUp, recordId: record?.id ?? null });
  }
  const campaign = await getChainCampaign(ctx, found.campaignId);
  assertOpen(campaign);
  return { campaign, type: found.type as CodeType, store };
}

export type ChainUpInput = { campaignId: number; code: string; type: CodeType; storeCode: string };

class CodeTaken extends Error {}

/**
 * Chains a code up (channelChainRecord/create): in one transaction the code is marked used (only if it is this
 * campaign's and unused), the digital twin is minted and the record written; the chain-up job then puts the holding on
 * the ledger. Refusals: 400 for a store not of this channel or a code of the other type (the message says which type
 * it is); 404 for a campaign not of this channel; 409 `notOpen` / `ended`; 409 `badCode` for every wrong code (unknown,
 * used by someone else, another campaign's); 429 after too many wrong codes. Sending the same code again, even at the
 * same time, answers with the one record.
 */
export async function chainUp(ctx: UserScope, input: ChainUpInput): Promise<ChainRecordView> {
  const store = await requireStore(ctx, input.storeCode);
  const campaign = await getChainCampaign(ctx, input.campaignId);
  let attempt: CodeAttempt | undefined;
  return claimOnce({
    find: async () => {
      const found = await findCode(ctx, input.code);
      return found && found.usedBy === ctx.userId && found.campaignId === input.campaignId ? recordOfCode(ctx, found.id) : null;
    },
    make: async () => {
      assertOpen(campaign);
      // issue 33: the channel's real-name and age rules, before a code try is taken.
      await requireIdentityIn(ctx, 'chainUp', isBlindBoxCommodity(ctx.db, Number(campaign.commodity.id)));
      attempt = await takeCodeAttempt({ db: ctx.db, kind: 'chain', userId: ctx.userId, ip: ctx.ip, now: ctx.now });
      return spendCode(ctx, input, campaign, store, attempt);
    },
    // Used in the meantime: by this user (a second copy of the same tap) → that record; by anyone else → wrong code.
    lostRace: (error) => error instanceof CodeTaken,
    won: async () => attempt?.giveBack(),
    otherwise: async (error) => {
      throw error instanceof CodeTaken ? wrongCode('chain') : error;
    },
  });
}

/** The one transaction that marks the code used, mints its twin and writes the record; the try is given back unless the code was taken. */
async function spendCode(
  ctx: UserScope,
  input: ChainUpInput,
  campaign: ChainCampaignView,
  store: StoreView,
  attempt: CodeAttempt,
): Promise<ChainRecordView> {
  try {
    const recordId = await writeInvalidating(ctx.db, async (tx, changed) => {
      // A campaign has one code fewer: dropped in every process with the commit (docs/caching.md).
      changed([tags.campaigns(ctx.channelId)]);
      const [code] = await tx
        .update(chainCodes)
        .set({ usedBy: ctx.userId, usedAt: ctx.now })
        .where(and(eq(chainCodes.codeHash, hashCode(input.code)), eq(chainCodes.campaignId, input.campaignId), isNull(chainCodes.usedBy)))
        .returning({ id: chainCodes.id, type: chainCodes.type });
      if (!code) throw new CodeTaken();
      if (code.type !== input.type) {
        throw new AppError(400, msg('chainWrongType', { is: code.type, asked: input.type }), {
          reason: REASON.wrongType,
          type: code.type,
        });
      }
      const [holding] = await mintHoldings(tx, {
        channelId: ctx.channelId,
        userId: ctx.userId,
        commodity: { id: Number(campaign.commodity.id), amountSku: campaign.commodity.amountSku },
        quantity: 1,
        source: 'chainUp',
        now: ctx.now,
      });
      const [record] = await tx
        .insert(chainRecords)
        .values({
          channelId: ctx.channelId,
          userId: ctx.userId,
          campaignId: input.campaignId,
          chainCodeId: code.id,
          storeCode: store.code,
          holdingId: holding!.id,
          createdAt: ctx.now,
        })
        .returning({ id: chainRecords.id });
      return record!.id;
    });
    await attempt.giveBack();
    return (await getChainRecord(ctx, recordId))!;
  } catch (error) {
    // A code taken in the meantime keeps its try counted until chainUp knows by whom.
    if (!(error instanceof CodeTaken)) await attempt.giveBack();
    throw error;
  }
}

const recordColumns = {
  r: chainRecords,
  campaign: chainCampaigns,
  commodity: commodities,
  holding: holdings,
  type: chainCodes.type,
  storeName: storeCodes.name,
};
type RecordRow = {
  r: typeof chainRecords.$inferSelect;
  campaign: CampaignRow;
  commodity: CommodityRow;
  holding: typeof holdings.$inferSelect;
  type: number;
  storeName: string | null;
};

function recordsQuery(ctx: UserScope | UserScope, where: ReturnType<typeof eq>) {
  return ctx.db
    .select(recordColumns)
    .from(chainRecords)
    .innerJoin(chainCampaigns, eq(chainCampaigns.id, chainRecords.campaignId))
    .innerJoin(holdings, eq(holdings.id, chainRecords.holdingId))
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .innerJoin(chainCodes, eq(chainCodes.id, chainRecords.chainCodeId))
    .leftJoin(storeCodes, and(eq(storeCodes.channelId, chainRecords.channelId), eq(storeCodes.code, chainRecords.storeCode)))
    .where(and(where, eq(chainRecords.userId, ctx.userId), eq(chainRecords.channelId, ctx.channelId)));
}

function recordView(row: RecordRow): ChainRecordView {
  return {
    id: String(row.r.id),
    campaign: { id: String(row.campaign.id), name: row.campaign.name, authorStageName: row.campaign.authorStageName },
    commodity: { id: String(row.commodity.id), name: row.commodity.name, cover: row.commodity.cover },
    holdingId: String(row.holding.id),
    number: row.holding.number,
    amountNumber: row.commodity.amountSku,
    type: row.type as CodeType,
    store: { code: row.r.storeCode, name: row.storeName ?? row.r.storeCode },
    chainStatus: row.holding.chainStatus,
    tokenId: row.holding.tokenId,
    tradeHash: row.holding.tradeHash,
    createTime: row.r.createdAt.toISOString(),
  };
}

/** One of the user's chain-up records on this channel (channelChainRecord/detail, the result page), or null. */
export async function getChainRecord(ctx: UserScope, recordId: number): Promise<ChainRecordView | null> {
  const [row] = await recordsQuery(ctx, eq(chainRecords.id, recordId)).limit(1);
  return row ? recordView(row) : null;
}

/** My chain-up records (channelChainRecord/list): the user's chain-ups on this channel, newest first, paged. */
export async function listChainRecords(ctx: UserScope, paging: Paging): Promise<Page<ChainRecordView>> {
  const where = and(eq(chainRecords.userId, ctx.userId), eq(chainRecords.channelId, ctx.channelId));
  const [totalRow] = await ctx.db.select({ value: count() }).from(chainRecords).where(where);
  const total = totalRow?.value ?? 0;
  const rows = await recordsQuery(ctx, eq(chainRecords.userId, ctx.userId))
    .orderBy(desc(chainRecords.createdAt), desc(chainRecords.id))
    .limit(paging.pageSize)
    .offset((paging.pageCount - 1) * paging.pageSize);
  return toPage(rows.map(recordView), total, paging);
}
