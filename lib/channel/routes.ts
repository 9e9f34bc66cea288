/**
 * The storefront's routes (spec §2). Pure, no imports: the proxy (proxy.ts) uses them to send unknown paths to /404,
 * apply the login guard and the label guards before any page renders, and the browser imports them too
 * (components/shell/wx-tip.tsx).
 */
export type RouteName =
  | 'home'
  | 'shareGoods'
  | 'setKey'
  | 'active'
  | 'exchangeDetail'
  | 'receive'
  | 'receive2'
  | 'receiveDetail'
  | 'receiveDetailNew'
  | 'chain'
  | 'chainUp'
  | 'chainResult'
  | 'detail'
  | 'mine'
  | 'goodsDetail'
  | 'pay'
  | 'paySuccess'
  | 'payFail'
  | 'mineBox'
  | 'mineRecords'
  | 'mineExchange'
  | 'mineCollection'
  | 'mineChain'
  | 'mineDestory'
  | 'mineReceive'
  | 'mineIdentity'
  | 'mineMessages'
  | 'mineGifts'
  | 'mineGiftRecords'
  | 'mineGive'
  | 'mineProfile'
  | 'mineProfileClose'
  | 'mineProfileData'
  | 'mineCertificate'
  | 'mineGiveTo'
  | 'mineGiftCode'
  | 'certificate'
  | 'login'
  | 'agreement'
  | 'notFound'
  | 'sellout'
  | 'notices'
  | 'notice'
  | 'calendar'
  | 'lotteryVerify'
  | 'sandboxCashier';

type RouteDef = {
  name: RouteName;
  pattern: string;
  /** spec §6: pay and every /mine/* page except /mine need a token. */
  login?: boolean;
  /** Needs this label, else /404 (spec §2). */
  label?: 2;
  /**
   * Shows the "open in browser" tip in the messaging-app browser (spec §1). Only a page that does not work inside
   * WeChat is flagged (issue 36, docs/wechat.md): none today.
   */
  wxTip?: boolean;
  /** Answers a file to save, not a page (issue 36: the buyer's data file): the page sweeps of the e2e skip it. */
  download?: true;
  /**
   * The page is the same for every visitor (it reads no session and nothing of one buyer), so the proxy serves it
   * from the rendered-page cache (docs/caching.md); `query` lists the search parameters it reads.
   *
   * A `login` route may be shared only when it names `buyerPart`, the one API call its client part reads everything of
   * the buyer from (issue 34: the pay page and `saleRecord/payState`): the proxy's login guard still runs first, from
   * the session cookie's claims, and the HTML served from the cache holds nothing of any buyer.
   *
   * `bySession` (issue 34: /mine, open to everyone, spec §6): the page has two variants, one for a visitor with a session
   * of this channel (from the session cookie's claims, no database read) and one without; the cache keys them apart and
   * the proxy tells the page which to render (lib/page/visitor.ts). Neither holds anything of a buyer: a signed-in
   * visitor's own part comes from `buyerPart`, which a `bySession` route must name.
   */
  shared?: { query: readonly string[]; buyerPart?: `/market/api/${string}`; bySession?: true };
};

// Order matters: static paths before parameterised ones sharing a prefix (/chain/result before /chain/:id/...).
// Whether paySuccess, payFail, chainResult and chainUp need login is "not shown" (spec §2); we decided:
// paySuccess, payFail and chainResult show results for an order/record of the user, so they need login;
// chainUp asks for confirmation of a user action, so it needs login too (docs/decisions.md).
export const ROUTES: readonly RouteDef[] = [
  { name: 'home', pattern: '/', shared: { query: ['page'] } },
  { name: 'setKey', pattern: '/set_key/:key' },
  { name: 'active', pattern: '/active', label: 2 },
  { name: 'exchangeDetail', pattern: '/exchange_detail/:id/:exchange_id' },
  { name: 'receive', pattern: '/receive' },
  { name: 'receive2', pattern: '/receive2' },
  { name: 'receiveDetail', pattern: '/receive_detail/:id/:exchange_id' },
  { name: 'receiveDetailNew', pattern: '/receive_detail_new/:id/:exchange_id' },
  { name: 'chain', pattern: '/chain' },
  { name: 'chainResult', pattern: '/chain/result', login: true },
  { name: 'chainUp', pattern: '/chain/:id/:code/:type/:authorStageName', login: true },
  { name: 'detail', pattern: '/detail/:id' },
  // issue 34: served like the pay page, in two variants (signed in or not); the buyer's own part from one call.
  { name: 'mine', pattern: '/mine', shared: { query: [], buyerPart: '/market/api/userAttribute/mineSummary', bySession: true } },
  // Shared goods links open in WeChat, where the page works (its share card, WeChat Pay on the pay page): no covering
  // tip (issue 36); "open in app", which WeChat blocks, shows it when tapped.
  { name: 'goodsDetail', pattern: '/goods/detail/:saleId', shared: { query: [] } },
  { name: 'paySuccess', pattern: '/pay/success', login: true, shared: { query: [], buyerPart: '/market/api/pay/query' } },
  { name: 'payFail', pattern: '/pay/fail', login: true },
  // issue 34: the pay page's shared part (sale, channel, price, options, terms) from the cache; the buyer's own part from
  // one call in the browser (docs/caching.md).
  { name: 'pay', pattern: '/pay/:saleId', login: true, shared: { query: [], buyerPart: '/market/api/saleRecord/payState' } },
  { name: 'mineBox', pattern: '/mine/box', login: true },
  { name: 'mineRecords', pattern: '/mine/records', login: true },
  { name: 'mineExchange', pattern: '/mine/exchange', login: true, label: 2 },
  { name: 'mineCollection', pattern: '/mine/collection', login: true },
  { name: 'mineChain', pattern: '/mine/chain', login: true },
  { name: 'mineDestory', pattern: '/mine/destory', login: true },
  { name: 'mineReceive', pattern: '/mine/receive', login: true },
  // Ours, not the spec's (issue 33): the buyer's real-name verification, a /mine page like the others (login first).
  { name: 'mineIdentity', pattern: '/mine/identity', login: true },
  // Ours, not the spec's (issue 35): the buyer's own messages (a lottery won, a waitlist turn), a /mine page like the others.
  { name: 'mineMessages', pattern: '/mine/messages', login: true },
  // Ours, not the spec's (issue 36): gifts between buyers: the incoming ones, the records, giving one collectible.
  { name: 'mineGifts', pattern: '/mine/gifts', login: true },
  { name: 'mineGiftRecords', pattern: '/mine/gifts/records', login: true },
  { name: 'mineGive', pattern: '/mine/gifts/give/:holdingId', login: true },
  // Ours, not the spec's (issue 36): the buyer's profile (nickname, avatar, logins), their data file, closing the account.
  { name: 'mineProfile', pattern: '/mine/profile', login: true },
  { name: 'mineProfileClose', pattern: '/mine/profile/close', login: true },
  { name: 'mineProfileData', pattern: '/mine/profile/data', login: true, download: true },
  // issue 36: a held edition's certificate; the editions one can give to the buyer whose gift code was scanned; my gift
  // code (a QR of that link); and the certificate's public page, open to everyone by an opaque code (docs/gifting.md).
  { name: 'mineCertificate', pattern: '/mine/collection/:holdingId', login: true },
  { name: 'mineGiveTo', pattern: '/mine/collection/give-to/:accountNumber', login: true },
  { name: 'mineGiftCode', pattern: '/mine/gift-code', login: true },
  { name: 'certificate', pattern: '/cert/:code' },
  // Ours, not the spec's (issue 36): the share sheet of a sale (copy link, the system's share, the poster); open to
  // everyone, per visitor (a logged-in buyer's link carries their share code), so not shared.
  { name: 'shareGoods', pattern: '/share/goods/:saleId' },
  { name: 'login', pattern: '/login' },
  { name: 'agreement', pattern: '/agreement/:location' },
  { name: 'notFound', pattern: '/404', shared: { query: [] } },
  // issue 34: the same for everyone (a sold-out sale's late buyers land here, a page load or the pay form's navigation).
  { name: 'sellout', pattern: '/sellout', shared: { query: [] } },
  // Ours, not the spec's (issue 32, "Notices and a drop calendar"): open to visitors like the home page; not served from
  // the rendered-page cache, since a signed-in buyer's visit marks their notices read (docs/decisions.md).
  { name: 'notices', pattern: '/notices' },
  { name: 'notice', pattern: '/notices/:id' },
  { name: 'calendar', pattern: '/calendar' },
  // Ours, not the spec's (issue 35): a lottery sale's public "verify this draw" page, open to everyone. Not served from
  // the rendered-page cache: its count of registrants moves while registration is open.
  { name: 'lotteryVerify', pattern: '/lottery/:saleId' },
  // Ours, not the spec's: the payment sandbox's cashier page, which plays the payment provider (DESIGN §7).
  // issue 34: the same for every payment (served from the page cache); the payment from one call in the browser.
  {
    name: 'sandboxCashier',
    pattern: '/sandbox/cashier/:paymentNo',
    login: true,
    shared: { query: [], buyerPart: '/market/api/pay/sandbox/detail' },
  },
];

export type RouteMatch = { route: RouteDef; params: Record<string, string> };

/** Matches a pathname ('' counts as '/', a trailing slash is ignored) against the route table. */
export function matchRoute(pathname: string): RouteMatch | null {
  const parts = splitPath(pathname);
  for (const route of ROUTES) {
    const pattern = splitPath(route.pattern);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < pattern.length; i++) {
      const p = pattern[i]!;
      const v = parts[i]!;
      if (p.startsWith(':')) {
        if (!v) {
          ok = false;
          break;
        }
        params[p.slice(1)] = safeDecode(v);
      } else if (p !== v) {
        ok = false;
        break;
      }
    }
    if (ok) return { route, params };
  }
  return null;
}

export function routeByName(name: RouteName): RouteDef {
  const route = ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`unknown route ${name}`);
  return route;
}

function splitPath(pathname: string): string[] {
  return pathname.split('/').filter((s) => s.length > 0);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
