/** @jest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { translator } from '@/lib/i18n/translator';
import { ACCOUNTS_PER_PAGE, LotteryAccounts } from './lottery-accounts';

// The verify page's winners and waitlist (issue 35: "long lists paged or collapsed"): ranked account numbers, a page of
// 100 at a time, the links keeping the other list's page; an empty list says nobody.

const accounts = Array.from({ length: 250 }, (_, i) => String(1_000_000_000 + i));

function show(page: number, other: string | undefined = undefined, locale: 'en' | 'zh-CN' = 'en') {
  const t = translator(locale);
  render(
    <LotteryAccounts
      t={t}
      heading={t('lottery.waitlistHeading', { count: accounts.length })}
      accounts={accounts}
      firstRank={1}
      page={page}
      param="waitlist"
      other={{ name: 'winners', value: other }}
      testId="verify-waitlist"
    />,
  );
}

it('shows the first 100 with their ranks, and a link to the next page', () => {
  show(1);
  const items = within(screen.getByTestId('verify-waitlist')).getAllByRole('listitem');
  expect(items).toHaveLength(ACCOUNTS_PER_PAGE);
  const rankAndAccount = (item: HTMLElement) => [...item.children].map((child) => child.textContent);
  expect(rankAndAccount(items[0]!)).toEqual(['1', '1000000000']);
  expect(rankAndAccount(items[99]!)).toEqual(['100', '1000000099']);
  expect(screen.getByText('Page 1 of 3')).toBeVisible();
  expect(screen.queryByRole('link', { name: 'Previous' })).toBeNull();
  expect(screen.getByRole('link', { name: 'Next' })).toHaveAttribute('href', '?waitlist=2');
});

it('the last page holds the rest, ranked on from where the page before ended, the other list’s page kept', () => {
  show(3, '2');
  const items = within(screen.getByTestId('verify-waitlist')).getAllByRole('listitem');
  expect(items).toHaveLength(50);
  expect([...items[0]!.children].map((child) => child.textContent)).toEqual(['201', '1000000200']);
  expect(screen.getByRole('link', { name: 'Previous' })).toHaveAttribute('href', '?winners=2&waitlist=2');
  expect(screen.queryByRole('link', { name: 'Next' })).toBeNull();
});

it('in Chinese, and an empty list says nobody', () => {
  const t = translator('zh-CN');
  render(
    <LotteryAccounts
      t={t}
      heading={t('lottery.winners', { count: 0 })}
      accounts={[]}
      firstRank={1}
      page={1}
      param="winners"
      other={{ name: 'waitlist', value: undefined }}
      testId="verify-winners"
    />,
  );
  expect(screen.getByRole('heading')).toHaveTextContent('中签者（0）');
  expect(screen.getByText('无。')).toBeVisible();
  expect(screen.queryByRole('navigation')).toBeNull();
});
