import { channelFeatures, channelTitle, homeRedirect, parseLabels } from './labels';

describe('parseLabels (spec §3 labelList)', () => {
  it('reads comma-separated digits 1 to 4 in ascending order', () => {
    expect(parseLabels('1,2,3,4')).toEqual([1, 2, 3, 4]);
    expect(parseLabels('4,1')).toEqual([1, 4]);
    expect(parseLabels('3')).toEqual([3]);
  });

  it('tolerates spaces around the digits', () => {
    expect(parseLabels(' 2 , 4 ')).toEqual([2, 4]);
  });

  it('counts a repeated label once', () => {
    expect(parseLabels('1,1,2,2,1')).toEqual([1, 2]);
  });

  it('ignores anything that is not a label', () => {
    expect(parseLabels('1,a,5,0,-2,,1.5,x4')).toEqual([1]);
    expect(parseLabels('sale,chain')).toEqual([]);
  });

  it('gives no labels for an empty or missing list', () => {
    expect(parseLabels('')).toEqual([]);
    expect(parseLabels(' , ,')).toEqual([]);
    expect(parseLabels(null)).toEqual([]);
    expect(parseLabels(undefined)).toEqual([]);
  });
});

describe('channelTitle (spec §1)', () => {
  it("is 'sale' when label 1 is enabled alone", () => {
    expect(channelTitle([1], {})).toBe('sale');
  });

  it("is 'activity' when several labels including 1 are enabled", () => {
    expect(channelTitle([1, 2], {})).toBe('activity');
    expect(channelTitle([1, 4], {})).toBe('activity');
    expect(channelTitle([1, 2, 3, 4], {})).toBe('activity');
  });

  it("is 'receive' when label 1 is absent", () => {
    expect(channelTitle([3], {})).toBe('receive');
    expect(channelTitle([2, 3, 4], {})).toBe('receive');
    expect(channelTitle([], {})).toBe('receive');
  });

  it("is 'buyGoods' for a channel with that attribute, whatever its labels", () => {
    expect(channelTitle([1], { buyGoodsTitle: true })).toBe('buyGoods');
    expect(channelTitle([1, 2], { buyGoodsTitle: true })).toBe('buyGoods');
    expect(channelTitle([4], { buyGoodsTitle: true })).toBe('buyGoods');
  });

  it('ignores attributes unrelated to the title', () => {
    expect(channelTitle([1], { hideAmount: true, giftOnly: true, noActive: true })).toBe('sale');
  });
});

describe('homeRedirect (spec §2 Guards)', () => {
  it('stays home when label 1 is present, whatever else is enabled', () => {
    expect(homeRedirect([1], {}, '')).toBeNull();
    expect(homeRedirect([1, 2, 3, 4], {}, '?a=1')).toBeNull();
    expect(homeRedirect([1], { giftOnly: true }, '')).toBeNull();
  });

  it('sends a gift-only channel to /receive, before any label rule', () => {
    expect(homeRedirect([2, 3, 4], { giftOnly: true }, '')).toBe('/receive');
    expect(homeRedirect([], { giftOnly: true }, '')).toBe('/receive');
  });

  it('sends label 2 to /active, label 3 to /receive2, label 4 to /chain', () => {
    expect(homeRedirect([2], {}, '')).toBe('/active');
    expect(homeRedirect([3], {}, '')).toBe('/receive2');
    expect(homeRedirect([4], {}, '')).toBe('/chain');
  });

  it('keeps the query string on the way to /chain', () => {
    expect(homeRedirect([4], {}, '?a=1&code=XYZ')).toBe('/chain?a=1&code=XYZ');
  });

  it('prefers label 2 over 3 over 4', () => {
    expect(homeRedirect([2, 3, 4], {}, '?a=1')).toBe('/active');
    expect(homeRedirect([3, 4], {}, '?a=1')).toBe('/receive2');
    expect(homeRedirect([2, 4], {}, '')).toBe('/active');
  });

  it('stays home when a channel has no labels at all (nothing to redirect to)', () => {
    expect(homeRedirect([], {}, '')).toBeNull();
  });
});

describe('parseLabels accepts only the digits 1 to 4', () => {
  it('ignores numbers written any other way', () => {
    expect(parseLabels('0x1,1e0,+3,2.0')).toEqual([]);
    expect(parseLabels(' 4 ,x, 2')).toEqual([2, 4]);
  });
});

describe('channelFeatures (spec §6)', () => {
  it('reads each label as its feature', () => {
    expect(channelFeatures([1, 2, 3, 4], {})).toEqual({
      sale: true,
      exchange: true,
      activityPage: true,
      receive: '/receive2',
      chainUp: true,
    });
    expect(channelFeatures([], {})).toEqual({ sale: false, exchange: false, activityPage: false, receive: null, chainUp: false });
  });

  it('keeps /active from the class that cannot open it, though the exchange stays', () => {
    expect(channelFeatures([2], { noActive: true })).toMatchObject({ exchange: true, activityPage: false });
  });

  it('sends the gift-only class to the old receive list', () => {
    expect(channelFeatures([3], { giftOnly: true }).receive).toBe('/receive');
    expect(channelFeatures([1], { giftOnly: true }).receive).toBeNull();
  });
});
