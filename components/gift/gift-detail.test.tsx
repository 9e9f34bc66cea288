/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { translator } from '@/lib/i18n/translator';
import type { GiftCampaignView, GiftOfferView } from '@/lib/gift/schema';
import { GiftDetail } from './gift-detail';

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

  it('says what it asks, the limit and what is left, and sends a visitor to log in', () => {
    renderVisitor();
    expect(screen.getByTestId('gift-requirement')).toHaveTextContent(/^For every member · One per member$/);
    expect(screen.getByTestId('gift-left')).toHaveTextContent('4,209 of 5,000 left');
    expect(screen.getByTestId('gift-login')).toHaveAttribute('href', '/login?redirect=%2Freceive_detail_new%2F1%2F2');
  });
});
