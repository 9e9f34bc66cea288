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
  it('is a muted, centred line on a card', () => {
    render(<EmptyState data-testid="orders-empty">No orders yet</EmptyState>);
    const empty = screen.getByTestId('orders-empty');
    expect(empty.tagName).toBe('P');
    expect(empty).toHaveTextContent('No orders yet');
    expect(empty.className.split(' ')).toEqual(expect.arrayContaining(['bg-skin-card', 'p-6', 'text-center', 'text-neutral-500']));
  });
});
