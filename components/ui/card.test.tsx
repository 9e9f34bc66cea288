/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { Card } from './card';
import { EmptyState } from './empty-state';

describe('Card', () => {
  it('is a div with the card surface, the caller’s classes and attributes', () => {
    render(
      <Card className="p-4" data-testid="panel" aria-label="Odds">
        x
      </Card>,
    );
    const card = screen.getByTestId('panel');
    expect(card.tagName).toBe('DIV');
    expect(card.className.split(' ')).toEqual(expect.arrayContaining(['rounded-xl', 'bg-skin-card', 'shadow-card', 'p-4']));
    expect(card).toHaveAttribute('aria-label', 'Odds');
  });

  it('renders as the element it is asked to be', () => {
    render(
      <ul>
        <Card as="li" data-testid="row">
          x
        </Card>
      </ul>,
    );
    expect(screen.getByTestId('row').tagName).toBe('LI');
  });
});

describe('EmptyState', () => {
  it('shows a picture of what would be there, the line saying there is none, and the way to get some', () => {
    render(
      <EmptyState art="orders" action={{ href: '/', label: 'Browse sales' }} data-testid="orders-empty">
        No orders yet
      </EmptyState>,
    );
    const empty = screen.getByTestId('orders-empty');
    expect(empty).toHaveTextContent('No orders yet');
    expect(empty.querySelector('svg[data-art="orders"]')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByRole('link', { name: 'Browse sales' })).toHaveAttribute('href', '/');
  });

  it('offers no link where there is nowhere to go', () => {
    render(
      <EmptyState art="gift" data-testid="gifts-empty">
        No gifts right now
      </EmptyState>,
    );
    expect(screen.getByTestId('gifts-empty')).toHaveTextContent('No gifts right now');
    expect(screen.queryByRole('link')).toBeNull();
  });
});
