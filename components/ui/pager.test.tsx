/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { RecordPager } from './pager';

describe('RecordPager', () => {
  it('links to the newer and the older page of the list', () => {
    render(<RecordPager path="/mine/records" page={2} pages={3} newer="Back" older="More" look="link" />);
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/mine/records?page=1');
    expect(screen.getByRole('link', { name: 'More' })).toHaveAttribute('href', '/mine/records?page=3');
  });

  it('offers no newer page on the first and no older one on the last', () => {
    const { rerender } = render(<RecordPager path="/mine/chain" page={1} pages={2} newer="Back" older="More" />);
    expect(screen.queryByRole('link', { name: 'Back' })).not.toBeInTheDocument();
    rerender(<RecordPager path="/mine/chain" page={2} pages={2} newer="Back" older="More" />);
    expect(screen.queryByRole('link', { name: 'More' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back' })).toBeInTheDocument();
  });

  it('shows nothing for a list of one page', () => {
    const { container } = render(<RecordPager path="/mine/receive" page={1} pages={1} newer="Back" older="More" />);
    expect(container).toBeEmptyDOMElement();
  });
});
