import { matchRoute, routeByName, ROUTES, type RouteName } from './routes';

describe('matchRoute (spec §2 routes)', () => {
  it.each<[string, RouteName, Record<string, string>]>([
    ['/', 'home', {}],
    ['/set_key/abc', 'setKey', { key: 'abc' }],
    ['/active', 'active', {}],
    ['/exchange_detail/7/88', 'exchangeDetail', { id: '7', exchange_id: '88' }],
    ['/receive', 'receive', {}],
    ['/receive2', 'receive2', {}],
    ['/receive_detail/3/41', 'receiveDetail', { id: '3', exchange_id: '41' }],
    ['/receive_detail_new/3/41', 'receiveDetailNew', { id: '3', exchange_id: '41' }],
    ['/chain', 'chain', {}],
    ['/chain/12/CODE9/2/Lin', 'chainUp', { id: '12', code: 'CODE9', type: '2', authorStageName: 'Lin' }],
    ['/chain/result', 'chainResult', {}],
    ['/detail/5', 'detail', { id: '5' }],
    ['/mine', 'mine', {}],
    ['/goods/detail/42', 'goodsDetail', { saleId: '42' }],
    ['/pay/42', 'pay', { saleId: '42' }],
    ['/pay/success', 'paySuccess', {}],
    ['/pay/fail', 'payFail', {}],
    ['/mine/box', 'mineBox', {}],
    ['/mine/records', 'mineRecords', {}],
    ['/mine/exchange', 'mineExchange', {}],
    ['/mine/collection', 'mineCollection', {}],
    ['/mine/chain', 'mineChain', {}],
    ['/mine/destory', 'mineDestory', {}],
    ['/mine/receive', 'mineReceive', {}],
    // Ours (issue 33): the real-name verification.
    ['/mine/identity', 'mineIdentity', {}],
    // Ours (issue 35): the buyer's own messages.
    ['/mine/messages', 'mineMessages', {}],
    ['/mine/gifts', 'mineGifts', {}],
    ['/mine/gifts/records', 'mineGiftRecords', {}],
    ['/mine/gifts/give/42', 'mineGive', { holdingId: '42' }],
    // issue 36: the certificate, the editions to give to a scanned gift code, my gift code, the public certificate.
    ['/mine/collection/42', 'mineCertificate', { holdingId: '42' }],
    ['/mine/collection/give-to/1234567890', 'mineGiveTo', { accountNumber: '1234567890' }],
    ['/mine/gift-code', 'mineGiftCode', {}],
    ['/cert/AbC-dEf_0123456789abcd', 'certificate', { code: 'AbC-dEf_0123456789abcd' }],
    ['/login', 'login', {}],
    ['/agreement/privacy', 'agreement', { location: 'privacy' }],
    ['/404', 'notFound', {}],
    ['/sellout', 'sellout', {}],
    // Ours (issue 32): notices and the drop calendar, open to visitors.
    ['/notices', 'notices', {}],
    ['/notices/7', 'notice', { id: '7' }],
    ['/calendar', 'calendar', {}],
    // Ours (issue 35): a lottery's public "verify this draw" page.
    ['/lottery/42', 'lotteryVerify', { saleId: '42' }],
  ])('matches %s as %s', (path, name, params) => {
    const match = matchRoute(path);
    expect(match?.route.name).toBe(name);
    expect(match?.params).toEqual(params);
  });

  it("treats the empty path as home (spec: 'empty path and /')", () => {
    expect(matchRoute('')?.route.name).toBe('home');
  });

  it('ignores a trailing slash', () => {
    expect(matchRoute('/mine/')?.route.name).toBe('mine');
    expect(matchRoute('/goods/detail/42/')).toEqual(matchRoute('/goods/detail/42'));
  });

  it('decodes percent-encoded parameters', () => {
    expect(matchRoute('/chain/1/AB%2FC/2/Lin%20Yue')?.params).toEqual({ id: '1', code: 'AB/C', type: '2', authorStageName: 'Lin Yue' });
    expect(matchRoute('/chain/1/c/2/%E6%9E%97%E6%82%A6')?.params.authorStageName).toBe('林悦');
  });

  it('keeps a parameter that is not valid percent-encoding as it came', () => {
    expect(matchRoute('/goods/detail/%E0%A4%A')?.params.saleId).toBe('%E0%A4%A');
  });

  it('tells /chain/result apart from a chain-up link, and /pay/success, /pay/fail apart from a sale id', () => {
    expect(matchRoute('/chain/result')?.route.name).toBe('chainResult');
    expect(matchRoute('/pay/success')?.route.name).toBe('paySuccess');
    expect(matchRoute('/pay/fail')?.route.name).toBe('payFail');
    expect(matchRoute('/pay/successful')?.route.name).toBe('pay');
  });

  it.each([
    '/nope',
    '/goods',
    '/goods/detail',
    '/goods/detail/1/2',
    '/chain/1/2/3',
    '/pay',
    '/mine/unknown',
    '/MINE',
    '/receive3',
    '/set_key',
    '/api/market/api/channel/detail',
  ])('gives null for the unknown path %s', (path) => {
    expect(matchRoute(path)).toBeNull();
  });
});

describe('route flags', () => {
  const loginNeeded = (path: string) => Boolean(matchRoute(path)?.route.login);

  it('needs login for pay and every /mine/* page (spec §6)', () => {
    for (const path of [
      '/pay/42',
      '/mine/box',
      '/mine/records',
      '/mine/exchange',
      '/mine/collection',
      '/mine/chain',
      '/mine/destory',
      '/mine/receive',
      // issue 33: the real-name verification is a /mine page too.
      '/mine/identity',
      // issue 36: the certificate, the editions to give to a scanned gift code, my gift code.
      '/mine/collection/42',
      '/mine/collection/give-to/1234567890',
      '/mine/gift-code',
    ]) {
      expect([path, loginNeeded(path)]).toEqual([path, true]);
    }
  });

  it('needs login for the result and chain-up pages (docs/decisions.md)', () => {
    for (const path of ['/pay/success', '/pay/fail', '/chain/result', '/chain/1/c/2/a']) {
      expect([path, loginNeeded(path)]).toEqual([path, true]);
    }
  });

  it('keeps home, mine home, goods detail and the receive pages open (spec §6)', () => {
    for (const path of [
      '',
      '/',
      '/mine',
      '/goods/detail/42',
      '/receive',
      '/receive2',
      '/receive_detail/1/2',
      '/receive_detail_new/1/2',
      '/cert/x',
    ]) {
      expect([path, loginNeeded(path)]).toEqual([path, false]);
    }
  });

  it('keeps the login, 404 and agreement pages open, so guards cannot loop', () => {
    for (const path of ['/login', '/404', '/agreement/privacy', '/sellout']) {
      expect([path, loginNeeded(path)]).toEqual([path, false]);
    }
  });

  it('keeps the notices and the drop calendar open to visitors, on every channel (issue 32)', () => {
    for (const path of ['/notices', '/notices/3', '/calendar']) {
      expect([path, loginNeeded(path), matchRoute(path)?.route.label, matchRoute(path)?.route.shared]).toEqual([
        path,
        false,
        undefined,
        undefined,
      ]);
    }
  });

  it('asks for label 2 on /active and /mine/exchange only (spec §2)', () => {
    const withLabel = ['/active', '/mine/exchange'];
    expect(withLabel.map((p) => matchRoute(p)?.route.label)).toEqual([2, 2]);
    for (const path of ['/', '/chain', '/receive2', '/mine', '/mine/box', '/goods/detail/1']) {
      expect([path, matchRoute(path)?.route.label]).toEqual([path, undefined]);
    }
  });
});

describe('shared routes behind login (issue 34)', () => {
  it('serves only the pay page, its result page and the sandbox cashier from the cache behind login, each naming the one call its buyer part comes from', () => {
    const sharedLogin = ROUTES.filter((r) => r.login && r.shared);
    expect(sharedLogin.map((r) => [r.name, r.shared?.buyerPart])).toEqual([
      ['paySuccess', '/market/api/pay/query'],
      ['pay', '/market/api/saleRecord/payState'],
      ['sandboxCashier', '/market/api/pay/sandbox/detail'],
    ]);
  });

  it('serves /mine, open to everyone, from the cache in a signed-in and an anonymous variant, the buyer part from one call', () => {
    const open = ROUTES.filter((r) => r.shared && !r.login && r.shared.buyerPart);
    expect(open.map((r) => [r.name, r.shared?.buyerPart, r.shared?.bySession])).toEqual([
      ['mine', '/market/api/userAttribute/mineSummary', true],
    ]);
    expect(matchRoute('/mine')?.route.login).toBeUndefined();
    // Only a route with a buyer part has a signed-in variant: every other shared route reads nothing of a buyer at all.
    expect(ROUTES.filter((r) => r.shared?.bySession).every((r) => r.shared?.buyerPart !== undefined)).toBe(true);
    expect(ROUTES.filter((r) => r.shared && !r.shared.bySession && !r.login).every((r) => r.shared?.buyerPart === undefined)).toBe(true);
  });
});

describe('routeByName', () => {
  it('finds a route by its name and refuses an unknown one', () => {
    expect(routeByName('goodsDetail').pattern).toBe('/goods/detail/:saleId');
    expect(() => routeByName('nope' as RouteName)).toThrow('unknown route nope');
  });
});
