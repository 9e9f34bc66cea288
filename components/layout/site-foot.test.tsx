/** @jest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { complianceLines } from '@/lib/channel/compliance';
import { translator } from '@/lib/i18n/translator';
import { SiteFoot } from './site-foot';

// issue 31: the compliance footer at the foot of every store page when set, the ICP number linking to the MIIT filing
// site and the public security number to the MPS filing search for its digits; nothing when unset.

const FILED = {
  icpFiling: '京ICP备12345678号-1',
  publicSecurityFiling: '京公网安备11010502030143号',
  blockchainFiling: '京网信备11010519512345678901号',
};

describe('the foot of a store page', () => {
  it('links the ICP number to the MIIT site, the public security number to its MPS search, and prints the blockchain number', () => {
    render(<SiteFoot lines={complianceLines(FILED)} service={{}} t={translator('zh-CN')} />);
    const foot = screen.getByRole('contentinfo', { name: '网站信息' });
    expect(within(foot).getByRole('link', { name: '京ICP备12345678号-1' }).getAttribute('href')).toBe('https://beian.miit.gov.cn/');
    expect(within(foot).getByRole('link', { name: '京公网安备11010502030143号' }).getAttribute('href')).toBe(
      'https://beian.mps.gov.cn/#/query/webSearch?code=11010502030143',
    );
    expect(within(foot).getByText('京网信备11010519512345678901号').closest('a')).toBeNull();
    expect(within(foot).queryByTestId('customer-service')).toBeNull();
  });

  it('shows only the numbers that are set, with the customer-service contact', () => {
    render(
      <SiteFoot
        lines={complianceLines({ icpFiling: '沪ICP备87654321号', publicSecurityFiling: null, blockchainFiling: null })}
        service={{ phone: '400-123-4567', hours: '9:00–21:00' }}
        t={translator('en')}
      />,
    );
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['沪ICP备87654321号']);
    expect(screen.getByTestId('customer-service').textContent).toBe('Customer service: 400-123-4567 · 9:00–21:00');
    expect(screen.getByRole('link', { name: '400-123-4567' }).getAttribute('href')).toBe('tel:4001234567');
  });

  it('is not there at all when the channel has neither numbers nor a contact', () => {
    const { container } = render(
      <SiteFoot
        lines={complianceLines({ icpFiling: null, publicSecurityFiling: null, blockchainFiling: null })}
        service={{}}
        t={translator('en')}
      />,
    );
    expect(container.innerHTML).toBe('');
  });
});
