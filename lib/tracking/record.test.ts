import { pageIdOf, pageViewRecord, type TrackingContext } from './record';
import { trackingRecordSchema } from './schema';

const ctx: TrackingContext = {
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1',
  deviceId: 'dev-1',
  sessionId: 'sess-1',
  projectVersion: '0.1.0',
  channelKey: 'AURORA',
  environment: 'browser',
  networkType: '4g',
};

describe('page-view records (spec §3, §4)', () => {
  it('names pages by route and carries the sale of a goods page', () => {
    expect(pageIdOf('/goods/detail/3')).toBe('goodsDetail');
    expect(pageIdOf('/')).toBe('home');
    expect(pageIdOf('/nope/x')).toBe('unknown');
  });

  it('reports the previous page and its dwell time in seconds', () => {
    const home = { pageId: 'home', url: '/', uuid: 'u1', enteredAt: 1_000 };
    const goods = { pageId: 'goodsDetail', url: '/goods/detail/3', uuid: 'u2', enteredAt: 13_400 };
    const record = pageViewRecord(ctx, goods, home, 'page_view', 13_400);
    expect(record).toMatchObject({
      event_type: 'page_view',
      page_id: 'goodsDetail',
      page_url: '/goods/detail/3',
      commodity_id: '3',
      refer_id: 'home',
      refer_url: '/',
      refer_uuid: 'u1',
      duration: 12,
      proj_id: 5,
      os: 'iOS',
      os_vers: '17.4',
      model: 'iPhone',
      manufacturer: 'Apple',
      scene_id: 'AURORA',
      source: 'browser',
    });
    expect(trackingRecordSchema.safeParse(record).success).toBe(true);
  });

  it('gives the dwell time of the page itself when leaving it', () => {
    const goods = { pageId: 'goodsDetail', url: '/goods/detail/3', uuid: 'u2', enteredAt: 10_000 };
    expect(pageViewRecord(ctx, goods, null, 'page_leave', 15_600).duration).toBe(6);
  });

  it('has no dwell time on the first page, and the outside referrer', () => {
    const home = { pageId: 'home', url: '/', uuid: 'u1', enteredAt: 0 };
    expect(pageViewRecord(ctx, home, null, 'page_view', 0, 'https://chat.example/')).toMatchObject({
      duration: null,
      refer_url: 'https://chat.example/',
      refer_id: '',
    });
  });
});
