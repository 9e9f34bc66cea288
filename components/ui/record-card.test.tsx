/** @jest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { CardList } from './card-list';
import { RecordCard } from './record-card';

const records = [
  { id: '1', commodity: { cover: '/goods/star-fox.svg', name: 'Star Fox' } },
  { id: '2', commodity: { cover: '/goods/tide-whale.svg', name: 'Tide Whale' } },
];

function Orders({ items }: { items: typeof records }) {
  return (
    <CardList
      items={items}
      empty={{ art: 'orders', text: 'No orders yet', action: { href: '/', label: 'Browse' }, 'data-testid': 'orders-empty' }}
      data-testid="orders"
    >
      {(r) => (
        <RecordCard
          key={r.id}
          collectible={r.commodity}
          placeholderColor="#eeeeee"
          href={`/goods/detail/${r.id}`}
          data-testid="order"
          data-order-no={r.id}
          header={<p>Order {r.id}</p>}
          footer={<button type="button">Pay</button>}
        >
          <p>{r.commodity.name}</p>
        </RecordCard>
      )}
    </CardList>
  );
}

describe('CardList and RecordCard (issue 30: one list, one record card)', () => {
  it('lists one card per record, the card carrying its data attributes, the row a link to what it is about', () => {
    render(<Orders items={records} />);
    const cards = within(screen.getByTestId('orders')).getAllByTestId('order');
    expect(cards.map((card) => card.tagName)).toEqual(['LI', 'LI']);
    expect(cards[1]).toHaveAttribute('data-order-no', '2');
    const row = within(cards[0]!).getByRole('link');
    expect(row).toHaveAttribute('href', '/goods/detail/1');
    expect(row).toHaveTextContent('Star Fox');
    // The header and the footer sit outside the link: a tap on Pay is not a tap on the row.
    expect(within(row).queryByRole('button')).not.toBeInTheDocument();
    expect(within(cards[0]!).getByRole('button', { name: 'Pay' })).toBeInTheDocument();
  });

  it('says so, with the way on, when there is nothing to list', () => {
    render(<Orders items={[]} />);
    expect(screen.queryByTestId('orders')).not.toBeInTheDocument();
    expect(screen.getByTestId('orders-empty')).toHaveTextContent('No orders yet');
    expect(screen.getByRole('link', { name: 'Browse' })).toHaveAttribute('href', '/');
  });
});
