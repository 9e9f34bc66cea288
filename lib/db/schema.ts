import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  index,
  check,
  date,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

/**
 * Channel attributes: the spec's "listed channels" (spec §1, §2, §3) are attributes of a channel row,
 * never hard-coded lists of keys (DESIGN §6).
 */
export type ChannelAttributes = {
  /** spec §3 goodsInfo.showAmount false: prices and totals are hidden. */
  hideAmount?: boolean;
  /** spec §1: the page title reads 'buy goods'. */
  buyGoodsTitle?: boolean;
  /** spec §2 Guards: gift-only class, home goes to /receive. */
  giftOnly?: boolean;
  /** spec §2: /mine/destory is titled 'receive records'. */
  destroyTitledReceive?: boolean;
  /** spec §2: this channel class cannot open /active. */
  noActive?: boolean;
};

/**
 * What a channel asks a buyer to have proved before each action (issue 33; parsed with its defaults by
 * lib/channel/identity-policy.ts, which is the one reader of this JSON).
 */
export type IdentityPolicyJson = {
  /** Real-name verification required before buying, receiving (a gift or a free claim), an exchange, chain-up. */
  realName?: { buy?: boolean; receive?: boolean; exchange?: boolean; chainUp?: boolean };
  /** The channel's minimum age; absent or null: none. Turns real-name on for every action it guards. */
  minAge?: 14 | 16 | 18 | null;
  /** Blind boxes' own minimum age; absent or null: not gated. Below 18 needs a guardian's consent, not built. */
  blindBoxMinAge?: 18 | null;
};

/** A channel's risk rules at order time (issue 33; parsed with its defaults by lib/channel/risk-policy.ts). */
export type RiskPolicyJson = {
  /** Unpaid-order squatting: `limit` orders cancelled or expired unpaid within `withinHours` bar ordering for `blockHours`. */
  unpaid?: { limit?: number; withinHours?: number; blockHours?: number };
  /** Whether a higher-risk buy may be asked for a captcha at the buy tap. */
  captcha?: boolean;
};

/** A channel's customer-service contact (issue 31); every field optional. */
export type CustomerService = { phone?: string; hours?: string; email?: string; url?: string };

/** A white-label storefront, one per host name (spec §1, §3 channel theme info). */
export const channels = pgTable(
  'channels',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull().unique(),
    /** Canonical host name, used for absolute URLs in link previews. */
    host: text('host').notNull(),
    name: text('name').notNull(),
    brandName: text('brand_name').notNull(),
    /** 0 hides the root screen (spec §1). */
    status: integer('status').notNull().default(1),
    /** Comma-separated digits 1..4 (spec §3). */
    labelList: text('label_list').notNull(),
    isHaveTheme: boolean('is_have_theme').notNull().default(true),
    marketText: text('market_text').notNull().default(''),
    buyText: text('buy_text').notNull().default(''),
    exchangeText: text('exchange_text').notNull().default(''),
    privacyText: text('privacy_text').notNull().default(''),
    salesStrategyText: text('sales_strategy_text').notNull().default(''),
    /** JSON string with the skin fields of spec §3; parsed leniently. */
    skinJson: text('skin_json').notNull().default('{}'),
    /** 'en' | 'zh-CN'; null lets Accept-Language decide. */
    locale: text('locale'),
    timeZone: text('time_zone').notNull().default('Asia/Shanghai'),
    appScheme: text('app_scheme'),
    appDownloadUrl: text('app_download_url'),
    attributes: jsonb('attributes').$type<ChannelAttributes>().notNull().default({}),
    /**
     * The channel's own SMS sign name and template id at the carrier (Aliyun, Tencent Cloud); null uses the deployment's
     * SMS_SIGN_NAME / SMS_TEMPLATE_ID (lib/auth/sms.ts). Never shown in the API.
     */
    smsSignName: text('sms_sign_name'),
    smsTemplateId: text('sms_template_id'),
    /**
     * The payment providers the channel offers, by name (lib/payment/providers.ts), in the order the pay page lists them;
     * those the deployment does not run (PAYMENT_PROVIDERS) are left out. Empty: every provider the deployment runs.
     */
    paymentProviders: text('payment_providers')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * How buyers reach the channel's customer service (issue 31): a phone, opening hours, an e-mail or a web page; each
     * optional, shown on the mine page where the store names its customer service (lib/channel/compliance.ts).
     */
    customerService: jsonb('customer_service').$type<CustomerService>().notNull().default({}),
    /**
     * The compliance footer (issue 31, mainland regulation): the ICP filing number (e.g. 京ICP备12345678号-1), the public
     * security filing number (京公网安备11010502030143号) and the blockchain information service filing number
     * (京网信备11010519512345678901号); null: not shown. Shapes in lib/channel/compliance.ts.
     */
    icpFiling: text('icp_filing'),
    publicSecurityFiling: text('public_security_filing'),
    blockchainFiling: text('blockchain_filing'),
    /** Real-name and age rules per action (issue 33); `{}`: none. */
    identityPolicy: jsonb('identity_policy').$type<IdentityPolicyJson>().notNull().default({}),
    /** Risk rules at order time (issue 33); `{}`: the defaults. */
    riskPolicy: jsonb('risk_policy').$type<RiskPolicyJson>().notNull().default({}),
    /**
     * Gifting between buyers (issue 36, docs/gifting.md): how many hours a holder keeps an edition, from its purchase or
     * its receipt by gift, before they may give it on. 0: at once.
     */
    giftHoldingHours: integer('gift_holding_hours').notNull().default(24),
    /**
     * issue 36: the WeChat official account (公众号) whose JS-SDK sets the share card inside WeChat (lib/wechat,
     * docs/wechat.md); null: none, nothing loads. Its AppSecret is the deployment's (WECHAT_MP_SECRETS), never here.
     * One account may serve several channels.
     */
    wechatAppId: text('wechat_app_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // issue 31: "its key, OPS by the spec's rule, is reserved and can never be a channel" (the operator host's key).
  (t) => [check('channels_key_not_reserved', sql`${t.key} <> 'OPS'`)],
);
export type ChannelRow = typeof channels.$inferSelect;

/** Where a channel's domain stands (issue 31, "Domains"; lib/channel/domains.ts). */
export const DOMAIN_STATUSES = ['pending', 'verified', 'misconfigured', 'removed'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];
/** Why a domain is misconfigured: its TXT record is missing or holds another token, or the name points elsewhere. */
export const DOMAIN_PROBLEMS = ['txt_missing', 'txt_wrong', 'points_elsewhere'] as const;
export type DomainProblem = (typeof DOMAIN_PROBLEMS)[number];

/**
 * A host a channel is served on besides the spec §1 key rule (issue 31, "Domains"): a custom domain an operator added
 * and proved at their DNS, or a host the deployment served before domains existed (migrated as verified). A host
 * belongs to one channel at a time (a removed row is taken over when the host is added again); at most one host of a
 * channel is its primary, the one every other host of the channel redirects to.
 */
export const channelDomains = pgTable(
  'channel_domains',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Lower case, IDNA (punycode) form, no port, no trailing dot. */
    host: text('host').notNull().unique(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    isPrimary: boolean('is_primary').notNull().default(false),
    status: text('status').$type<DomainStatus>().notNull().default('pending'),
    /** Why the last check failed (status misconfigured, or verified within its grace period); null otherwise. */
    problem: text('problem').$type<DomainProblem>(),
    /** What the TXT record `_storefront-verify.<host>` must hold (`storefront-verify=<token>`) to prove ownership. */
    token: text('token').notNull(),
    /**
     * How ownership was shown: `txt`, the TXT record (re-checked by the worker); `setup`, the host was served before
     * domains existed (docs/deploy.md §8) and is trusted as it was, never re-checked (it has no TXT record to find).
     */
    provenBy: text('proven_by').$type<'txt' | 'setup'>().notNull().default('txt'),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    /** Since when the domain passes its check; kept through a failing grace period, cleared when it stops being served. */
    verifiedSince: timestamp('verified_since', { withTimezone: true }),
    /** Since when a verified domain fails its check (the grace period counts from here); null while it passes. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('channel_domains_one_primary')
      .on(t.channelId)
      .where(sql`${t.isPrimary}`),
    index('channel_domains_channel').on(t.channelId),
    check('channel_domains_status', sql`${t.status} in ('pending', 'verified', 'misconfigured', 'removed')`),
    check('channel_domains_problem', sql`${t.problem} is null or ${t.problem} in ('txt_missing', 'txt_wrong', 'points_elsewhere')`),
    check('channel_domains_proven_by', sql`${t.provenBy} in ('txt', 'setup')`),
    check('channel_domains_host_lower', sql`${t.host} = lower(${t.host})`),
  ],
);
export type ChannelDomainRow = typeof channelDomains.$inferSelect;

/** A collectible's design: what a sale sells (DESIGN §5 `commodity`). */
export const commodities = pgTable(
  'commodities',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    cover: text('cover').notNull(),
    /** Gallery image paths. */
    actualPicture: jsonb('actual_picture').$type<string[]>().notNull().default([]),
    description: text('description').notNull().default(''),
    /** Edition size: how many numbered copies exist. */
    amountSku: integer('amount_sku').notNull(),
    chainName: text('chain_name').notNull(),
    chainContract: text('chain_contract').notNull(),
    contractAddress: text('contract_address').notNull(),
    authorName: text('author_name').notNull(),
    authorCover: text('author_cover').notNull(),
    publisherName: text('publisher_name').notNull(),
    seriesName: text('series_name'),
    isBlindBox: boolean('is_blind_box').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('commodities_channel_code').on(t.channelId, t.code),
    check('commodities_amount_sku_positive', sql`${t.amountSku} > 0`),
  ],
);

/** A sale ("sale record"): a commodity offered at a price, with stock and a window. */
export const sales = pgTable(
  'sales',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    commodityId: integer('commodity_id')
      .notNull()
      .references(() => commodities.id),
    code: text('code').notNull(),
    /** Integer fen (DESIGN §5). */
    price: integer('price').notNull(),
    /** Copies offered by this sale. */
    amount: integer('amount').notNull(),
    /** Copies left; reserved atomically by orders (DESIGN §7). */
    amountAvailable: integer('amount_available').notNull(),
    limitPerUser: integer('limit_per_user').notNull().default(1),
    saleStartTime: timestamp('sale_start_time', { withTimezone: true }).notNull(),
    saleEndTime: timestamp('sale_end_time', { withTimezone: true }),
    sort: integer('sort').notNull().default(0),
    /**
     * Issue 32, "Drop-day controls": when an operator paused buying (a price typo on a live sale); null while buying
     * runs. A paused sale refuses new orders (lib/order/service.ts `termsRefusal`) until resumed.
     */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    /** Issue 32: a hidden sale (false) is left out of the home list; its page still opens by its link (a preview). */
    listed: boolean('listed').notNull().default(true),
    /**
     * Issue 32: "a sale with orders is archived, never deleted": an archived sale leaves the store's lists and refuses
     * new orders, while its orders and holdings keep pointing at it.
     */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Set when an operator cancels the sale on drop day (issue 32): it takes no more orders, shows as cancelled on the
     * store, and its paid orders are refunded in the background (lib/jobs/sale-cancel.ts).
     */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** The cancellation's refunds that could not be made, by order number, with why (the console shows them). */
    cancelFailures: jsonb('cancel_failures').$type<Record<string, string>>(),
  },
  (t) => [
    uniqueIndex('sales_channel_code').on(t.channelId, t.code),
    index('sales_channel_sort').on(t.channelId, t.sort),
    check('sales_price_non_negative', sql`${t.price} >= 0`),
    check('sales_stock_in_range', sql`${t.amountAvailable} >= 0 AND ${t.amountAvailable} <= ${t.amount}`),
  ],
);

/** Blind-box odds: what a box can reveal and with which published weight (DESIGN §7). */
export const blindBoxPrizes = pgTable(
  'blind_box_prizes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    boxCommodityId: integer('box_commodity_id')
      .notNull()
      .references(() => commodities.id),
    prizeCommodityId: integer('prize_commodity_id')
      .notNull()
      .references(() => commodities.id),
    /** Odds in basis points (issue 32: a box's prizes add up to exactly 10000; older rows are relative weights). */
    weight: integer('weight').notNull(),
    /**
     * What the prize is worth, integer fen, shown to buyers beside its odds (issue 32: the market regulator's blind-box
     * guideline asks for values, rules and odds shown prominently); null where an operator has not set it yet.
     */
    value: integer('value'),
  },
  (t) => [
    uniqueIndex('blind_box_prizes_pair').on(t.boxCommodityId, t.prizeCommodityId),
    check('blind_box_prizes_weight_positive', sql`${t.weight} > 0`),
    check('blind_box_prizes_value_non_negative', sql`${t.value} is null or ${t.value} >= 0`),
  ],
);

/** The channel's allowed store codes for self chain-up (spec §9). */
export const storeCodes = pgTable(
  'store_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('store_codes_channel_code').on(t.channelId, t.code)],
);

/** Tracking events from the storefront's log service (spec §3, §7), per channel. */
export const trackingEvents = pgTable(
  'tracking_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    eventType: text('event_type').notNull(),
    pageId: text('page_id').notNull(),
    sessionId: text('session_id').notNull(),
    /** serv_time: stamped by the server when the batch arrives. */
    servTime: timestamp('serv_time', { withTimezone: true }).notNull().defaultNow(),
    /** The validated record (spec §3 fields). */
    record: jsonb('record').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index('tracking_events_channel_time').on(t.channelId, t.servTime)],
);

/** A buyer, known by a mainland-China mobile number (spec §1, §5); signed up on first login. One per phone. */
export const users = pgTable('users', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  /** The public id (userUuid in the API); internal ids never leave the server. */
  uuid: text('uuid').notNull().unique(),
  phone: text('phone').notNull().unique(),
  nickname: text('nickname'),
  avatar: text('avatar'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  /**
   * issue 36: the buyer closed the account (docs/profile.md): its phone is released (`phone` then holds `closed:<id>`,
   * so the number may sign up anew), its nickname and avatar cleared, its sessions ended on every channel.
   */
  closedAt: timestamp('closed_at', { withTimezone: true }),
});

/**
 * A buyer's verified real-name identity (issue 33; docs/security.md, "Real-name identities"): at most one per account,
 * and an identity (by the keyed hash of its ID number) bound to at most one account in the deployment. The legal name
 * and the ID number are kept only sealed (AES-256-GCM under the key `keyId` names, lib/identity/seal.ts); what the
 * store shows is the masked forms, and what the age rules read is the birth date.
 */
export const buyerIdentities = pgTable(
  'buyer_identities',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    /**
     * HMAC-SHA256 of the ID number under IDENTITY_HASH_KEY (hex): finds the identity without opening the seal. Unique
     * among open accounts only (issue 36): a closed account keeps its row for the stated period, and the same person may
     * verify a new account, whose limits then count the closed one's (lib/identity/service.ts).
     */
    idHash: text('id_hash').notNull(),
    nameSealed: text('name_sealed').notNull(),
    idNumberSealed: text('id_number_sealed').notNull(),
    /** Which of IDENTITY_KEYS sealed the two fields (key rotation). */
    keyId: text('key_id').notNull(),
    /** Read from the ID number (GB 11643); the age rules need nothing else. */
    birthDate: date('birth_date', { mode: 'string' }).notNull(),
    /** 张*, 1101**********1234: the only forms ever shown. */
    maskedName: text('masked_name').notNull(),
    maskedIdNumber: text('masked_id_number').notNull(),
    /** The vendor that confirmed name and number (tencent, aliyun, demo). */
    provider: text('provider').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
    /** When the account closed (issue 36); null while it is open. Swept RETENTION.closedAccountDays after (lib/jobs/retention.ts). */
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('buyer_identities_open_id_hash')
      .on(t.idHash)
      .where(sql`${t.closedAt} is null`),
    index('buyer_identities_id_hash').on(t.idHash),
  ],
);

/**
 * Photos buyers uploaded as their avatar (issue 36; docs/profile.md, "Nickname and avatar"): one row per stored photo
 * (its media key, content-addressed), so the retention sweep finds the ones no longer anyone's avatar (replaced, cleared,
 * an account closed) and deletes them from the media store after a grace (lib/buyer/avatar-sweep.ts). No buyer column:
 * whose avatar a photo is, is `users.avatar` alone.
 */
export const avatarPhotos = pgTable('avatar_photos', {
  key: text('key').primaryKey(),
  /** The URL the upload set as the avatar (the media store's url of the key). */
  url: text('url').notNull(),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull(),
  /** When the sweep first found it no one's avatar; null while it is one (or not looked at yet). */
  unusedSince: timestamp('unused_since', { withTimezone: true }),
});

/**
 * Which version of which agreement a buyer accepted, on which channel, and when (issue 33): the privacy policy and the
 * sales terms at login, the identity consent at verification. `version` is the text's own fingerprint
 * (lib/channel/agreements.ts), so an edited text is a new version.
 */
export const agreementAcceptances = pgTable(
  'agreement_acceptances',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    /** 'privacy' | 'salesStrategy' | 'identityConsent'. */
    agreement: text('agreement').notNull(),
    version: text('version').notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('agreement_acceptances_once').on(t.userId, t.channelId, t.agreement, t.version),
    check('agreement_acceptances_agreement', sql`${t.agreement} in ('privacy', 'salesStrategy', 'identityConsent')`),
  ],
);

/** thirdAccount/brandChannel: the user bound to a channel's brand, once per channel (spec §7). */
export const userBrandBindings = pgTable(
  'user_brand_bindings',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    brandName: text('brand_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_brand_bindings_user_channel').on(t.userId, t.channelId)],
);

/**
 * A login session of one user on one channel: the API token (kept only as a SHA-256 hash), its expiry and its
 * revocation at logout (DESIGN §10). The web session cookie carries the token inside next-auth's encrypted JWT.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    /** issue 36: the user agent at login (at most 256 characters), shown to the buyer in words among their logins. */
    userAgent: text('user_agent'),
  },
  (t) => [index('auth_sessions_user').on(t.userId)],
);

/** SMS verification codes (DESIGN §10): hashed, 5 minutes, single use, 5 wrong tries burn it. Rows also feed the rate limits. */
export const smsCodes = pgTable(
  'sms_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    ip: text('ip').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    wrongTries: integer('wrong_tries').notNull().default(0),
    /** Set when the code logs someone in or is burnt by wrong tries; a consumed code never works again. */
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    /** issue 36: what the code is for: 'login', or 'close' (closing the account); a code works only for its purpose. */
    purpose: text('purpose').notNull().default('login'),
  },
  (t) => [
    check('sms_codes_purpose', sql`${t.purpose} in ('login', 'close')`),
    index('sms_codes_phone_time').on(t.phone, t.createdAt),
    index('sms_codes_ip_time').on(t.ip, t.createdAt),
    index('sms_codes_channel_time').on(t.channelId, t.createdAt),
  ],
);

/**
 * Devices that logged in on a channel (issue 29): a buyer whose device is here still gets codes once the channel's hourly
 * SMS budget for new numbers is spent (lib/auth/sms-codes.ts). The storefront_device cookie's id is kept only as its
 * SHA-256; a row goes RETENTION.knownDeviceDays after the device's last login there (lib/jobs/retention.ts).
 */
export const channelLoginDevices = pgTable(
  'channel_login_devices',
  {
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    deviceHash: text('device_hash').notNull(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.deviceHash] }), index('channel_login_devices_last_login').on(t.lastLoginAt)],
);

/**
 * Slider-captcha challenges and the tickets they grant (issue: self-hosted captcha). The answer stays here, never
 * in the client; a challenge takes one answer; a ticket is single use and short-lived.
 */
export const captchaChallenges = pgTable(
  'captcha_challenges',
  {
    id: text('id').primaryKey(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    /** 'slider' (drag the piece to x) or 'text' (the accessible fallback: a question answered in words or digits). */
    kind: text('kind').notNull(),
    answer: integer('answer').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    ticketHash: text('ticket_hash').unique(),
    ticketExpiresAt: timestamp('ticket_expires_at', { withTimezone: true }),
    ticketUsedAt: timestamp('ticket_used_at', { withTimezone: true }),
  },
  (t) => [index('captcha_challenges_created').on(t.createdAt)],
);

/**
 * Texts to buyers. A login code's text as the demo SMS provider `outbox` keeps it (its code masked; status `kept`:
 * never sent), and the notices a carrier sends through an approved template after the change they tell of has
 * committed (issue 32: a refund's text; lib/auth/sms-outbox.ts): `pending` until sent, then `sent`, or `failed` after
 * its last attempt (or a number the carrier refuses); `kept` when this deployment has no carrier or no template for it.
 */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    phone: text('phone').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** `code` (a login code's kept copy) or `refund` (issue 32). */
    kind: text('kind').notNull().default('code'),
    /**
     * The template's parameters as [name, value] pairs in the template's order (Tencent Cloud numbers them; a jsonb
     * object would not keep the order). A refund: `order`, the order number's last 6 characters; `amount`, yuan.
     */
    params: jsonb('params').$type<[string, string][]>(),
    status: text('status').notNull().default('kept'),
    /** Tries made at the carrier; the next one not before `next_attempt_at` (also the lease of the try under way). */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Why the last try failed, in the operator's words (the carrier's code); never the text itself. */
    lastError: text('last_error'),
  },
  (t) => [
    index('sms_outbox_phone_time').on(t.phone, t.createdAt),
    // The sender's scan: the pending texts that are due.
    index('sms_outbox_pending')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * How many copies of one sale a user holds in open or paid orders (DESIGN §7): the per-user limit is enforced by
 * the database, by the CHECK below, in the same transaction that reserves the stock.
 */
export const saleQuotas = pgTable(
  'sale_quotas',
  {
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    reserved: integer('reserved').notNull(),
    /** The sale's limitPerUser when the row was made (copied so the CHECK can see it). */
    maxReserved: integer('max_reserved').notNull(),
  },
  (t) => [
    uniqueIndex('sale_quotas_sale_user').on(t.saleId, t.userId),
    check('sale_quotas_within_limit', sql`${t.reserved} >= 0 AND ${t.reserved} <= ${t.maxReserved}`),
  ],
);

/**
 * An order (DESIGN §5 names): `statusTrade` 0 to pay, 1 paid, 2 cancelled (by the buyer or by expiry), 3 closed
 * (paid after it had expired: refunded, never minted). Transitions in docs/orders.md.
 */
export const orders = pgTable(
  'orders',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderNo: text('order_no').notNull().unique(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    quantity: integer('quantity').notNull(),
    /** Unit price and total (`amount`), integer fen, fixed when the order is made. */
    price: integer('price').notNull(),
    amount: integer('amount').notNull(),
    statusTrade: integer('status_trade').notNull().default(0),
    /** The client's key for "this tap": a retried create returns the same order. */
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    payTime: timestamp('pay_time', { withTimezone: true }),
    cancelTime: timestamp('cancel_time', { withTimezone: true }),
    /** 'buyer' | 'expired' | 'paidLate'. */
    cancelReason: text('cancel_reason'),
    /**
     * issue 36 (docs/sharing.md): the keyed hash of the buying device's storefront_device cookie (lib/security/device.ts
     * `deviceKey`), so a buy is credited to the sharer whose link that device followed; null when the buy had no cookie.
     */
    deviceKey: text('device_key'),
  },
  (t) => [
    uniqueIndex('orders_user_idempotency').on(t.userId, t.idempotencyKey),
    index('orders_user_created').on(t.userId, t.createdAt),
    index('orders_open_expiry').on(t.statusTrade, t.expiresAt),
    // A sale's buyers and its next unpaid expiry, read when it is noted sold out (lib/order/sold-out.ts).
    index('orders_sale_user').on(t.saleId, t.userId),
    // The daily reports' figures of a channel's day read its paid orders by payment time (lib/report/daily.ts, issue 32).
    index('orders_channel_paid').on(t.channelId, t.payTime),
    // A buyer's orders left unpaid (cancelled by them or expired; not a sale the operator cancelled), newest first: the
    // unpaid-order rule reads them on every buy (lib/order/unpaid-rule.ts, issue 33), so it is one short range scan.
    index('orders_user_unpaid')
      .on(t.userId, t.channelId, t.cancelTime)
      .where(sql`${t.statusTrade} = 2 and ${t.cancelReason} in ('buyer', 'expired')`),
    check('orders_quantity_positive', sql`${t.quantity} > 0`),
  ],
);

/** A payment attempt of an order with a provider (DESIGN §7). `status`: 0 created, 1 paid, 2 failed, 3 refunded. */
/**
 * A payment provider's answer to opening a payment (lib/payment/provider.ts `PaymentStart`), as kept on the payment to
 * hand it out again: the pay URL, and WeChat's JSAPI sheet.
 */
export type PaymentStartRecord = {
  payUrl: string;
  jsapi?: { appId: string; timeStamp: string; nonceStr: string; package: string; signType: 'RSA'; paySign: string };
};

export const payments = pgTable(
  'payments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    paymentNo: text('payment_no').notNull().unique(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    provider: text('provider').notNull(),
    amount: integer('amount').notNull(),
    status: integer('status').notNull().default(0),
    /** The provider's own id of the transaction, from its notification. */
    providerTradeNo: text('provider_trade_no'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** How many notifications arrived for it (repeats are normal; only the first one acts). */
    notifications: integer('notifications').notNull().default(0),
    /**
     * Where the buyer pays from (lib/payment/clients.ts: wechat, mobile, …) and, for WeChat Pay JSAPI, as whom (the
     * openid), and the provider's answer to opening it (pay URL, JSAPI sheet): pay/create answers an open payment again
     * from these, with no call to the provider, while its pay URL is still good (issue 29; docs/orders.md). Null on
     * payments made before they were kept: those are never answered again.
     */
    client: text('client'),
    payerOpenid: text('payer_openid'),
    start: jsonb('start').$type<PaymentStartRecord>(),
    /**
     * The reconciliation's schedule, shared by every process and kept over restarts (issue 29): when to ask the provider
     * about an open payment next (or retry a refund owed), and how many times it was asked; null on a payment made
     * before the schedule was kept (asked at once). `queriedAt`: the last time anyone asked the provider about it (the
     * result page's pay/query asks at most once per few seconds per payment).
     */
    nextQueryAt: timestamp('next_query_at', { withTimezone: true }),
    queries: integer('queries').notNull().default(0),
    queriedAt: timestamp('queried_at', { withTimezone: true }),
  },
  (t) => [
    index('payments_order').on(t.orderId),
    // The reconciliation takes due payments in the order they fell due; only open ones and refunds owed are ever due.
    index('payments_due')
      .on(t.nextQueryAt)
      .where(sql`${t.status} in (0, 4)`),
  ],
);

/**
 * A refund of an order, whole or in part (issue 32, "Orders and buyers"): what was given back (copies and fen), why,
 * who asked (an operator; null for the system's own: a sale cancelled, a payment that came too late), and its state
 * with the provider: `owed` until the provider confirms, then `done`. One per (order, idempotency key), so a
 * double-click is one refund. The reports count refunds from here.
 */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The refund's number at the provider (its out_refund_no / out_request_no). */
    refundNo: text('refund_no').notNull().unique(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    /** Copies given back and the money, integer fen. */
    quantity: integer('quantity').notNull(),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    operatorId: integer('operator_id'),
    /** 'owed' | 'done'. */
    status: text('status').notNull().default('owed'),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('order_refunds_order_key').on(t.orderId, t.idempotencyKey),
    index('order_refunds_channel_created').on(t.channelId, t.createdAt),
    check('order_refunds_status', sql`${t.status} in ('owed', 'done')`),
    check('order_refunds_amount_non_negative', sql`${t.amount} >= 0 AND ${t.quantity} > 0`),
  ],
);

/**
 * A numbered collectible a user holds ("treasure", DESIGN §5). A blind box is a holding of the box commodity
 * until it is opened (`openedAt`); opening it mints the drawn prize as a new holding.
 */
export const holdings = pgTable(
  'holdings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    commodityId: integer('commodity_id')
      .notNull()
      .references(() => commodities.id),
    /** Edition number, 1..amountSku, unique per commodity. */
    number: integer('number').notNull(),
    orderId: integer('order_id').references(() => orders.id),
    /** The box holding this one was drawn from. */
    fromBoxId: integer('from_box_id'),
    /** How it came: 'order' | 'box' | 'gift' | 'exchange' | 'chainUp'. */
    source: text('source').notNull().default('order'),
    /** Set when spent in an exchange (spec §2 mineDestory): no longer in the collection. */
    destroyedAt: timestamp('destroyed_at', { withTimezone: true }),
    /** The exchange that spent it. */
    destroyedByExchangeId: integer('destroyed_by_exchange_id'),
    /**
     * Set when its order was refunded (issue 32): taken back from the buyer, no longer in the collection, like a
     * destroyed one. `refundId` is the order_refunds row that took it back.
     */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    refundId: integer('refund_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /**
     * When its holder received it as a gift from another buyer (issue 36, lib/transfer): the holding period starts again
     * from here. Null for an edition its holder got any other way.
     */
    receivedAt: timestamp('received_at', { withTimezone: true }),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    /** 0 pending, 1 on chain. */
    chainStatus: integer('chain_status').notNull().default(0),
    tokenId: text('token_id'),
    tradeHash: text('trade_hash'),
    /**
     * The opaque code of the edition's public certificate page (issue 36, `/cert/<code>`; docs/gifting.md,
     * "Certificate"): random, made the first time its holder opens the certificate, kept when the edition is given, so a
     * shared link follows the edition. Null until then.
     */
    shareCode: text('share_code'),
  },
  (t) => [
    uniqueIndex('holdings_commodity_number').on(t.commodityId, t.number),
    uniqueIndex('holdings_share_code').on(t.shareCode),
    index('holdings_user_channel').on(t.userId, t.channelId, t.createdAt),
    index('holdings_chain_pending').on(t.chainStatus),
  ],
);

/** Editions minted so far per commodity: the next numbers come from here, in the minting transaction. */
export const editionCounters = pgTable(
  'edition_counters',
  {
    commodityId: integer('commodity_id')
      .primaryKey()
      .references(() => commodities.id),
    minted: integer('minted').notNull(),
    amountSku: integer('amount_sku').notNull(),
  },
  (t) => [check('edition_counters_within_edition', sql`${t.minted} >= 0 AND ${t.minted} <= ${t.amountSku}`)],
);

/** Every blind-box draw, with what was drawn and the weights it was drawn from (DESIGN §7). */
export const boxDraws = pgTable('box_draws', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  boxHoldingId: integer('box_holding_id')
    .notNull()
    .unique()
    .references(() => holdings.id),
  prizeHoldingId: integer('prize_holding_id')
    .notNull()
    .references(() => holdings.id),
  prizeCommodityId: integer('prize_commodity_id')
    .notNull()
    .references(() => commodities.id),
  /** The roll in [0, totalWeight) and the weights at the time, as {commodityId: weight}. */
  roll: integer('roll').notNull(),
  totalWeight: integer('total_weight').notNull(),
  weights: jsonb('weights').$type<Record<string, number>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * The built-in chain ledger (DESIGN §7): append-only, each entry's hash covers the previous entry's hash, so any
 * edit breaks the chain. Honestly a ledger in our database, not a public blockchain. An edition's first entry records
 * it (`mint`, one per holding); issue 36 adds a `transfer` entry each time a gift of it between buyers is accepted.
 */
export const chainLedger = pgTable(
  'chain_ledger',
  {
    height: integer('height').primaryKey(),
    prevHash: text('prev_hash').notNull(),
    txHash: text('tx_hash').notNull().unique(),
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    /** 'mint' | 'transfer' (issue 36). */
    kind: text('kind', { enum: ['mint', 'transfer'] })
      .notNull()
      .default('mint'),
    tokenId: text('token_id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // One mint per holding: a second worker's mint of the same holding fails here (lib/chain/ledger-job.ts).
    uniqueIndex('chain_ledger_holding_mint')
      .on(t.holdingId)
      .where(sql`${t.kind} = 'mint'`),
    index('chain_ledger_holding').on(t.holdingId, t.height),
  ],
);

/**
 * The payment sandbox's own books: what the buyer did at the sandbox cashier, as a real provider would keep it.
 * Only the `sandbox` provider reads or writes this table; it answers that provider's query call.
 */
export const sandboxTransactions = pgTable('sandbox_transactions', {
  paymentNo: text('payment_no').primaryKey(),
  tradeNo: text('trade_no').notNull().unique(),
  amount: integer('amount').notNull(),
  /** 'SUCCESS' | 'FAILED' | 'REFUNDED' | 'CLOSED' (closed by the storefront before the buyer paid: it cannot be paid). */
  status: text('status').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * The sandbox's refunds, one per refund number (issue 32): as WeChat Pay's out_refund_no and Alipay's out_request_no,
 * a repeated refund number is the same refund, never a second one. The paid-late refund of a whole payment keeps its
 * old mark (`sandbox_transactions.status` REFUNDED).
 */
export const sandboxRefunds = pgTable('sandbox_refunds', {
  refundNo: text('refund_no').primaryKey(),
  paymentNo: text('payment_no').notNull(),
  amount: integer('amount').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * A campaign of the channel's activity features (spec §2 active, receive; DESIGN §5): 'gift' campaigns give
 * collectibles away (label 3), 'exchange' activities trade collectibles in for new ones (label 2). The route's `:id`.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    /** 'gift' | 'exchange'. */
    kind: text('kind').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    cover: text('cover').notNull(),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true }),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    uniqueIndex('campaigns_channel_code').on(t.channelId, t.code),
    index('campaigns_channel_kind').on(t.channelId, t.kind),
    check('campaigns_kind', sql`${t.kind} in ('gift', 'exchange')`),
  ],
);

/**
 * One offer inside a campaign (the route's `:exchange_id`): what it gives, how many are left, how often a user may
 * take it, and what it asks: holding a collectible (gift eligibility), a redeem code, or (exchange) the inputs in
 * `offer_inputs`, which are destroyed.
 */
export const campaignOffers = pgTable(
  'campaign_offers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    /** What the user gets: one numbered holding of this commodity. */
    commodityId: integer('commodity_id')
      .notNull()
      .references(() => commodities.id),
    total: integer('total').notNull(),
    remaining: integer('remaining').notNull(),
    limitPerUser: integer('limit_per_user').notNull().default(1),
    /** Gift eligibility: the user must hold (not destroyed) a copy of this commodity. */
    requiresCommodityId: integer('requires_commodity_id').references(() => commodities.id),
    /** The user must enter one of the offer's redeem codes, each used once. */
    requiresCode: boolean('requires_code').notNull().default(false),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    index('campaign_offers_campaign').on(t.campaignId),
    check('campaign_offers_remaining', sql`${t.remaining} >= 0 AND ${t.remaining} <= ${t.total}`),
    check('campaign_offers_limit_positive', sql`${t.limitPerUser} > 0`),
  ],
);

/** An exchange offer's recipe: `quantity` holdings of `commodityId` are spent (destroyed) per exchange. */
export const offerInputs = pgTable(
  'offer_inputs',
  {
    offerId: integer('offer_id')
      .notNull()
      .references(() => campaignOffers.id),
    commodityId: integer('commodity_id')
      .notNull()
      .references(() => commodities.id),
    quantity: integer('quantity').notNull(),
  },
  (t) => [uniqueIndex('offer_inputs_pair').on(t.offerId, t.commodityId), check('offer_inputs_quantity_positive', sql`${t.quantity} > 0`)],
);

/**
 * Redeem codes of an offer (DESIGN §10): 128-bit random, stored only as SHA-256, used once (`used_by` set in the
 * claim's transaction, guarded by `used_by IS NULL`).
 */
export const redeemCodes = pgTable(
  'redeem_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    offerId: integer('offer_id')
      .notNull()
      .references(() => campaignOffers.id),
    codeHash: text('code_hash').notNull().unique(),
    usedBy: integer('used_by').references(() => users.id),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** The batch the code came in (issue 32); null for codes made before batches. */
    batchId: integer('batch_id').references((): AnyPgColumn => redeemCodeBatches.id),
    /** Revoked on its own by an operator (issue 32): refused at claim with its own words. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('redeem_codes_offer').on(t.offerId), index('redeem_codes_batch').on(t.batchId)],
);

/**
 * A batch of an offer's redeem codes (issue 32, "redeem-code batches"): generated here (128-bit codes, stored hashed)
 * or imported (codes printed elsewhere, as the demo's fixed ones). A generated batch's plain codes are held sealed
 * (AES-256-GCM, key derived from AUTH_SECRET) in `sealed_codes` until its one export or REDEEM_BATCH_SEAL_HOURS pass,
 * then dropped (docs/security.md, "Redeem-code batches"). The expiry and a revocation are honoured at claim.
 */
export const redeemCodeBatches = pgTable(
  'redeem_code_batches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    offerId: integer('offer_id')
      .notNull()
      .references(() => campaignOffers.id),
    size: integer('size').notNull(),
    source: text('source', { enum: ['generated', 'imported'] }).notNull(),
    /** After this moment its unused codes are refused at claim; null: they do not expire. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The operator who made it; null for the demo seed. */
    createdBy: integer('created_by').references(() => operators.id),
    createdByName: text('created_by_name').notNull(),
    /** The plain codes, sealed, until the one export (generated batches only). */
    sealedCodes: text('sealed_codes'),
    exportedAt: timestamp('exported_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('redeem_code_batches_offer').on(t.offerId),
    check('redeem_code_batches_source', sql`${t.source} in ('generated', 'imported')`),
    check('redeem_code_batches_size_positive', sql`${t.size} > 0`),
  ],
);

/**
 * What a user took from an offer: a gift received (spec mineReceive) or an exchange made (mineExchange), with the
 * holding it minted. Idempotent per (user, key); per-user counts live in `offer_quotas`.
 */
export const offerClaims = pgTable(
  'offer_claims',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    offerId: integer('offer_id')
      .notNull()
      .references(() => campaignOffers.id),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    redeemCodeId: integer('redeem_code_id').references(() => redeemCodes.id),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('offer_claims_user_key').on(t.userId, t.idempotencyKey),
    index('offer_claims_user_channel').on(t.userId, t.channelId, t.kind, t.createdAt),
  ],
);

/** How many times each user took each offer; the database refuses more than the offer's limit. */
export const offerQuotas = pgTable(
  'offer_quotas',
  {
    offerId: integer('offer_id')
      .notNull()
      .references(() => campaignOffers.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    taken: integer('taken').notNull(),
    maxTaken: integer('max_taken').notNull(),
  },
  (t) => [
    uniqueIndex('offer_quotas_pair').on(t.offerId, t.userId),
    check('offer_quotas_within_limit', sql`${t.taken} >= 0 AND ${t.taken} <= ${t.maxTaken}`),
  ],
);

/**
 * Self chain-up campaigns (spec §2 chain, label 4): a physical product carries a code; its buyer enters the code
 * and the store bought from, and gets the product's digital twin, chained up.
 */
export const chainCampaigns = pgTable(
  'chain_campaigns',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    cover: text('cover').notNull(),
    /** The collectible minted for a chained-up code. */
    commodityId: integer('commodity_id')
      .notNull()
      .references(() => commodities.id),
    /** The route's `:authorStageName`. */
    authorStageName: text('author_stage_name').notNull(),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true }),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('chain_campaigns_channel').on(t.channelId)],
);

/** Codes printed on physical products (the route's `:code`, of a `:type`), stored hashed, used once. */
export const chainCodes = pgTable(
  'chain_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => chainCampaigns.id),
    codeHash: text('code_hash').notNull().unique(),
    /** The route's `:type`: 1 product code, 2 certificate code. */
    type: integer('type').notNull(),
    usedBy: integer('used_by').references(() => users.id),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('chain_codes_campaign').on(t.campaignId)],
);

/** A user's chain-up (spec mineChain): the code, the store, and the holding minted; its chain status is the holding's. */
export const chainRecords = pgTable(
  'chain_records',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => chainCampaigns.id),
    chainCodeId: integer('chain_code_id')
      .notNull()
      .unique()
      .references(() => chainCodes.id),
    storeCode: text('store_code').notNull(),
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('chain_records_user_channel').on(t.userId, t.channelId, t.createdAt)],
);

/**
 * Abuse limits as counters (security review, finding 10; docs/security.md): one row per bucket (what is limited and
 * who: `sms:ip:1.2.3.4`) and fixed window. A hit is one INSERT ... ON CONFLICT DO UPDATE ... RETURNING, atomic on
 * PostgreSQL and PGlite alike, so concurrent calls cannot all read "under the limit" before any of them writes.
 * Rows are swept once their window is over (lib/jobs/retention.ts).
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    bucket: text('bucket').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull(),
    /** The end of the window: the row means nothing after it. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] }), index('rate_limits_expires').on(t.expiresAt)],
);

/**
 * The people who run the stores of this deployment (issue 31, "Operator accounts"), signing in on the operator host.
 * `invited` until the enrolment link is used (a password and a TOTP second factor set: no account works without
 * one); `disabled` ends every session at once (sessions are checked against this row on each call).
 */
export const operators = pgTable(
  'operators',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The account name, lower case, as typed at sign-in. */
    name: text('name').notNull().unique(),
    role: text('role', { enum: ['owner', 'manager', 'support'] }).notNull(),
    status: text('status', { enum: ['invited', 'active', 'disabled'] })
      .notNull()
      .default('invited'),
    /** argon2id (PHC string); null until enrolment. */
    passwordHash: text('password_hash'),
    /** The TOTP secret (base32); null until enrolment. The server must read it to check a code, so it is not hashed. */
    totpSecret: text('totp_secret'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The last successful sign-in (the Team page shows it, issue 31); null until the first. */
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  },
  (t) => [
    check('operators_role', sql`${t.role} in ('owner', 'manager', 'support')`),
    check('operators_status', sql`${t.status} in ('invited', 'active', 'disabled')`),
  ],
);
export type OperatorRow = typeof operators.$inferSelect;

/** One-time enrolment links (issue 31): kept as a SHA-256 of the token, expiring, used once; the TOTP secret offered. */
export const operatorInvites = pgTable('operator_invites', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  operatorId: integer('operator_id')
    .notNull()
    .references(() => operators.id),
  tokenHash: text('token_hash').notNull().unique(),
  /** The secret the enrolment page shows (QR code and text) until a code from it confirms enrolment. */
  pendingTotpSecret: text('pending_totp_secret').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** TOTP time steps an operator has used: the primary key makes a replayed code fail atomically (issue 31). */
export const operatorTotpSteps = pgTable(
  'operator_totp_steps',
  {
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    step: bigint('step', { mode: 'number' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.operatorId, t.step] })],
);

/** One-time recovery codes, shown once at enrolment, kept as SHA-256 (80 random bits each). */
export const operatorRecoveryCodes = pgTable(
  'operator_recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    codeHash: text('code_hash').notNull().unique(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('operator_recovery_codes_operator').on(t.operatorId)],
);

/**
 * Operator sessions (issue 31): the `__Host-ops` cookie's token, kept as SHA-256, with an idle timeout (last seen) and
 * an absolute lifetime (expires). Checked with the operator's row on every call, so disabling ends them at once.
 */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text('token_hash').notNull().unique(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    /**
     * When the operator last proved their password and a fresh TOTP code on this session (sign-in, or the re-check of
     * /ops/api/session/confirm): a sensitive write (`reauth: true`) needs it within the last 5 minutes (issue 31).
     */
    provedAt: timestamp('proved_at', { withTimezone: true }),
  },
  (t) => [index('operator_sessions_operator').on(t.operatorId)],
);

/**
 * Per-operator API keys for automation (issue 31: "`OPERATOR_TOKEN` goes"): shown once, kept as the SHA-256 of the
 * secret, scoped to a role no higher than the operator's and channels among the operator's, revocable. A key acts as
 * its operator only while that operator is active.
 */
export const operatorApiKeys = pgTable(
  'operator_api_keys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    label: text('label').notNull(),
    /** The key's first characters, shown in lists so an operator can tell keys apart (not enough to use it). */
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull().unique(),
    role: text('role', { enum: ['owner', 'manager', 'support'] }).notNull(),
    /** Channel keys the key works on (an owner-role key: every channel, empty here). */
    channels: jsonb('channels').$type<string[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('operator_api_keys_operator').on(t.operatorId),
    check('operator_api_keys_role', sql`${t.role} in ('owner', 'manager', 'support')`),
  ],
);
export type OperatorApiKeyRow = typeof operatorApiKeys.$inferSelect;

/** The channels a manager or support operator may work on (an owner works on every channel). */
export const operatorGrants = pgTable(
  'operator_grants',
  {
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
  },
  (t) => [primaryKey({ columns: [t.operatorId, t.channelId] })],
);

/**
 * The audit trail (issue 31): every operator write, who, when, from where, on which channel, what (procedure and input
 * with secrets redacted) and the row before and after. Append-only: lib/operator/audit.ts only inserts.
 */
export const operatorAudit = pgTable(
  'operator_audit',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** Null for a write no operator signed (a failed sign-in names no account). */
    operatorId: integer('operator_id').references(() => operators.id),
    /** The name as it was (or as typed, for a refused sign-in). */
    operatorName: text('operator_name').notNull(),
    ip: text('ip').notNull(),
    channelId: integer('channel_id').references(() => channels.id),
    procedure: text('procedure').notNull(),
    input: jsonb('input').$type<unknown>().notNull(),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
  },
  (t) => [
    index('operator_audit_at').on(t.at),
    index('operator_audit_operator').on(t.operatorId),
    // The audit page's keyset (newest first by moment, then id) and its channel filter (issue 31).
    index('operator_audit_at_id').on(t.at, t.id),
    index('operator_audit_channel').on(t.channelId, t.at),
  ],
);

/**
 * Today's page views per channel (issue 31, "Channels"): store page requests counted in memory where they enter
 * (proxy.ts) and added here by one upsert per channel every few seconds (lib/channel/page-views.ts). `day` is the
 * calendar day in the channel's time zone.
 */
export const channelPageViews = pgTable(
  'channel_page_views',
  {
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    day: date('day', { mode: 'string' }).notNull(),
    views: bigint('views', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.day] })],
);

/**
 * Operators' passkeys (issue 31, "a second factor: … and/or a passkey (WebAuthn)"): one row per credential an operator
 * registered on the Account page. The public key is what checks a signature at sign-in (COSE, base64url); the counter
 * is the authenticator's signature count as last seen, so a cloned authenticator going backwards is refused.
 */
export const operatorPasskeys = pgTable(
  'operator_passkeys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    /** The credential id (base64url), as the browser names it in each answer. */
    credentialId: text('credential_id').notNull().unique(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull(),
    transports: jsonb('transports').$type<string[]>().notNull(),
    /** The operator's name for it ("Work laptop"). */
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('operator_passkeys_operator').on(t.operatorId)],
);

/**
 * Open WebAuthn ceremonies (issue 31): the challenge the server sent, kept server-side with what it is for (adding a
 * passkey, or a pending sign-in after name and password), single-use (usedAt) and expiring. The browser holds only
 * the ceremony's token (kept as SHA-256). A pending sign-in whose name or password was wrong has no operator: it is
 * answered like the others and always refused.
 */
export const operatorPasskeyCeremonies = pgTable(
  'operator_passkey_ceremonies',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text('token_hash').notNull().unique(),
    purpose: text('purpose', { enum: ['register', 'signIn'] }).notNull(),
    operatorId: integer('operator_id').references(() => operators.id),
    challenge: text('challenge').notNull(),
    /** The address of the pending sign-in, so the failed-attempt count it took can be given back from the same bucket. */
    ip: text('ip').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [check('operator_passkey_ceremonies_purpose', sql`${t.purpose} in ('register', 'signIn')`)],
);

/**
 * A buyer's account number on one channel (issue 32, "Orders and buyers"): 10 random digits, unique per channel, made
 * the first time it is needed (lib/auth/account-numbers.ts). Shown on that channel's Mine and used by its operators to
 * find the buyer; never the deployment-wide uuid, so no list or link ties a buyer across stores.
 */
export const buyerAccountNumbers = pgTable(
  'buyer_account_numbers',
  {
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    number: text('number').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.userId] }), uniqueIndex('buyer_account_numbers_channel_number').on(t.channelId, t.number)],
);

/**
 * The blocklist (issue 32): a buyer kept from logging in and buying on a channel (null: every channel), with who, when
 * and why, and its lift. `kind` says what is blocked: 'buyer' (userId set), and since issue 33 'identity' (value: the
 * identity's keyed hash, buyer_identities.id_hash), 'phone' (value: the number as users.phone keeps it) and 'cidr'
 * (value: an address range such as 203.0.113.0/24), one list.
 */
export const buyerBlocks = pgTable(
  'buyer_blocks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull().default('buyer'),
    userId: integer('user_id').references(() => users.id),
    /** Null: every channel (owners only). */
    channelId: integer('channel_id').references(() => channels.id),
    reason: text('reason').notNull(),
    blockedBy: integer('blocked_by').references(() => operators.id),
    blockedAt: timestamp('blocked_at', { withTimezone: true }).notNull(),
    liftedAt: timestamp('lifted_at', { withTimezone: true }),
    liftedBy: integer('lifted_by').references(() => operators.id),
    liftReason: text('lift_reason'),
    /** What an 'identity', 'phone' or 'cidr' block matches (null for 'buyer'). */
    value: text('value'),
  },
  (t) => [
    index('buyer_blocks_user').on(t.userId),
    index('buyer_blocks_value').on(t.kind, t.value),
    check('buyer_blocks_kind', sql`${t.kind} in ('buyer', 'identity', 'phone', 'cidr')`),
    check('buyer_blocks_buyer_has_user', sql`${t.kind} <> 'buyer' OR ${t.userId} IS NOT NULL`),
    check('buyer_blocks_value_set', sql`${t.kind} = 'buyer' OR ${t.value} IS NOT NULL`),
  ],
);

/**
 * A channel's figures per calendar day in its time zone (issue 32, "Reports"; docs/reports.md): tracking sessions
 * (visitors), paying buyers, paid orders and their fen, refunds done and their fen. Written by the reports job
 * (lib/report/daily.ts: today and yesterday every minute, older days by `npm run report:backfill`), so the console's
 * reports read indexed rows, never a scan of `tracking_events`. Page views stay in `channel_page_views`.
 */
export const reportChannelDays = pgTable(
  'report_channel_days',
  {
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    day: date('day', { mode: 'string' }).notNull(),
    visitors: integer('visitors').notNull().default(0),
    buyers: integer('buyers').notNull().default(0),
    orders: integer('orders').notNull().default(0),
    paidAmount: bigint('paid_amount', { mode: 'number' }).notNull().default(0),
    refunds: integer('refunds').notNull().default(0),
    refundAmount: bigint('refund_amount', { mode: 'number' }).notNull().default(0),
    /** Issue 36: page views that arrived through a buyer's share link (`?from=`), and paid orders attributed to one. */
    shareVisits: integer('share_visits').notNull().default(0),
    shareBuys: integer('share_buys').notNull().default(0),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.day] })],
);

/** A sale's paid orders and copies per calendar day in its channel's time zone (issue 32, sell-through). */
export const reportSaleDays = pgTable(
  'report_sale_days',
  {
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    day: date('day', { mode: 'string' }).notNull(),
    orders: integer('orders').notNull().default(0),
    copies: integer('copies').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.saleId, t.day] }), index('report_sale_days_channel_day').on(t.channelId, t.day)],
);

/**
 * Alerts an operator must see (issue 32: a drop sold out, busy answers above a threshold, the SMS budget spent, a
 * domain check failing, a provider refusing): one row per alert raised, shown on the reports page and posted to the
 * deployment's webhook (lib/monitor/alerts.ts). `channelId` null: the whole deployment.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    channelId: integer('channel_id').references(() => channels.id),
    /** What the alert is about within its kind (a sale id, a host, a provider name). */
    subject: text('subject').notNull(),
    detail: text('detail').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** When the webhook took it; null: not posted (none set, or it failed: `deliveryError`). */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    deliveryError: text('delivery_error'),
  },
  (t) => [index('alerts_channel_created').on(t.channelId, t.createdAt), index('alerts_created').on(t.createdAt)],
);

/**
 * When each alert (kind, channel, subject) was last raised: one row per key, taken by one atomic upsert that succeeds
 * only an hour after the last, so two processes seeing one event raise one alert (issue 32: one per event per hour).
 */
export const alertGates = pgTable('alert_gates', {
  key: text('key').primaryKey(),
  raisedAt: timestamp('raised_at', { withTimezone: true }).notNull(),
});

/**
 * A channel's own alert webhook (issue 32, "Reports": alerts go "to a webhook the owner sets"), set by an owner in the
 * console: one per channel. The signing secret is sealed (AES-256-GCM under a key derived from AUTH_SECRET, bound to
 * the channel: lib/monitor/webhooks.ts); the URL is checked when set and its address again at each post.
 */
export const channelAlertWebhooks = pgTable('channel_alert_webhooks', {
  channelId: integer('channel_id')
    .primaryKey()
    .references(() => channels.id),
  url: text('url').notNull(),
  /** json, wecom, dingtalk or feishu (lib/monitor/alerts.ts WEBHOOK_FORMATS). */
  format: text('format').notNull(),
  secretSealed: text('secret_sealed'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * One alert's post to one webhook (issue 32: a failed post is retried with backoff, then given up): `deployment` is
 * ALERT_WEBHOOK_URL, `channel` the channel's own (read again at each try, so a fixed URL takes the retries).
 * `nextAttemptAt` null: settled (delivered, or given up: `failedAt`). A process takes a due try by moving
 * `nextAttemptAt` on in one UPDATE, so two processes never post the same try.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    alertId: integer('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    target: text('target').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (t) => [uniqueIndex('alert_deliveries_alert_target').on(t.alertId, t.target), index('alert_deliveries_due').on(t.nextAttemptAt)],
);

/** The kinds of notice a channel publishes (issue 32, "Notices and a drop calendar"). */
export const NOTICE_TYPES = ['drop', 'activity', 'airdrop', 'operations'] as const;
export type NoticeType = (typeof NOTICE_TYPES)[number];

/**
 * A channel's notices to its buyers (issue 32): typed, a title and a plain-text body (paragraphs split on blank lines;
 * never HTML from operators), shown from `publishAt` on until withdrawn. Who wrote and last changed it is kept here as
 * well as in the audit trail, so the console's list can say it without reading the trail.
 */
export const notices = pgTable(
  'notices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    type: text('type', { enum: NOTICE_TYPES }).notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    publishAt: timestamp('publish_at', { withTimezone: true }).notNull(),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    createdBy: integer('created_by').references(() => operators.id),
    updatedBy: integer('updated_by').references(() => operators.id),
  },
  (t) => [
    // The store's list: a channel's notices newest first.
    index('notices_channel_publish').on(t.channelId, t.publishAt),
    check('notices_type', sql`${t.type} in ('drop', 'activity', 'airdrop', 'operations')`),
  ],
);

/**
 * Until when a buyer has seen a channel's notices (issue 32): set when they open the notice list. A notice that became
 * visible after it is unread (the footer's dot); one row per buyer and channel, however many notices there are.
 */
export const noticeSeen = pgTable(
  'notice_seen',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channelId] })],
);

/**
 * The kinds of a buyer's own message (issue 35, lib/notice/inbox.ts): what the inbox renders, in the page's language
 * when it is read. `lotteryWon`: drawn among a lottery's winners (round 1); `lotteryRound`: admitted from its waitlist
 * in a later round. Both carry the goods' name and the end of the purchase window.
 */
export const BUYER_MESSAGE_KINDS = ['lotteryWon', 'lotteryRound', 'giftOffered', 'giftAccepted', 'giftReturned'] as const;
export type BuyerMessageKind = (typeof BUYER_MESSAGE_KINDS)[number];

/**
 * What a message carries: a lottery's the goods' name then and the end of the purchase window (ISO); a gift's (issue
 * 36: `giftOffered` to its receiver, `giftAccepted` and `giftReturned` to its sender) the collectible's name, its edition
 * (`number`), the other buyer's masked nickname (`who`) and, offered, until when it may be answered (`until`).
 */
export type BuyerMessageParams = { goods?: string; until?: string; number?: string; who?: string };

/**
 * A buyer's own messages on a channel (issue 35, "notices tell winners"; lib/notice/inbox.ts): the kind and its
 * parameters, never a text, so a message reads in the language of the page that shows it. At most one per buyer, kind
 * and sale (a re-run round adds none); `read_at` set when the buyer opens their messages.
 */
export const buyerMessages = pgTable(
  'buyer_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: BUYER_MESSAGE_KINDS }).notNull(),
    saleId: integer('sale_id').references(() => sales.id),
    params: jsonb('params').$type<BuyerMessageParams>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    // The buyer's list, newest first, and its unread count.
    index('buyer_messages_list').on(t.userId, t.channelId, t.createdAt.desc(), t.id.desc()),
    // One message per buyer, kind and sale (NULL sales are distinct: a message of no sale is never merged).
    uniqueIndex('buyer_messages_once').on(t.userId, t.kind, t.saleId),
  ],
);

/**
 * The live drop view's counts for the whole deployment (issue 32, "Reports: live view"; lib/monitor/drop-meter.ts):
 * buy calls per sale and busy answers (sale id 0: they have no sale) per second. Each server process counts in memory
 * and, once a second when it has counted anything, adds its ended seconds here by one multi-row upsert into the row
 * of (kind, sale, second), so a row is the deployment's sum whatever the number of processes. No foreign key: a
 * buy call is counted before its sale is looked up, and the rows go after METER_KEEP_SECONDS (10 minutes).
 */
export const dropMeterSeconds = pgTable(
  'drop_meter_seconds',
  {
    kind: text('kind').notNull(),
    saleId: integer('sale_id').notNull(),
    /** The second, as whole seconds since 1970 (UTC). */
    second: bigint('second', { mode: 'number' }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.saleId, t.second] }), check('drop_meter_seconds_kind', sql`${t.kind} in ('buy', 'busy')`)],
);

/**
 * A sale's allocation (issue 35, "Fair drops"): how its copies go out. No row, or mode 'first-come', is the sale as it
 * always was; 'lottery' (抽签) registers buyers in a window and draws them (lib/sale/lottery.ts over lib/sale/draw.ts).
 * The lottery's settings that decide the draw (copies, times, the public value's source) freeze when registration
 * opens. `seed` is secret until the draw: no buyer call selects it (lib/sale/lottery.ts reads it only in the draw);
 * `commitment`, SHA-256 of it, is public from the setup, before the first registration.
 */
/** A lottery's purchase round as stored: ranks `from` to `through` may buy from `opensAt` until `endsAt` (ISO 8601). */
export type LotteryRoundJson = { round: number; from: number; through: number; opensAt: string; endsAt: string };

export const saleAllocations = pgTable(
  'sale_allocations',
  {
    saleId: integer('sale_id')
      .primaryKey()
      .references(() => sales.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    mode: text('mode').notNull(),
    /** N: the winners drawn, copied from the sale's copies at setup, frozen with the rest when registration opens. */
    copies: integer('copies'),
    registrationOpensAt: timestamp('registration_opens_at', { withTimezone: true }),
    registrationClosesAt: timestamp('registration_closes_at', { withTimezone: true }),
    drawAt: timestamp('draw_at', { withTimezone: true }),
    /** How long a winner has to buy after the draw, in minutes. */
    purchaseWindowMinutes: integer('purchase_window_minutes'),
    /** Where the public value comes from, in words (e.g. "the 福彩3D numbers drawn on 2026-12-01"). */
    publicValueSource: text('public_value_source'),
    /** The secret seed, 64 hex digits: never answered before the draw, and never by a buyer call but in the published draw. */
    seed: text('seed'),
    /** SHA-256 of the seed's bytes, hex: public from the setup. */
    commitment: text('commitment'),
    /** Set by the draw: the value the operator entered (normalised), the registrant list's hash, the published file. */
    publicValue: text('public_value'),
    listHash: text('list_hash'),
    /** The published draw's canonical JSON text (lib/sale/draw.ts `canonicalJson`), exactly as served. */
    published: text('published'),
    drawnAt: timestamp('drawn_at', { withTimezone: true }),
    /** How many registrants the draw ranked (winners and waitlist). */
    ranked: integer('ranked'),
    /**
     * The purchase rounds (issue 35: "copies not bought by its end go down the waitlist, round by round"), from the
     * draw: round 1 admits ranks 1 to N; each later one the next ranks, as many as copies were left when it opened.
     */
    rounds: jsonb('rounds').$type<LotteryRoundJson[]>(),
    // issue 35: the waiting room (mode 'queue'; lib/sale/queue.ts). Its settings freeze when joining opens.
    /** Joining opens this many minutes before the sale's opening. */
    queueJoinMinutes: integer('queue_join_minutes'),
    /** Who joined before the opening plus this grace is shuffled together. */
    queueGraceSeconds: integer('queue_grace_seconds'),
    /** A buyer whose polls stopped keeps their place this long. */
    queueHoldSeconds: integer('queue_hold_seconds'),
    /** An admission's life: not used within it, it goes to the next buyer. */
    queueAdmissionSeconds: integer('queue_admission_seconds'),
    /** Admissions a second at most (the pace the buy lane sustains). */
    queueAdmitPerSecond: integer('queue_admit_per_second'),
    /** When the early arrivals were shuffled (once, by whichever call first saw the opening plus the grace pass). */
    queueShuffledAt: timestamp('queue_shuffled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('sale_allocations_mode', sql`${t.mode} in ('first-come', 'lottery', 'queue')`),
    check(
      'sale_allocations_queue_settings',
      sql`${t.mode} <> 'queue' or (${t.queueJoinMinutes} >= 0 and ${t.queueGraceSeconds} >= 0 and ${t.queueHoldSeconds} >= 1
        and ${t.queueAdmissionSeconds} >= 1 and ${t.queueAdmitPerSecond} >= 1)`,
    ),
    check(
      'sale_allocations_lottery_settings',
      sql`${t.mode} <> 'lottery' or (${t.copies} >= 1 and ${t.registrationOpensAt} < ${t.registrationClosesAt}
        and ${t.registrationClosesAt} <= ${t.drawAt} and ${t.purchaseWindowMinutes} >= 1 and ${t.publicValueSource} is not null
        and ${t.seed} is not null and ${t.commitment} is not null)`,
    ),
    check(
      'sale_allocations_drawn',
      sql`${t.drawnAt} is null or (${t.publicValue} is not null and ${t.listHash} is not null and ${t.published} is not null)`,
    ),
  ],
);

/**
 * A buyer's registration for a lottery sale (issue 35): once per buyer, and once per verified identity where the
 * channel asks a real name (the database refuses a second: two phones of one person register once). `rank` is set by
 * the draw (1 first); rank <= the lottery's copies wins, the rest wait in rank order.
 */
export const lotteryRegistrations = pgTable(
  'lottery_registrations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The buyer's account number on the channel (lib/auth/account-numbers.ts): what the published list names. */
    accountNumber: text('account_number').notNull(),
    /** buyer_identities.id_hash when the channel asks a real name; null otherwise. */
    identityHash: text('identity_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('lottery_registrations_sale_user').on(t.saleId, t.userId),
    uniqueIndex('lottery_registrations_sale_account').on(t.saleId, t.accountNumber),
    // NULLs are distinct: only a channel that asks a real name fills the column, and there one identity registers once.
    uniqueIndex('lottery_registrations_sale_identity').on(t.saleId, t.identityHash),
  ],
);

/**
 * The draw's ranking (issue 35): every registrant's account number with their rank, 1 first, written by the draw in one
 * INSERT (100,000 rows inserted cost a fraction of updating as many registrations; docs/benchmarks.md, "The draw").
 * A buyer's rank is their registration's account number looked up here.
 */
export const lotteryRanks = pgTable(
  'lottery_ranks',
  {
    // No foreign key: checking one per row would double the draw's write; the rows come from the draw of a sale's
    // allocation (which references the sale), and deleting a sale deletes them first (lib/sale/admin.ts).
    saleId: integer('sale_id').notNull(),
    rank: integer('rank').notNull(),
    accountNumber: text('account_number').notNull(),
  },
  // One index, the buyer's lookup by account number; a round's ranks (a range, once a round) read the sale's rows by it too.
  (t) => [primaryKey({ columns: [t.saleId, t.accountNumber] })],
);

/**
 * A buyer's place in a sale's waiting room (issue 35, "First come, through a waiting room"; lib/sale/queue.ts): one row
 * per sale and buyer. Who joined before the opening plus the grace is ranked at the shuffle by `shuffle_key` (random,
 * drawn at join: not join time); later arrivals follow in `joined_at` order (`id` breaking ties). `outcome` moves from
 * waiting to admitted (an admission until `admission_expires_at`), then bought or expired; a waiting buyer not seen for
 * the hold time has left. A buyer who left or let an admission expire may join again, at the back.
 */
export const queueEntries = pgTable(
  'queue_entries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull(),
    /** 32 hex digits from the CSPRNG, drawn at join: the early arrivals' order. */
    shuffleKey: text('shuffle_key').notNull(),
    /** The place among the early arrivals, set at the shuffle (1 first); null for later arrivals. */
    rank: integer('rank'),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    outcome: text('outcome').notNull(),
    admittedAt: timestamp('admitted_at', { withTimezone: true }),
    admissionExpiresAt: timestamp('admission_expires_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('queue_entries_sale_user').on(t.saleId, t.userId),
    index('queue_entries_sale_outcome').on(t.saleId, t.outcome),
    check('queue_entries_outcome', sql`${t.outcome} in ('waiting', 'admitted', 'bought', 'expired', 'left')`),
    check('queue_entries_admitted', sql`${t.outcome} = 'waiting' or ${t.outcome} = 'left' or ${t.admissionExpiresAt} is not null`),
  ],
);

/**
 * A sale's priority purchase (优先购, issue 35; lib/sale/priority.ts): eligible buyers may buy `minutes_early` minutes
 * before the sale's opening. Eligible: holds any of `holder_commodity_ids` (not spent, not refunded, on the channel), or
 * has at least `min_paid_orders` paid orders on the channel, or is on the imported whitelist. Decided once, at
 * `decide_at` (the jobs' pass), into `sale_priority_buyers`; from `decided_at` on the settings are frozen. First-come
 * sales only (not a lottery, not a waiting room).
 */
export const salePriority = pgTable(
  'sale_priority',
  {
    saleId: integer('sale_id')
      .primaryKey()
      .references(() => sales.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    minutesEarly: integer('minutes_early').notNull(),
    /** The collectibles whose holders are eligible (commodity ids of the channel); empty: no holder rule. */
    holderCommodityIds: integer('holder_commodity_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    /** At least this many paid orders on the channel; null: no orders rule. */
    minPaidOrders: integer('min_paid_orders'),
    /** When eligibility is decided: at or before the early opening. */
    decideAt: timestamp('decide_at', { withTimezone: true }).notNull(),
    /** Set by the decision; the settings and the whitelist are frozen from then on. */
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** How many buyers the decision found eligible. */
    eligibleCount: integer('eligible_count'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('sale_priority_minutes_early', sql`${t.minutesEarly} between 1 and 1440`),
    check('sale_priority_min_paid_orders', sql`${t.minPaidOrders} is null or ${t.minPaidOrders} >= 1`),
    check('sale_priority_decided', sql`(${t.decidedAt} is null) = (${t.eligibleCount} is null)`),
    index('sale_priority_due')
      .on(t.decideAt)
      .where(sql`${t.decidedAt} is null`),
  ],
);

/** A sale's imported whitelist for priority purchase: account numbers of the sale's channel (lib/auth/account-numbers.ts). */
export const salePriorityWhitelist = pgTable(
  'sale_priority_whitelist',
  {
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    accountNumber: text('account_number').notNull(),
  },
  (t) => [primaryKey({ columns: [t.saleId, t.accountNumber] })],
);

/** The buyers the decision found eligible for a sale's priority purchase, with why ('holder', 'orders', 'whitelist'). */
export const salePriorityBuyers = pgTable(
  'sale_priority_buyers',
  {
    // No foreign keys: the decision writes every row in one INSERT … SELECT from rows that reference them already.
    saleId: integer('sale_id').notNull(),
    userId: integer('user_id').notNull(),
    reasons: text('reasons').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.saleId, t.userId] })],
);

/**
 * What became of a gift between buyers (issue 36, lib/transfer): offered and waiting for the receiver (`pending`), taken
 * (`accepted`: final, the holding is the receiver's), refused by the receiver, or unanswered for 72 hours (`expired`);
 * both of the last two leave the holding with its sender.
 */
export const TRANSFER_STATUSES = ['pending', 'accepted', 'refused', 'expired'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/**
 * A gift of one edition from one buyer to another on the same channel (转赠, issue 36; docs/gifting.md). At most one
 * pending gift per holding (`holding_transfers_one_pending`: of two concurrent gifts of one edition, one wins) and one
 * gift per sender and idempotency key (a double tap is one gift). The accepted ones are the edition's provenance:
 * sender, receiver and time (`answered_at`).
 */
export const holdingTransfers = pgTable(
  'holding_transfers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id),
    receiverId: integer('receiver_id')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: TRANSFER_STATUSES }).notNull().default('pending'),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** A pending gift unanswered by then goes back to its sender. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When it was accepted, refused or expired. */
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    /** Accepted: the chain's receipt of the transfer (the ledger's `transfer` entry, lib/chain/ledger.ts). */
    txHash: text('tx_hash'),
  },
  (t) => [
    uniqueIndex('holding_transfers_sender_key').on(t.senderId, t.idempotencyKey),
    uniqueIndex('holding_transfers_one_pending')
      .on(t.holdingId)
      .where(sql`${t.status} = 'pending'`),
    index('holding_transfers_receiver').on(t.receiverId, t.channelId, t.createdAt),
    index('holding_transfers_sender').on(t.senderId, t.channelId, t.createdAt),
    index('holding_transfers_due')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'pending'`),
    index('holding_transfers_holding').on(t.holdingId, t.createdAt),
    check('holding_transfers_not_self', sql`${t.senderId} <> ${t.receiverId}`),
  ],
);

/**
 * A buyer's share code on a channel (issue 36, docs/sharing.md): the opaque `?from=` of the links and posters they
 * share. Random, one per buyer and channel, never their id or account number.
 */
export const shareCodes = pgTable(
  'share_codes',
  {
    code: text('code').primaryKey(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('share_codes_channel_user').on(t.channelId, t.userId)],
);

/**
 * A page view that arrived through a sharer's link (issue 36): recorded from the page tracker's record of it; the
 * visitor is the tracker's device id, and the buyer once known (logged in then, or on their pay page later). A paid
 * order of that buyer within the attribution window is the last such visit's sharer's (lib/share/attribution.ts).
 */
export const shareVisits = pgTable(
  'share_visits',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    sharerId: integer('sharer_id')
      .notNull()
      .references(() => users.id),
    saleId: integer('sale_id'),
    deviceId: text('device_id').notNull(),
    /** The keyed hash of the visiting browser's storefront_device cookie, as on the order it buys (`orders.device_key`). */
    deviceKey: text('device_key'),
    visitorId: integer('visitor_id').references(() => users.id),
    visitedAt: timestamp('visited_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('share_visits_device').on(t.channelId, t.deviceId, t.visitedAt),
    index('share_visits_device_key').on(t.channelId, t.deviceKey, t.visitedAt),
    index('share_visits_visitor').on(t.channelId, t.visitorId, t.visitedAt),
    index('share_visits_sharer').on(t.sharerId, t.visitedAt),
    index('share_visits_day').on(t.channelId, t.visitedAt),
  ],
);

/**
 * issue 36: an official account's access_token and jsapi_ticket from WeChat's API (lib/wechat/ticket.ts), kept with
 * their expiry so every process shares one fetch (WeChat limits them per day); refreshed before they expire. One
 * process at a time claims the row to fetch (`fetching_until`), the others wait for what it stores.
 */
export const wechatTickets = pgTable('wechat_tickets', {
  appId: text('app_id').primaryKey(),
  accessToken: text('access_token'),
  accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
  jsapiTicket: text('jsapi_ticket'),
  jsapiTicketExpiresAt: timestamp('jsapi_ticket_expires_at', { withTimezone: true }),
  /** While set and ahead, one process is fetching (its claim on the row); the others wait for its answer. */
  fetchingUntil: timestamp('fetching_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type WechatTicketRow = typeof wechatTickets.$inferSelect;
