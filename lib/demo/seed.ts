import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  campaignOffers,
  campaigns,
  chainCampaigns,
  editionCounters,
  channels,
  commodities,
  holdingTransfers,
  redeemCodes,
  sales,
  storeCodes,
  users,
} from '../db/schema';
import {
  channelArt,
  DEMO_CHAIN,
  demoCode,
  goodsPictures,
  SEED_CHAIN_CAMPAIGNS,
  SEED_CHANNELS,
  SEED_EXCHANGES,
  SEED_GIFTS,
  SEED_SALES,
  SEED_UNANSWERED_GIFT,
  STORE_CODES,
  type SeedCampaign,
  type SeedChannel,
  type SeedSale,
} from './seed-data';
import { invalidateAll, tagNoticesSent } from '../cache/store';
import { forgetAllSoldOut } from '../order/sold-out';
import { mintHoldings } from '../collection/mint';
import { GIFT_ANSWER_HOURS } from '../transfer/service';
import { hashCode } from '../redeem-code/service';
import { DEFAULT_SKIN, SKIN_IMAGE_FIELDS, type Skin } from '../channel/skin';
import { isReservedChannelKey } from '../operator/host';
import { createCollectible, listPrizes, setBoxPrizes, type CatalogueAudit, type PrizeInput } from '../sale/catalogue';
import { createSale } from '../sale/admin';
import { createCampaign, createOffer } from '../campaign/manage';
import { importBatch } from '../redeem-code/batches';
import { addChainCodes, chainCodeExists, createChainCampaign } from '../chain/manage';

const HOUR_MS = 3_600_000;

function skinFor(channel: SeedChannel): Skin {
  // Same file names as DEFAULT_SKIN, under the channel's own art folder.
  const images = Object.fromEntries(
    SKIN_IMAGE_FIELDS.map((field) => [field, DEFAULT_SKIN[field].replace('/brands/default/', `/brands/${channelArt(channel)}/`)]),
  ) as Record<(typeof SKIN_IMAGE_FIELDS)[number], string>;
  return {
    ...channel.palette,
    iconCheckedColor: channel.palette.color1,
    iconColor: '#9ca3af',
    navDefaultIconColor: '#9ca3af',
    navIconSelectColor: channel.palette.color1,
    ...images,
  };
}

function contractAddress(code: string): string {
  return `0x${createHash('sha256').update(`collectible:${code}`).digest('hex').slice(0, 40)}`;
}

function commodityValues(
  channelId: number,
  sale:
    | SeedSale
    | {
        code: string;
        name: string;
        description: string;
        amountSku: number;
        author: string;
        publisher: string;
        series?: string;
      },
  isBlindBox: boolean,
  /** The channel's locale: a zh-CN channel's chain is named in Chinese, as its operator would (issue 17, item 4). */
  locale: string | null = null,
) {
  const zh = locale === 'zh-CN';
  return {
    channelId,
    code: sale.code,
    name: sale.name,
    // Its own pictures, captioned with its name (docs/decisions.md, "Demo art").
    ...goodsPictures(sale.code),
    description: sale.description,
    amountSku: sale.amountSku,
    // The built-in chain is our own hash-chained ledger, named honestly (DESIGN §7).
    chainName: zh ? DEMO_CHAIN['zh-CN'].name : DEMO_CHAIN.en.name,
    chainContract: zh ? `${sale.name}${DEMO_CHAIN['zh-CN'].contractSuffix}` : `${DEMO_CHAIN.en.contractPrefix}${sale.code}`,
    contractAddress: contractAddress(sale.code),
    authorName: sale.author,
    authorCover: '/brands/default/user-face.svg',
    publisherName: sale.publisher,
    seriesName: sale.series ?? null,
    isBlindBox,
  };
}

/** The demo codes the seed prints: for each offer or chain-up campaign that asks for one, its page and its codes. */
export type DemoCodes = { channel: string; host: string; path: string; name: string; codes: string[] }[];

/**
 * issue 31: "its key, OPS by the spec's rule, is reserved and can never be a channel": the operator host's key.
 * A seed that names it stops here, with the reason (the channels table's check constraint would refuse it anyway).
 */
export function assertNoReservedKey(keys: readonly string[]): void {
  const reserved = keys.filter(isReservedChannelKey);
  if (reserved.length)
    throw new Error(`channel key ${reserved.join(', ')} is reserved for the operator console's host and can never be a channel`);
}

/**
 * Seeds the demo channels and catalogue. Idempotent: rows are keyed by natural keys
 * (channel key, channel+code) and inserted with ON CONFLICT DO NOTHING, so a second run changes nothing.
 */
export async function seed(db: Db, now: Date = new Date()): Promise<{ channels: number; sales: number; codes: DemoCodes }> {
  const channelIds = new Map<string, number>();
  assertNoReservedKey(SEED_CHANNELS.map((c) => c.key));
  for (const c of SEED_CHANNELS) {
    await db
      .insert(channels)
      .values({
        key: c.key,
        host: c.host,
        name: c.name,
        brandName: c.brandName,
        status: c.status,
        labelList: c.labelList,
        isHaveTheme: true,
        marketText: c.marketText,
        buyText: c.buyText,
        exchangeText: c.exchangeText,
        skinJson: JSON.stringify(skinFor(c)),
        locale: c.locale ?? null,
        attributes: c.attributes,
        identityPolicy: c.identityPolicy ?? {},
        // The demo takes no money: every demo channel pays at the sandbox cashier.
        paymentProviders: ['sandbox'],
        appScheme: c.app ? `${c.key.toLowerCase()}://open` : null,
        // There is no demo app, so no download page: "open in app" keeps the buyer on the page with a note when the
        // app does not open (docs/decisions.md, "Open in app"; an address on the example domain left them on a browser
        // error, issue 30).
        appDownloadUrl: null,
      })
      .onConflictDoNothing({ target: channels.key });
    // A demo database seeded before issue 30 still names the example domain's address: put that one value right.
    await db
      .update(channels)
      .set({ appDownloadUrl: null })
      .where(and(eq(channels.key, c.key), eq(channels.appDownloadUrl, `https://${c.key.toLowerCase()}-app.example/download`)));
    const [row] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, c.key));
    if (!row) throw new Error(`seed: channel ${c.key} missing after insert`);
    channelIds.set(c.key, row.id);
    if (c.storeCodes) {
      await db
        .insert(storeCodes)
        .values(STORE_CODES.map((s) => ({ channelId: row.id, ...s })))
        .onConflictDoNothing();
    }
  }

  // issue 32: the demo's collectibles, boxes and sales are made by the console's own services (lib/sale), so the seed
  // proves them and there is one way to make a sale. The seed is not an operator: its writes leave no audit entry.
  for (const [index, s] of SEED_SALES.entries()) {
    const { startTime, endTime } = startAndEnd(now, s);
    const { channelId, channel } = channelOf(channelIds, s.channel, `sale ${s.code}`);
    // Copies sold before the demo began carry the first edition numbers; the demo's buyers get the next ones.
    const soldBefore = s.amount - s.amountAvailable;
    const commodityId = await seedCollectible(
      db,
      commodityValues(channelId, s, Boolean(s.blindBox), channel.locale ?? null),
      Math.min(s.amountSku, soldBefore),
    );
    if (s.blindBox) {
      const prizes: PrizeInput[] = [];
      for (const prize of s.blindBox) {
        const prizeValues = commodityValues(
          channelId,
          {
            code: prize.prize,
            name: prize.name,
            description: `Drawn from ${s.name}.`,
            amountSku: s.amountSku,
            author: s.author,
            publisher: s.publisher,
            series: s.series,
          },
          false,
        );
        prizes.push({ collectibleId: await seedCollectible(db, prizeValues, 0), weight: prize.weight, value: prize.value });
      }
      // Set once, and again only where a database seeded before issue 32 holds other odds (relative weights, no values).
      const held = await listPrizes(db, commodityId);
      const same =
        held.length === prizes.length &&
        prizes.every((p) => held.some((h) => h.collectibleId === p.collectibleId && h.weight === p.weight && h.value === p.value));
      if (!same) await setBoxPrizes(db, channelId, commodityId, prizes, NOT_AUDITED);
    }
    const [existing] = await db
      .select({ id: sales.id })
      .from(sales)
      .where(and(eq(sales.channelId, channelId), eq(sales.code, s.code)));
    if (!existing) {
      await createSale(
        db,
        channelId,
        {
          code: s.code,
          collectibleId: commodityId,
          price: s.price,
          copies: s.amount,
          soldBefore,
          limitPerUser: s.limitPerUser,
          saleStartTime: startTime,
          saleEndTime: endTime,
          listed: true,
          sort: index,
          // The demo's history: most of its sales opened before the seed ran.
          confirmPast: true,
        },
        now,
        NOT_AUDITED,
      );
    }
  }
  const codes = [
    ...(await seedCampaigns(db, channelIds, now, 'gift', SEED_GIFTS, '/receive_detail_new')),
    ...(await seedCampaigns(db, channelIds, now, 'exchange', SEED_EXCHANGES, '/exchange_detail')),
    ...(await seedChainCampaigns(db, channelIds, now)),
  ];
  // The catalogue may have changed under every cached read (docs/caching.md), here and in the running servers: the
  // notice is sent before this returns, so `npm run db:seed` can close its database right after.
  invalidateAll(db);
  await tagNoticesSent(db);
  forgetAllSoldOut(db);
  return { channels: SEED_CHANNELS.length, sales: SEED_SALES.length, codes };
}

/** A seeded channel, by its key: its row's id and its seed data. `what` names who asks, for the error. */
function channelOf(channelIds: Map<string, number>, key: string, what: string): { channelId: number; channel: SeedChannel } {
  const channelId = channelIds.get(key);
  const channel = SEED_CHANNELS.find((c) => c.key === key);
  if (channelId === undefined || !channel) throw new Error(`seed: ${what} names unknown channel ${key}`);
  return { channelId, channel };
}

/**
 * Seeds the demo's gift or exchange campaigns: each campaign, the collectibles its offers give, the offers with what
 * they ask (a collectible held, collectibles spent, a redeem code), and their demo codes, printed with `page`, where a
 * buyer enters them. A campaign's existing offers are kept as they are (the seed is idempotent).
 */
async function seedCampaigns(
  db: Db,
  channelIds: Map<string, number>,
  now: Date,
  kind: 'gift' | 'exchange',
  list: readonly SeedCampaign[],
  page: string,
): Promise<DemoCodes> {
  const printed: DemoCodes = [];
  for (const [index, x] of list.entries()) {
    const { channelId, channel } = channelOf(channelIds, x.channel, `${kind} ${x.code}`);
    // Made through the console's own services (issue 32, "The demo seed made through the console's services"); a
    // campaign, offer or code the demo already has is kept as it is (the seed is idempotent).
    let [campaign] = await db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.channelId, channelId), eq(campaigns.code, x.code)));
    if (!campaign) {
      campaign = await createCampaign(db, {
        channelId,
        kind,
        code: x.code,
        name: x.name,
        description: x.description,
        // A campaign shows what it gives: its first offer's picture.
        cover: goodsPictures(x.offers[0]!.code).cover,
        sort: index,
        ...startAndEnd(now, x),
      });
    }
    const existing = await db
      .select({ commodityId: campaignOffers.commodityId, id: campaignOffers.id })
      .from(campaignOffers)
      .where(eq(campaignOffers.campaignId, campaign.id));
    for (const [sort, o] of x.offers.entries()) {
      const commodityId = await upsertCommodity(
        db,
        commodityValues(
          channelId,
          {
            code: o.code,
            name: o.name,
            description: o.description,
            amountSku: o.amountSku,
            author: channel.brandName,
            publisher: channel.brandName,
          },
          false,
        ),
      );
      let offerId = existing.find((e) => e.commodityId === commodityId)?.id;
      if (offerId === undefined) {
        const inputs = [];
        for (const input of o.inputs ?? [])
          inputs.push({ commodityId: await commodityIdOf(db, channelId, input.commodity), quantity: input.quantity });
        const offer = await createOffer(db, {
          channelId,
          campaignId: campaign.id,
          commodityId,
          total: o.total,
          given: o.total - o.remaining,
          requiresCommodityId: o.requires ? await commodityIdOf(db, channelId, o.requires) : null,
          requiresCode: Boolean(o.codes),
          inputs,
          sort,
          limitPerUser: o.limitPerUser ?? 1,
        });
        offerId = offer.id;
        // Copies given before the demo began carry the first edition numbers.
        await db
          .insert(editionCounters)
          .values({ commodityId, minted: o.total - o.remaining, amountSku: o.amountSku })
          .onConflictDoNothing();
      }
      if (o.codes) {
        const codes = Array.from({ length: o.codes }, (_, i) => demoCode(o.code, i + 1));
        // The demo's fixed codes, imported as a batch the way an operator imports printed ones; once.
        const [held] = await db
          .select({ id: redeemCodes.id })
          .from(redeemCodes)
          .where(eq(redeemCodes.codeHash, hashCode(codes[0]!)));
        if (!held) await importBatch(db, { channelId, offerId, codes, expiresAt: null, by: DEMO_SEED, now });
        printed.push({
          channel: x.channel,
          host: channel.host,
          path: `${page}/${campaign.id}/${offerId}`,
          name: `${x.name}: ${o.name}`,
          codes,
        });
      }
    }
  }
  return printed;
}

/** Who made the demo's batches (no operator: the seed). */
const DEMO_SEED = { operatorId: null, name: 'demo seed' } as const;

/** A sale's or a campaign's start and end, from its hours after `now` (an end of null: it does not end). */
function startAndEnd(now: Date, x: { startsInHours: number; endsInHours: number | null }): { startTime: Date; endTime: Date | null } {
  return {
    startTime: new Date(now.getTime() + x.startsInHours * HOUR_MS),
    endTime: x.endsInHours === null ? null : new Date(now.getTime() + x.endsInHours * HOUR_MS),
  };
}

/** The seed's writes through the console's services leave no audit entry: the seed is not an operator. */
const NOT_AUDITED: CatalogueAudit = async () => {};

/**
 * The channel's collectible with these values, made by the catalogue service (lib/sale/catalogue.ts) when the channel
 * has none with its code yet, with `mintedBefore` editions already minted (the demo's history); an existing one is
 * kept as it is. Answers its id.
 */
async function seedCollectible(db: Db, values: ReturnType<typeof commodityValues>, mintedBefore: number): Promise<number> {
  const [row] = await db
    .select({ id: commodities.id })
    .from(commodities)
    .where(and(eq(commodities.channelId, values.channelId), eq(commodities.code, values.code)));
  if (row) return row.id;
  const made = await createCollectible(
    db,
    values.channelId,
    {
      code: values.code,
      name: values.name,
      description: values.description,
      authorName: values.authorName,
      authorCover: values.authorCover,
      publisherName: values.publisherName,
      seriesName: values.seriesName,
      cover: values.cover,
      gallery: values.actualPicture,
      amountSku: values.amountSku,
      chainName: values.chainName,
      chainContract: values.chainContract,
      contractAddress: values.contractAddress,
      isBlindBox: values.isBlindBox,
    },
    NOT_AUDITED,
  );
  if (mintedBefore > 0) await db.update(editionCounters).set({ minted: mintedBefore }).where(eq(editionCounters.commodityId, made.id));
  return made.id;
}

/**
 * issue 36: the gift SEED_UNANSWERED_GIFT describes, with its two buyers, once (an existing sender means it was made).
 * The edition is minted as a purchase would (its edition number the collectible's next), chain-up pending: the chain
 * ledger job records it as any other. Not part of `seed`, which the unit tests' databases start from (they make buyers
 * of their own): the demo (scripts/demo.ts, `npm run db:seed`) runs it after `seed`.
 */
export async function seedDemoBuyers(db: Db, now: Date = new Date()): Promise<void> {
  const g = SEED_UNANSWERED_GIFT;
  const [channel] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, g.channel));
  if (!channel) throw new Error(`seed: the unanswered gift names unknown channel ${g.channel}`);
  const channelId = channel.id;
  const [made] = await db.select({ id: users.id }).from(users).where(eq(users.phone, g.sender.phone));
  if (made) return;
  const HOUR_MS = 3_600_000;
  const offered = new Date(now.getTime() - g.offeredHoursAgo * HOUR_MS);
  const commodityId = await commodityIdOf(db, channelId, g.sale);
  const [collectible] = await db.select({ amountSku: commodities.amountSku }).from(commodities).where(eq(commodities.id, commodityId));
  await db.transaction(async (tx) => {
    const [sender, receiver] = await tx
      .insert(users)
      .values([
        { uuid: randomUUID(), phone: g.sender.phone, nickname: g.sender.nickname, createdAt: offered },
        { uuid: randomUUID(), phone: g.receiver.phone, nickname: g.receiver.nickname, createdAt: offered },
      ])
      .returning({ id: users.id });
    const [edition] = await mintHoldings(tx, {
      channelId,
      userId: sender!.id,
      commodity: { id: commodityId, amountSku: collectible!.amountSku },
      quantity: 1,
      now: new Date(offered.getTime() - g.heldHoursBefore * HOUR_MS),
    });
    await tx.insert(holdingTransfers).values({
      channelId,
      holdingId: edition!.id,
      senderId: sender!.id,
      receiverId: receiver!.id,
      status: 'pending',
      idempotencyKey: 'demo-unanswered-gift',
      createdAt: offered,
      expiresAt: new Date(offered.getTime() + GIFT_ANSWER_HOURS * HOUR_MS),
    });
  });
}

async function commodityIdOf(db: Db, channelId: number, code: string): Promise<number> {
  const [row] = await db
    .select({ id: commodities.id })
    .from(commodities)
    .where(and(eq(commodities.channelId, channelId), eq(commodities.code, code)));
  if (!row) throw new Error(`seed: no commodity ${code} on channel ${channelId}`);
  return row.id;
}

async function upsertCommodity(db: Db, values: typeof commodities.$inferInsert): Promise<number> {
  await db.insert(commodities).values(values).onConflictDoNothing();
  const [row] = await db
    .select({ id: commodities.id })
    .from(commodities)
    .where(and(eq(commodities.channelId, values.channelId), eq(commodities.code, values.code)));
  if (!row) throw new Error(`seed: commodity ${values.code} missing after insert`);
  return row.id;
}

async function seedChainCampaigns(db: Db, channelIds: Map<string, number>, now: Date): Promise<DemoCodes> {
  const printed: DemoCodes = [];
  for (const [index, c] of SEED_CHAIN_CAMPAIGNS.entries()) {
    const { channelId, channel } = channelOf(channelIds, c.channel, `chain campaign ${c.code}`);
    const commodityId = await upsertCommodity(
      db,
      commodityValues(channelId, { ...c.commodity, author: c.authorStageName, publisher: channel.brandName }, false),
    );
    // Made through the console's service (issue 32), once: a campaign of this collectible is the demo's.
    let [campaign] = await db
      .select({ id: chainCampaigns.id })
      .from(chainCampaigns)
      .where(and(eq(chainCampaigns.channelId, channelId), eq(chainCampaigns.commodityId, commodityId)));
    if (!campaign) {
      campaign = await createChainCampaign(db, {
        channelId,
        name: c.name,
        description: c.description,
        cover: goodsPictures(c.commodity.code).cover,
        commodityId,
        authorStageName: c.authorStageName,
        sort: index,
        ...startAndEnd(now, c),
      });
    }
    const codes = Array.from({ length: c.codes }, (_, i) => demoCode(c.code, i + 1));
    if (!(await chainCodeExists(db, codes[0]!))) await addChainCodes(db, { channelId, campaignId: campaign.id, type: 1, codes });
    printed.push({ channel: c.channel, host: channel.host, path: '/chain', name: `${c.name} (self chain-up, product codes)`, codes });
    const certificates = Array.from({ length: c.certificates ?? 0 }, (_, i) => demoCode(`${c.code}-certificate`, i + 1));
    if (certificates.length) {
      if (!(await chainCodeExists(db, certificates[0]!)))
        await addChainCodes(db, { channelId, campaignId: campaign.id, type: 2, codes: certificates });
      printed.push({
        channel: c.channel,
        host: channel.host,
        path: '/chain',
        name: `${c.name} (self chain-up, certificate codes)`,
        codes: certificates,
      });
    }
  }
  return printed;
}
