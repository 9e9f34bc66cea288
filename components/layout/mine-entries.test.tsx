/** @jest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { channelFeatures, parseLabels } from '@/lib/channel/labels';
import { parseSkin } from '@/lib/channel/skin';
import { translator } from '@/lib/i18n/translator';
import type { Locale } from '@/lib/i18n/locale';
import type { ChannelAttributes } from '@/lib/db/schema';
import { MineEntries, mineEntries } from './mine-entries';

/** /mine's entries on a channel with these labels and attributes, as the buyer reads them: each link's title and subtitle. */
function entriesOn(labelList: string, attributes: ChannelAttributes, locale: Locale = 'en') {
  const entries = mineEntries({
    features: channelFeatures(parseLabels(labelList), attributes),
    attributes,
    skin: parseSkin('{}'),
    t: translator(locale),
  });
  const { unmount } = render(<MineEntries entries={entries} placeholderColor="#eeeeee" />);
  const read = within(screen.getByTestId('mine-entries'))
    .getAllByRole('link')
    .map((link) => ({
      href: link.getAttribute('href'),
      subtitle: within(link).queryByTestId('mine-entry-subtitle')?.textContent ?? null,
      title: link.textContent!.replace(within(link).queryByTestId('mine-entry-subtitle')?.textContent ?? '', ''),
    }));
  unmount();
  return read;
}

describe("/mine's entries (spec §2, §6; issue 30: two entries must not read alike)", () => {
  it('SWAP in Chinese: both lists keep the spec title 领取记录, each with a subtitle saying what it holds', () => {
    const swap = entriesOn('2,3', { destroyTitledReceive: true }, 'zh-CN');
    expect(swap).toEqual([
      { href: '/mine/collection', title: '我的藏品', subtitle: null },
      { href: '/mine/exchange', title: '兑换记录', subtitle: null },
      { href: '/mine/destory', title: '领取记录', subtitle: '兑换中消耗的藏品' },
      { href: '/mine/receive', title: '领取记录', subtitle: '领取的礼物' },
    ]);
  });

  it('the same in English, on any channel of that kind (not SWAP only): the gift-only class with its old receive list', () => {
    const perksLike = entriesOn('2,3', { destroyTitledReceive: true, giftOnly: true, noActive: true });
    expect(perksLike.filter((e) => e.title === 'Receive records')).toEqual([
      { href: '/mine/destory', title: 'Receive records', subtitle: 'Spent in exchanges' },
      { href: '/mine/receive', title: 'Receive records', subtitle: 'Gifts you received' },
    ]);
  });

  it('no subtitle where the titles differ already, or where only one of the two lists is offered', () => {
    expect(entriesOn('1,2,3,4', {}).every((e) => e.subtitle === null)).toBe(true);
    // Destroy records titled 'receive records' but no receive label: one entry of that title, nothing to tell apart.
    expect(entriesOn('2', { destroyTitledReceive: true })).toEqual([
      { href: '/mine/collection', title: 'My collection', subtitle: null },
      { href: '/mine/exchange', title: 'Exchange records', subtitle: null },
      { href: '/mine/destory', title: 'Receive records', subtitle: null },
    ]);
  });
});
