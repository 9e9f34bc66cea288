/** @jest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { translator } from '@/lib/i18n/translator';
import { NoticeList } from './notice-list';
import { DropCalendar } from './drop-calendar';

// The store's notice list and drop calendar (issue 32) as a buyer reads them: type chips, dates in the channel's zone,
// links to each notice and sale, days in order, empty states in the buyer's language.

const en = translator('en');
const zh = translator('zh-CN');

const notices = [
  {
    id: '12',
    type: 'drop' as const,
    title: 'Star Fox drops Friday',
    body: 'Line one.\n\nLine two.',
    publishTime: '2026-11-30T16:30:00.000Z',
  },
  { id: '11', type: 'operations' as const, title: 'Maintenance', body: '<b>not bold</b>', publishTime: '2026-11-29T02:00:00.000Z' },
];

describe('NoticeList', () => {
  it('shows each notice with its type chip, its date in the channel’s zone, and a link to it', () => {
    render(<NoticeList notices={notices} timeZone="Asia/Shanghai" t={en} />);
    const items = screen.getAllByTestId('notice');
    expect(items.map((i) => i.getAttribute('href'))).toEqual(['/notices/12', '/notices/11']);
    expect(within(items[0]!).getByText('New drop')).toBeTruthy();
    expect(within(items[1]!).getByText('Announcement')).toBeTruthy();
    // 16:30 UTC is 00:30 the next day in Shanghai.
    expect(within(items[0]!).getByText('2026-12-01 00:30')).toBeTruthy();
    // An operator's text is text: no element is made of it.
    expect(within(items[1]!).getByText('<b>not bold</b>')).toBeTruthy();
    expect(items[1]!.querySelector('b')).toBeNull();
  });

  it('says there are no notices, in the buyer’s language', () => {
    const { rerender } = render(<NoticeList notices={[]} timeZone="Asia/Shanghai" t={en} />);
    expect(screen.getByTestId('notices-empty').textContent).toContain('No notices yet.');
    rerender(<NoticeList notices={[]} timeZone="Asia/Shanghai" t={zh} />);
    expect(screen.getByTestId('notices-empty').textContent).toContain('暂无公告');
  });
});

describe('DropCalendar', () => {
  const sales = [
    { saleId: '3', name: 'Tide Whale', cover: '/goods/tide-whale.svg', saleStartTime: '2026-12-01T12:00:00.000Z' },
    { saleId: '5', name: 'Star Fox II', cover: '/goods/star-fox.svg', saleStartTime: '2026-12-01T15:30:00.000Z' },
    { saleId: '4', name: 'Aurora Box', cover: '/goods/aurora-dawn.svg', saleStartTime: '2026-12-01T17:00:00.000Z' },
  ];

  it('groups the upcoming sales by their opening day in the channel’s zone, each with its time and a link', () => {
    render(<DropCalendar sales={sales} timeZone="Asia/Shanghai" placeholderColor="#eee" locale="en" t={en} />);
    const days = screen.getAllByTestId('calendar-day');
    expect(days.map((d) => d.getAttribute('data-day'))).toEqual(['2026-12-01', '2026-12-02']);
    const first = within(days[0]!).getAllByTestId('calendar-sale');
    expect(first.map((s) => s.getAttribute('href'))).toEqual(['/goods/detail/3', '/goods/detail/5']);
    expect(within(first[0]!).getByText('Opens 20:00')).toBeTruthy();
    expect(within(first[1]!).getByText('Opens 23:30')).toBeTruthy();
    expect(within(days[1]!).getByText('Aurora Box')).toBeTruthy();
    expect(within(days[1]!).getByText('Opens 01:00')).toBeTruthy();
    expect(screen.getByText(/Times are in China Standard Time/)).toBeTruthy();
    expect(days.map((d) => d.querySelector('h2')!.textContent)).toEqual(['2026-12-01 Tue', '2026-12-02 Wed']);
  });

  it('names the days’ weekdays in the buyer’s language', () => {
    render(<DropCalendar sales={sales} timeZone="Asia/Shanghai" placeholderColor="#eee" locale="zh-CN" t={zh} />);
    const days = screen.getAllByTestId('calendar-day');
    expect(days.map((d) => d.querySelector('h2')!.textContent)).toEqual(['2026-12-01 周二', '2026-12-02 周三']);
    // The zone by its Chinese name, not the Latin letters of its id.
    expect(screen.getByText(/时间为中国标准时间|时间为 中国标准时间/)).toBeTruthy();
  });

  it('says no drops are scheduled, with the way to the sales, in the buyer’s language', () => {
    render(<DropCalendar sales={[]} timeZone="Asia/Shanghai" placeholderColor="#eee" locale="zh-CN" t={zh} />);
    const empty = screen.getByTestId('calendar-empty');
    expect(empty.textContent).toContain('未来 30 天内暂无发售');
    expect(within(empty).getByTestId('empty-action').getAttribute('href')).toBe('/');
  });
});
