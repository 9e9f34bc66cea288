/** English catalogue: the spec's wording where the spec gives one. ICU message syntax (use-intl). */
const en = {
  title: {
    sale: 'digital collectible sale',
    activity: 'digital collectible activity',
    receive: 'digital collectible receive',
    buyGoods: 'buy goods',
  },
  route: {
    goodsDetail: 'goods detail',
    payNow: 'pay now',
    notFound: 'page not found',
    sellout: 'sold out',
  },
  nav: {
    label: 'Main',
    home: 'Home',
    active: 'Activity',
    receive: 'Receive',
    chain: 'Chain-up',
    mine: 'Mine',
  },
  status: {
    comingSoon: 'Coming soon',
    onSale: 'On sale',
    soldOut: 'Sold out',
    ended: 'Ended',
    opensAt: 'Opens {time}',
  },
  home: {
    sales: 'Drops',
    empty: 'No drops yet. Check back soon.',
    edition: 'Edition of {count, number}',
    blindBox: 'Blind box',
    more: 'More drops',
    back: 'Previous',
  },
  goods: {
    gallery: 'Gallery',
    editionSize: 'Edition size',
    editionCount: '{count, number} copies',
    stockLeft: 'Left',
    stockCount: '{count, number} of {total, number}',
    price: 'Price',
    limit: 'Limit per buyer',
    limitCount: '{count, number}',
    saleWindow: 'Sale window',
    noEnd: 'no end date',
    author: 'Author',
    publisher: 'Publisher',
    series: 'Series',
    description: 'About this collectible',
    chain: 'Chain',
    contract: 'Contract',
    contractAddress: 'Contract address',
    buy: 'Buy now',
    soldOut: 'Sold out',
    ended: 'Sale ended',
    opensAt: 'Opens {time}',
    odds: 'Odds of this blind box',
    oddsItem: '{name}: {percent}',
    back: 'Back',
  },
  notFound: {
    title: 'Page not found',
    body: 'The page you are looking for does not exist or has moved.',
    home: 'Back to home',
  },
  storeNotFound: {
    title: 'Store not found',
    body: 'There is no store at {host}.',
    hint: 'Check the link you followed, or ask whoever shared it for the right address.',
  },
  ogCard: {
    edition: 'Edition of {count, number}',
  },
  wxTip: {
    title: 'Open in your browser',
    body: 'Tap ··· in the top-right corner and choose "Open in browser" to buy and pay.',
    dismiss: 'Got it',
  },
  api: {
    busy: 'Too many buyers at the moment, system recovering, please retry later',
  },
  viewer: {
    label: 'Image viewer',
    open: 'View {name} full screen',
    close: 'Close',
  },
  sellout: {
    title: 'Sold out',
    body: 'Every piece of this drop has found its collector. Keep an eye on the next one.',
    home: 'See other drops',
  },
} as const;

export default en;

type DeepStringify<T> = { [K in keyof T]: T[K] extends string ? string : DeepStringify<T[K]> };
/** Every catalogue has exactly the keys of the English one. */
export type Messages = DeepStringify<typeof en>;
