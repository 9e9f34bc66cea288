import type { ChannelAttributes, IdentityPolicyJson } from '../db/schema';
import { createHash } from 'node:crypto';
import type { Skin } from '../channel/skin';
import { codeFromBytes } from '../redeem-code/format';

/**
 * Demo catalogue (issue: foundation). Channels run locally on *.localhost with BRAND_WORD=localhost.
 * Times are offsets from the moment the seed first runs, so "coming soon" is in the future on a fresh database.
 */
export type SeedChannel = {
  key: string;
  host: string;
  name: string;
  brandName: string;
  status: number;
  labelList: string;
  palette: Pick<
    Skin,
    'color1' | 'color2' | 'signColor' | 'lightColor' | 'pageBgColor' | 'cardBgColor' | 'buttonBgColor' | 'buttonColor' | 'shadowColor'
  >;
  attributes: ChannelAttributes;
  locale?: string;
  marketText: string;
  buyText: string;
  exchangeText: string;
  storeCodes?: boolean;
  /**
   * The channel has a native app: its link (`<key>://open`) and download page are set, so goods pages offer "open in
   * app". There is no demo app; the download page is on the reserved example domain (RFC 2606).
   */
  app?: boolean;
  /** Its real-name and age rules (issue 33; channels.identity_policy); none: `{}`, nothing asked. */
  identityPolicy?: IdentityPolicyJson;
};

export type SeedSale = {
  channel: string;
  code: string;
  name: string;
  description: string;
  /** Integer fen. */
  price: number;
  amountSku: number;
  amount: number;
  amountAvailable: number;
  limitPerUser: number;
  /** Hours from seed time. */
  startsInHours: number;
  endsInHours: number | null;
  author: string;
  publisher: string;
  series?: string;
  /** A box's prizes: odds in basis points adding up to 10000, value in fen (issue 32). */
  blindBox?: { prize: string; name: string; weight: number; value: number }[];
};

const HOUR = 1;
const DAY = 24 * HOUR;

/**
 * How the demo names the built-in chain on a collectible's page (DESIGN §7: our own hash-chained ledger, named
 * honestly), in the channel's language: its name, and its contract as a prefix before the collectible's code (English)
 * or the collectible's name before a suffix (Chinese).
 */
export const DEMO_CHAIN = {
  en: { name: 'Storefront Ledger (built-in)', contractPrefix: 'ledger:' },
  'zh-CN': { name: '本店哈希链账本（内置）', contractSuffix: '合约' },
} as const;

export const SEED_CHANNELS: SeedChannel[] = [
  {
    key: 'AURORA',
    host: 'aurora.localhost',
    name: 'Aurora',
    brandName: 'Aurora Collectibles',
    status: 1,
    labelList: '1,2,3,4',
    palette: {
      color1: '#0f766e',
      color2: '#5eead4',
      signColor: '#f43f5e',
      lightColor: '#ccfbf1',
      pageBgColor: '#eef6f5',
      cardBgColor: '#ffffff',
      buttonBgColor: '#0f766e',
      buttonColor: '#ffffff',
      shadowColor: 'rgba(15, 118, 110, 0.12)',
    },
    attributes: {},
    marketText: 'Northern-light drops, every week',
    buyText: 'Buy now',
    exchangeText: 'Exchange',
    storeCodes: true,
    app: true,
  },
  {
    key: 'LUMEN',
    host: 'lumen.localhost',
    name: 'Lumen',
    brandName: 'Lumen Gallery',
    status: 1,
    labelList: '1',
    palette: {
      color1: '#b45309',
      color2: '#fcd34d',
      signColor: '#9a3412',
      lightColor: '#fef3c7',
      pageBgColor: '#fbf6ec',
      cardBgColor: '#fffdf8',
      buttonBgColor: '#b45309',
      buttonColor: '#ffffff',
      shadowColor: 'rgba(180, 83, 9, 0.12)',
    },
    attributes: { hideAmount: true },
    // The demo's real-name store (issue 33): buyers verify their real name before buying, and a blind box its operator
    // adds is for buyers aged 18 and over. No end-to-end journey but e2e/identity.spec.ts buys here.
    identityPolicy: { realName: { buy: true }, blindBoxMinAge: 18 },
    marketText: 'Light, collected',
    buyText: 'Collect',
    exchangeText: 'Exchange',
  },
  {
    key: 'GIFT',
    host: 'gift.localhost',
    name: 'Gift',
    brandName: 'Gift House',
    status: 1,
    labelList: '3',
    palette: {
      color1: '#be185d',
      color2: '#f9a8d4',
      signColor: '#9d174d',
      lightColor: '#fce7f3',
      pageBgColor: '#fdf2f8',
      cardBgColor: '#ffffff',
      buttonBgColor: '#db2777',
      buttonColor: '#ffffff',
      shadowColor: 'rgba(190, 24, 93, 0.12)',
    },
    attributes: {},
    marketText: 'Gifts for our members',
    buyText: 'Receive',
    exchangeText: 'Exchange',
  },
  {
    key: 'CHAIN',
    host: 'chain.localhost',
    name: 'Chain',
    brandName: 'Chain Works',
    status: 1,
    labelList: '4',
    palette: {
      color1: '#3730a3',
      color2: '#a5b4fc',
      signColor: '#be123c',
      lightColor: '#e0e7ff',
      pageBgColor: '#eef2ff',
      cardBgColor: '#ffffff',
      buttonBgColor: '#4338ca',
      buttonColor: '#ffffff',
      shadowColor: 'rgba(55, 48, 163, 0.12)',
    },
    attributes: {},
    marketText: 'Chain up what you bought',
    buyText: 'Chain up',
    exchangeText: 'Exchange',
    storeCodes: true,
  },
  {
    key: 'SWAP',
    host: 'swap.localhost',
    name: 'Swap',
    brandName: 'Swap Club',
    status: 1,
    labelList: '2,3',
    palette: {
      color1: '#166534',
      color2: '#86efac',
      signColor: '#b91c1c',
      lightColor: '#dcfce7',
      pageBgColor: '#f0fdf4',
      cardBgColor: '#ffffff',
      buttonBgColor: '#15803d',
      buttonColor: '#ffffff',
      shadowColor: 'rgba(22, 101, 52, 0.12)',
    },
    attributes: { destroyTitledReceive: true },
    marketText: 'Trade up your collection',
    buyText: 'Buy',
    exchangeText: 'Exchange',
  },
  {
    key: 'DARK',
    host: 'dark.localhost',
    name: 'Dark',
    brandName: 'Dark Room',
    status: 0,
    labelList: '1',
    palette: {
      color1: '#0f172a',
      color2: '#94a3b8',
      signColor: '#e11d48',
      lightColor: '#cbd5e1',
      pageBgColor: '#e2e8f0',
      cardBgColor: '#f8fafc',
      buttonBgColor: '#334155',
      buttonColor: '#f8fafc',
      shadowColor: 'rgba(15, 23, 42, 0.16)',
    },
    attributes: {},
    marketText: 'Opening soon',
    buyText: 'Buy',
    exchangeText: 'Exchange',
  },
  {
    // The spec's gift-only channel class (spec §2 Guards): home goes to the old receive list, and /active is /404 even
    // though label 2 is on (the class that cannot open /active).
    key: 'PERKS',
    host: 'perks.localhost',
    name: 'Perks',
    brandName: 'Perks Club',
    status: 1,
    labelList: '2,3',
    palette: {
      color1: '#6d28d9',
      color2: '#c4b5fd',
      signColor: '#be123c',
      lightColor: '#ede9fe',
      pageBgColor: '#f5f3ff',
      cardBgColor: '#ffffff',
      buttonBgColor: '#7c3aed',
      buttonColor: '#ffffff',
      shadowColor: 'rgba(109, 40, 217, 0.12)',
    },
    attributes: { giftOnly: true, noActive: true },
    marketText: 'Perks for members',
    buyText: 'Receive',
    exchangeText: 'Exchange',
  },
  {
    key: 'BAZAAR',
    host: 'bazaar.localhost',
    // A zh-CN channel: its content is Chinese as its operator would write it (issue 17, item 4).
    name: '巴扎',
    brandName: '巴扎集市',
    status: 1,
    labelList: '1',
    palette: {
      color1: '#7c2d12',
      color2: '#fdba74',
      signColor: '#be123c',
      lightColor: '#ffedd5',
      pageBgColor: '#fff7ed',
      cardBgColor: '#ffffff',
      buttonBgColor: '#c2410c',
      buttonColor: '#ffffff',
      shadowColor: 'rgba(124, 45, 18, 0.12)',
    },
    attributes: { buyGoodsTitle: true },
    locale: 'zh-CN',
    marketText: '寻常好物，值得收藏',
    buyText: '购买',
    exchangeText: '兑换',
    app: true,
  },
];

/** BAZAAR's collectibles are made by the market's own studio and published by the market. */
const BAZAAR_STUDIO = { author: '巴扎工作室', publisher: '巴扎集市' };

export const SEED_SALES: SeedSale[] = [
  {
    channel: 'AURORA',
    code: 'aurora-dawn',
    name: 'Aurora Dawn',
    description: 'The first light over the northern sea, caught in seven bands of colour. Edition of 1,000, each numbered.',
    price: 19900,
    amountSku: 1000,
    amount: 1000,
    amountAvailable: 742,
    limitPerUser: 5,
    startsInHours: -2 * DAY,
    endsInHours: 30 * DAY,
    author: 'Mira Solberg',
    publisher: 'Aurora Studio',
    series: 'Polar Lights',
  },
  {
    channel: 'AURORA',
    code: 'tide-whale',
    name: 'Tide Whale',
    description: 'A humpback rising through the tide line. Hand-drawn, then layered in twelve passes.',
    price: 9900,
    amountSku: 500,
    amount: 500,
    amountAvailable: 133,
    limitPerUser: 2,
    startsInHours: -1 * DAY,
    endsInHours: 14 * DAY,
    author: 'Jonas Hale',
    publisher: 'Aurora Studio',
    series: 'Deep Blue',
  },
  {
    channel: 'AURORA',
    code: 'neon-koi',
    name: 'Neon Koi',
    description: 'Two koi circling a neon pond. Sold out in its first hour.',
    price: 29900,
    amountSku: 300,
    amount: 300,
    amountAvailable: 0,
    limitPerUser: 1,
    startsInHours: -5 * DAY,
    endsInHours: 20 * DAY,
    author: 'Lin Yue',
    publisher: 'Aurora Studio',
  },
  {
    channel: 'AURORA',
    code: 'moon-rabbit',
    name: 'Moon Rabbit',
    description: 'The rabbit on the moon, pounding starlight. Opens in three days.',
    price: 16800,
    amountSku: 800,
    amount: 800,
    amountAvailable: 800,
    limitPerUser: 3,
    startsInHours: 3 * DAY,
    endsInHours: 33 * DAY,
    author: 'Lin Yue',
    publisher: 'Aurora Studio',
    series: 'Festivals',
  },
  {
    channel: 'AURORA',
    code: 'jade-dragon',
    name: 'Jade Dragon',
    description: 'A dragon carved from a single piece of jade. This sale has ended.',
    price: 88800,
    amountSku: 200,
    amount: 200,
    amountAvailable: 57,
    limitPerUser: 1,
    startsInHours: -40 * DAY,
    endsInHours: -1 * DAY,
    author: 'Chen Mo',
    publisher: 'Aurora Studio',
  },
  {
    channel: 'AURORA',
    code: 'star-fox',
    name: 'Star Fox',
    description: 'A fox made of constellations. Open edition window, no end date.',
    price: 4900,
    amountSku: 2000,
    amount: 2000,
    amountAvailable: 1650,
    limitPerUser: 10,
    startsInHours: -3 * HOUR,
    endsInHours: null,
    author: 'Mira Solberg',
    publisher: 'Aurora Studio',
    series: 'Polar Lights',
  },
  {
    channel: 'AURORA',
    code: 'aurora-mystery-box',
    name: 'Aurora Mystery Box',
    description: 'One of three polar spirits, drawn at random when you open the box. The odds of each are listed on this page.',
    price: 6600,
    amountSku: 1000,
    amount: 1000,
    amountAvailable: 612,
    limitPerUser: 5,
    startsInHours: -1 * DAY,
    endsInHours: 7 * DAY,
    author: 'Aurora Studio',
    publisher: 'Aurora Studio',
    series: 'Polar Spirits',
    blindBox: [
      { prize: 'crystal-owl', name: 'Crystal Owl', weight: 6000, value: 1990 },
      { prize: 'ember-phoenix', name: 'Ember Phoenix', weight: 3000, value: 4990 },
      { prize: 'frost-lynx', name: 'Frost Lynx', weight: 1000, value: 19900 },
    ],
  },
  {
    channel: 'AURORA',
    code: 'lantern-festival',
    name: 'Lantern Festival',
    description: 'A thousand lanterns over the river. Opens in two hours.',
    price: 12000,
    amountSku: 600,
    amount: 600,
    amountAvailable: 600,
    limitPerUser: 2,
    startsInHours: 2 * HOUR,
    endsInHours: 10 * DAY,
    author: 'Chen Mo',
    publisher: 'Aurora Studio',
    series: 'Festivals',
  },
  {
    channel: 'AURORA',
    code: 'paper-crane',
    name: 'Paper Crane',
    description: 'A folded crane, one fold per collector.',
    price: 3900,
    amountSku: 1000,
    amount: 1000,
    amountAvailable: 0,
    limitPerUser: 2,
    startsInHours: -10 * DAY,
    endsInHours: 10 * DAY,
    author: 'Jonas Hale',
    publisher: 'Aurora Studio',
  },
  {
    channel: 'LUMEN',
    code: 'lumen-sunrise',
    name: 'Sunrise',
    description: 'Morning light through amber glass.',
    price: 25800,
    amountSku: 500,
    amount: 500,
    amountAvailable: 320,
    limitPerUser: 2,
    startsInHours: -1 * DAY,
    endsInHours: 20 * DAY,
    author: 'Ada Brandt',
    publisher: 'Lumen Gallery',
    series: 'Hours of Light',
  },
  {
    channel: 'LUMEN',
    code: 'lumen-candle',
    name: 'Candle',
    description: 'A single flame, waiting for dusk.',
    price: 9900,
    amountSku: 800,
    amount: 800,
    amountAvailable: 800,
    limitPerUser: 2,
    startsInHours: 2 * DAY,
    endsInHours: 12 * DAY,
    author: 'Ada Brandt',
    publisher: 'Lumen Gallery',
    series: 'Hours of Light',
  },
  {
    channel: 'LUMEN',
    code: 'lumen-prism',
    name: 'Prism',
    description: 'White light, split and kept.',
    price: 45600,
    amountSku: 100,
    amount: 100,
    amountAvailable: 0,
    limitPerUser: 1,
    startsInHours: -3 * DAY,
    endsInHours: 20 * DAY,
    author: 'Ada Brandt',
    publisher: 'Lumen Gallery',
  },
  {
    channel: 'DARK',
    code: 'dark-nebula',
    name: 'Nebula',
    description: 'A nebula seen from a dark room.',
    price: 15800,
    amountSku: 300,
    amount: 300,
    amountAvailable: 300,
    limitPerUser: 1,
    startsInHours: -1 * DAY,
    endsInHours: 10 * DAY,
    author: 'Noor Vale',
    publisher: 'Dark Room',
  },
  {
    channel: 'BAZAAR',
    code: 'bazaar-fox',
    name: '夜市狐狸',
    description: '掌管夜市的那只狐狸。',
    price: 5900,
    amountSku: 1000,
    amount: 1000,
    amountAvailable: 880,
    limitPerUser: 5,
    startsInHours: -2 * DAY,
    endsInHours: 20 * DAY,
    ...BAZAAR_STUDIO,
  },
  {
    channel: 'BAZAAR',
    code: 'bazaar-crane',
    name: '幸运纸鹤',
    description: '在集市上折好的一只纸鹤，带来好运。',
    price: 2900,
    amountSku: 500,
    amount: 500,
    amountAvailable: 410,
    limitPerUser: 5,
    startsInHours: -2 * DAY,
    endsInHours: 20 * DAY,
    ...BAZAAR_STUDIO,
  },
  {
    // A drop down to its last copy: the end-to-end suite has one buyer take it while another watches (e2e/caching.spec.ts).
    channel: 'BAZAAR',
    code: 'bazaar-last-lantern',
    name: '最后一盏灯笼',
    description: '夜市的最后一盏灯笼。点亮了五十盏，只剩这一盏。',
    price: 9900,
    amountSku: 50,
    amount: 50,
    amountAvailable: 1,
    limitPerUser: 1,
    startsInHours: -1 * DAY,
    endsInHours: 10 * DAY,
    ...BAZAAR_STUDIO,
  },
];

/**
 * The 21 allowed store codes for self chain-up (spec §9): 18 numbered Shanghai codes with a common prefix,
 * plus three others. The spec does not show the real values; these are ours.
 */
export const STORE_CODES: { code: string; name: string }[] = [
  ...Array.from({ length: 18 }, (_, i) => ({ code: `SH${String(i + 1).padStart(3, '0')}`, name: `Shanghai store ${i + 1}` })),
  { code: 'BJ001', name: 'Beijing flagship' },
  { code: 'GZ001', name: 'Guangzhou flagship' },
  { code: 'ONLINE', name: 'Online store' },
];

/**
 * An offer of a demo campaign: the collectible it gives (minted new, `total` of them, `remaining` still to give), at most
 * `limitPerUser` per buyer (1 when not said), and what it asks: holding a collectible (`requires`, a commodity code of
 * the same channel), spending some (`inputs`, destroyed), or entering one of `codes` demo redeem codes, which the seed
 * prints.
 */
export type SeedOffer = {
  code: string;
  name: string;
  description: string;
  amountSku: number;
  total: number;
  remaining: number;
  limitPerUser?: number;
  requires?: string;
  inputs?: { commodity: string; quantity: number }[];
  codes?: number;
};

/** A demo campaign on one channel: its offers, and its times as hours from the seed's first run (end null: no end). */
export type SeedCampaign<Offer extends SeedOffer = SeedOffer> = {
  channel: string;
  code: string;
  name: string;
  description: string;
  startsInHours: number;
  endsInHours: number | null;
  offers: Offer[];
};

/** Demo gift campaigns (spec §2 receive pages, label 3): each gives one collectible per offer, spending nothing. */
export type SeedGift = SeedCampaign<Omit<SeedOffer, 'inputs'>>;

export const SEED_GIFTS: SeedGift[] = [
  {
    channel: 'SWAP',
    code: 'starter-cards',
    name: 'Starter cards',
    description: 'Two free starter cards for every member, to trade up in the activities.',
    startsInHours: -2 * DAY,
    endsInHours: 60 * DAY,
    offers: [
      {
        code: 'swap-starter-card',
        name: 'Starter Card',
        description: 'Trade two of these for a Swap Club badge.',
        amountSku: 20000,
        total: 20000,
        remaining: 19000,
        limitPerUser: 2,
      },
    ],
  },
  {
    channel: 'GIFT',
    code: 'welcome',
    name: 'Welcome gift',
    description: 'A lantern for every new member of Gift House. One per member.',
    startsInHours: -2 * DAY,
    endsInHours: 60 * DAY,
    offers: [
      {
        code: 'gift-welcome-lantern',
        name: 'Welcome Lantern',
        description: 'Given to every new member of Gift House.',
        amountSku: 5000,
        total: 5000,
        remaining: 4210,
      },
    ],
  },
  {
    channel: 'GIFT',
    code: 'members-card',
    name: 'Member card gift',
    description: 'Found a code on your member card? Enter it here for a paper crane.',
    startsInHours: -1 * DAY,
    endsInHours: 30 * DAY,
    offers: [
      {
        code: 'gift-member-crane',
        name: 'Member Crane',
        description: 'Folded for the holders of a Gift House member card.',
        amountSku: 500,
        total: 500,
        remaining: 480,
        codes: 5,
      },
    ],
  },
  {
    channel: 'GIFT',
    code: 'new-year',
    name: 'New Year gift',
    description: 'A moon rabbit for the new year. Opens in three days.',
    startsInHours: 3 * DAY,
    endsInHours: 20 * DAY,
    offers: [
      {
        code: 'gift-new-year-rabbit',
        name: 'New Year Rabbit',
        description: 'For the new year.',
        amountSku: 1000,
        total: 1000,
        remaining: 1000,
      },
    ],
  },
  {
    channel: 'PERKS',
    code: 'member-perk',
    name: 'Member perk',
    description: 'A pin for every member of Perks Club.',
    startsInHours: -1 * DAY,
    endsInHours: 90 * DAY,
    offers: [
      {
        code: 'perks-pin',
        name: 'Perks Pin',
        description: 'Worn by the members of Perks Club.',
        amountSku: 3000,
        total: 3000,
        remaining: 2950,
      },
    ],
  },
  {
    channel: 'AURORA',
    code: 'fox-holders',
    name: "Star Fox holders' gift",
    description: 'Hold a Star Fox? A cub follows it home.',
    startsInHours: -1 * DAY,
    endsInHours: 30 * DAY,
    offers: [
      {
        code: 'gift-star-fox-cub',
        name: 'Star Fox Cub',
        description: 'For holders of Star Fox.',
        amountSku: 2000,
        total: 2000,
        remaining: 1990,
        requires: 'star-fox',
      },
    ],
  },
  {
    channel: 'AURORA',
    code: 'dawn-holders',
    name: "Aurora Dawn holders' gift",
    description: 'Hold an Aurora Dawn? Receive its afterglow, free.',
    startsInHours: -1 * DAY,
    endsInHours: 30 * DAY,
    offers: [
      {
        code: 'gift-afterglow-owl',
        name: 'Afterglow Owl',
        description: 'For holders of Aurora Dawn.',
        amountSku: 1000,
        total: 1000,
        remaining: 920,
        requires: 'aurora-dawn',
      },
      {
        code: 'gift-aurora-code-lynx',
        name: 'Frost Lynx Cub',
        description: 'With a code from the Aurora Studio newsletter.',
        amountSku: 300,
        total: 300,
        remaining: 300,
        codes: 3,
      },
    ],
  },
];

/**
 * Demo redeem codes: derived from the offer and a number, so every seed run prints the same codes a person (or an
 * end-to-end test) can try; they are demo data, public by nature. Real codes come from `generateCode`, are handed
 * out once and never stored in clear.
 */
export function demoCode(offerCode: string, index: number): string {
  return codeFromBytes(createHash('sha256').update(`storefront-demo-code:${offerCode}:${index}`).digest().subarray(0, 16));
}

/**
 * Demo exchange activities (spec §2 active, label 2): spend the inputs, and one of the demo redeem codes where an offer
 * has them, to get the output, minted new; each offer says its limit per buyer.
 */
export type SeedExchange = SeedCampaign<Omit<SeedOffer, 'requires'> & Required<Pick<SeedOffer, 'limitPerUser' | 'inputs'>>>;

export const SEED_EXCHANGES: SeedExchange[] = [
  {
    channel: 'SWAP',
    code: 'starter-trade',
    name: 'Starter trade-up',
    description: 'Two starter cards make a Swap Club badge. The cards are spent.',
    startsInHours: -1 * DAY,
    endsInHours: 30 * DAY,
    offers: [
      {
        code: 'swap-club-badge',
        name: 'Swap Club Badge',
        description: 'Made from two starter cards.',
        amountSku: 1000,
        total: 1000,
        remaining: 960,
        limitPerUser: 3,
        inputs: [{ commodity: 'swap-starter-card', quantity: 2 }],
      },
    ],
  },
  {
    channel: 'AURORA',
    code: 'constellation',
    name: 'Constellation trade',
    description: 'Bring two Star Fox and get the Star Fox Constellation.',
    startsInHours: -1 * DAY,
    endsInHours: 30 * DAY,
    offers: [
      {
        code: 'star-fox-constellation',
        name: 'Star Fox Constellation',
        description: 'Two foxes, one sky.',
        amountSku: 500,
        total: 500,
        remaining: 500,
        limitPerUser: 2,
        inputs: [{ commodity: 'star-fox', quantity: 2 }],
      },
      {
        code: 'star-fox-comet',
        name: 'Star Fox Comet',
        description: 'One fox and a code from the Aurora Studio newsletter.',
        amountSku: 200,
        total: 200,
        remaining: 200,
        limitPerUser: 1,
        inputs: [{ commodity: 'star-fox', quantity: 1 }],
        codes: 3,
      },
    ],
  },
];

/**
 * Demo self chain-up campaigns (spec §2 chain, label 4): `codes` product codes (type 1) and `certificates` certificate
 * codes (type 2), derived like the demo redeem codes and printed by the seed.
 */
export type SeedChainCampaign = {
  channel: string;
  code: string;
  name: string;
  description: string;
  authorStageName: string;
  commodity: { code: string; name: string; description: string; amountSku: number };
  codes: number;
  certificates?: number;
  startsInHours: number;
  endsInHours: number | null;
};

export const SEED_CHAIN_CAMPAIGNS: SeedChainCampaign[] = [
  {
    channel: 'CHAIN',
    code: 'iron-owl',
    name: 'Iron Owl figurine',
    description: 'Bought the Iron Owl figurine? Enter the code inside its box to chain up its digital twin.',
    authorStageName: 'Mo Studio',
    commodity: {
      code: 'chain-iron-owl',
      name: 'Iron Owl (digital twin)',
      description: 'The digital twin of the Iron Owl figurine.',
      amountSku: 2000,
    },
    codes: 5,
    startsInHours: -2 * DAY,
    endsInHours: 60 * DAY,
  },
  {
    channel: 'AURORA',
    code: 'aurora-print',
    name: 'Aurora Dawn print',
    description: 'The framed print of Aurora Dawn carries a code on its back.',
    authorStageName: 'Mira Solberg',
    commodity: {
      code: 'aurora-dawn-print',
      name: 'Aurora Dawn (print twin)',
      description: 'The digital twin of the framed print.',
      amountSku: 300,
    },
    codes: 3,
    certificates: 2,
    startsInHours: -2 * DAY,
    endsInHours: 60 * DAY,
  },
];

/**
 * Demo art (docs/decisions.md, "Demo art"): scripts/generate-art.mjs draws it from this file. Every collectible the
 * seed creates has pictures of its own, named after its code and captioned with its name, and every channel has a
 * brand folder of its own, named after its key; lib/demo/art.test.ts checks both.
 */
export function channelArt(channel: { key: string }): string {
  return channel.key.toLowerCase();
}

/** The cover and the detail pictures of a collectible, by its code (commodity codes are unique across the demo). */
export function goodsPictures(code: string): { cover: string; actualPicture: string[] } {
  return { cover: `/goods/${code}.svg`, actualPicture: [`/goods/${code}.svg`, `/goods/${code}-2.svg`] };
}

export type SeedCollectible = { channel: string; code: string; name: string };

/** Every collectible the seed creates: sales, blind-box prizes, gift and exchange offers, chain-up twins. */
export function demoCollectibles(): SeedCollectible[] {
  return [
    ...SEED_SALES.flatMap((s) => [
      { channel: s.channel, code: s.code, name: s.name },
      ...(s.blindBox ?? []).map((p) => ({ channel: s.channel, code: p.prize, name: p.name })),
    ]),
    ...SEED_GIFTS.flatMap((g) => g.offers.map((o) => ({ channel: g.channel, code: o.code, name: o.name }))),
    ...SEED_EXCHANGES.flatMap((x) => x.offers.map((o) => ({ channel: x.channel, code: o.code, name: o.name }))),
    ...SEED_CHAIN_CAMPAIGNS.map((c) => ({ channel: c.channel, code: c.commodity.code, name: c.commodity.name })),
  ];
}

/**
 * issue 36: a gift between two demo buyers of AURORA left unanswered, offered 73 hours before the seed ran: past its
 * 72 hours, so the first pass of the background jobs (or the first read of either buyer's gifts) gives the edition back
 * to its sender, who finds it in their collection and a "returned" record. e2e/certificate.spec.ts logs in as both
 * (the server's clock is not the browser's, so the age is the seed's). Made once, with the two buyers.
 */
export const SEED_UNANSWERED_GIFT = {
  channel: 'AURORA',
  sale: 'jade-dragon',
  sender: { phone: '13600003601', nickname: 'Lin Qiao' },
  receiver: { phone: '13600003602', nickname: 'Mei Chen' },
  /** Bought this long before it was offered (past the channel's holding period). */
  heldHoursBefore: 2 * DAY,
  offeredHoursAgo: 73 * HOUR,
} as const;
