/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { translator } from '@/lib/i18n/translator';
import type { GiftCampaignView, GiftOfferView } from '@/lib/gift/schema';
import { GiftDetail } from './gift-detail';

// The live countdown's clock without the server's time (no fetch here): the test's own clock, no ticks.
jest.mock('@/lib/client/server-clock', () => ({ serverNow: () => Date.now(), subscribeClock: () => () => {} }));

const offer: GiftOfferView = {
  id: '2',
  campaignId: '1',
  commodity: { id: '9', name: 'Welcome Lantern', cover: '/goods/gift-welcome-lantern.svg', amountSku: 5000 },
  total: 5000,
  remaining: 4209,
  limitPerUser: 1,
  requires: null,
  requiresCode: false,
};
const campaign: GiftCampaignView = {
  id: '1',
  name: 'Welcome gift',
  description: 'A lantern for every new member.',
  cover: '/goods/gift-welcome-lantern.svg',
  startTime: '2026-11-24T16:10:00.000Z',
  endTime: '2027-01-25T16:10:00.000Z',
  status: 1,
  offers: [offer],
};

function renderVisitor() {
  return render(
    <GiftDetail
      campaign={campaign}
      offer={offer}
      eligibility={null}
      loginHref="/login?redirect=%2Freceive_detail_new%2F1%2F2"
      locale="en"
      t={translator('en')}
      timeZone="Asia/Shanghai"
      placeholderColor="#eeeeee"
    />,
  );
}

describe('GiftDetail (the card it shares with the exchange detail, issue 30)', () => {
  it('keeps each end of the window whole: a narrow phone breaks the line at the dash, not inside a date', () => {
    renderVisitor();
    for (const end of ['2026-11-25 00:10', '2027-01-26 00:10']) {
      expect(screen.getByText(end)).toHaveClass('whitespace-nowrap');
    }
  });

  it('names the gift under the page title: one first-level heading per page (the page header’s)', () => {
    renderVisitor();
    expect(screen.getByRole('heading', { level: 2, name: 'Welcome Lantern' })).toHaveAttribute('data-testid', 'gift-name');
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
  });

  it('groups its edition size as every page groups a count: 5,000, as the goods page writes it (issue 30: it read 5000)', () => {
    renderVisitor();
    expect(screen.getByTestId('offer-edition-size')).toHaveTextContent(/^5,000$/);
  });

  it('says what it asks, the limit and what is left, and sends a visitor to log in', () => {
    renderVisitor();
    expect(screen.getByTestId('gift-requirement')).toHaveTextContent(/^For every member · One per member$/);
    expect(screen.getByTestId('gift-left')).toHaveTextContent('4,209 of 5,000 left');
    expect(screen.getByTestId('gift-login')).toHaveAttribute('href', '/login?redirect=%2Freceive_detail_new%2F1%2F2');
  });
});

describe('a gift not open yet (issue 30: it had no countdown; a sale has one)', () => {
  const HOUR = 3_600_000;
  // Three days and half an hour ahead: "3d 0h" however long the test takes to reach the assertion.
  const soon = { ...campaign, status: 0 as const, startTime: new Date(Date.now() + 72 * HOUR + HOUR / 2).toISOString(), endTime: null };
  const renderSoon = (locale: 'en' | 'zh-CN') =>
    render(
      <GiftDetail
        campaign={soon}
        offer={offer}
        eligibility={null}
        loginHref="/login"
        locale={locale}
        t={translator(locale)}
        timeZone="Asia/Shanghai"
        placeholderColor="#eeeeee"
      />,
    );

  it('counts down to its opening beside its name, as a coming-soon sale does, named by its opening time', () => {
    renderSoon('en');
    const countdown = screen.getByTestId('gift-countdown');
    expect(countdown).toHaveAttribute('role', 'timer');
    expect(countdown).toHaveTextContent(/^3d 0h$/);
    expect(countdown).toHaveAccessibleName(/^Opens \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  });

  it('reads the countdown in Chinese on a Chinese page', () => {
    renderSoon('zh-CN');
    expect(screen.getByTestId('gift-countdown')).toHaveTextContent(/^3天0小时$/);
  });

  it('shows no countdown once it is open', () => {
    renderVisitor();
    expect(screen.queryByTestId('gift-countdown')).not.toBeInTheDocument();
  });
});
