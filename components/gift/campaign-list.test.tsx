/** @jest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { translator } from '@/lib/i18n/translator';
import type { GiftCampaignView } from '@/lib/gift/schema';
import { CampaignList } from './campaign-list';

// The live countdown's clock without the server's time (no fetch here): the test's own clock, no ticks.
jest.mock('@/lib/client/server-clock', () => ({ serverNow: () => Date.now(), subscribeClock: () => () => {} }));

// The receive list: a gift campaign not open yet counts down to its opening, as a coming-soon sale's card does (issue 30).

const HOUR = 3_600_000;
const offer = (id: string, name: string): GiftCampaignView['offers'][number] => ({
  id,
  campaignId: id,
  commodity: { id, name, cover: '/goods/gift-welcome-lantern.svg', amountSku: 5000 },
  total: 5000,
  remaining: 5000,
  limitPerUser: 1,
  requires: null,
  requiresCode: false,
});
const base = { description: '', cover: '/goods/gift-welcome-lantern.svg', endTime: null };
const campaigns: GiftCampaignView[] = [
  {
    ...base,
    id: '1',
    name: 'Welcome gift',
    status: 1,
    startTime: new Date(Date.now() - 48 * HOUR).toISOString(),
    offers: [offer('1', 'Lantern')],
  },
  // Three days and half an hour ahead: "3d 0h" however long the test takes to reach the assertion.
  {
    ...base,
    id: '2',
    name: 'New Year gift',
    status: 0,
    startTime: new Date(Date.now() + 72 * HOUR + HOUR / 2).toISOString(),
    offers: [offer('2', 'Rabbit')],
  },
];

it('counts down to a campaign’s opening in its badge, and leaves an open one’s badge as it was', () => {
  render(
    <CampaignList
      campaigns={campaigns}
      detailPath="/receive_detail_new"
      locale="en"
      t={translator('en')}
      timeZone="Asia/Shanghai"
      placeholderColor="#eee"
    />,
  );
  const [open, soon] = screen.getAllByTestId('campaign');
  expect(within(open!).getByTestId('campaign-status')).toHaveTextContent(/^Open$/);
  const countdown = within(soon!).getByTestId('campaign-status');
  expect(countdown).toHaveAttribute('role', 'timer');
  expect(countdown).toHaveTextContent(/^3d 0h$/);
});
