/** @jest-environment jsdom */
import { fireEvent, render, screen } from '@testing-library/react';
import { Button, BUTTON_SIZES, BUTTON_TYPES, type ButtonSize, type ButtonType } from './button';

describe('Button (spec §2)', () => {
  it.each(BUTTON_TYPES.flatMap((type) => BUTTON_SIZES.map((size) => [type, size] as const)))('renders type %s size %s', (type, size) => {
    render(
      <Button type={type} size={size}>
        Buy
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Buy' });
    expect(button).toHaveAttribute('data-type', type);
    expect(button).toHaveAttribute('data-size', size);
  });

  it('rejects an invalid type or size, saying which values are allowed', () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Button type={'huge' as ButtonType}>x</Button>)).toThrow(
      'Button type "huge" is invalid: must be one of primary, main, info, default',
    );
    expect(() => render(<Button size={'xl' as ButtonSize}>x</Button>)).toThrow('Button size "xl" is invalid: must be one of default, md');
  });

  it('calls onClick when pressed', () => {
    const onClick = jest.fn();
    render(<Button onClick={onClick}>Buy</Button>);
    fireEvent.click(screen.getByRole('button', { name: 'Buy' }));
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('ignores clicks while loading and says it is busy', () => {
    const onClick = jest.fn();
    render(
      <Button type="primary" loading onClick={onClick}>
        Pay
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Pay' });
    fireEvent.click(button);
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByTestId('button-spinner')).toBeInTheDocument();
  });

  it('ignores clicks when disabled', () => {
    const onClick = jest.fn();
    render(
      <Button disabled onClick={onClick}>
        Pay
      </Button>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
    expect(onClick).not.toHaveBeenCalled();
  });

  it('shows its icon before the label', () => {
    render(<Button icon={<svg data-testid="icon" />}>Share</Button>);
    expect(screen.getByTestId('icon')).toBeInTheDocument();
  });

  it('has a press animation', () => {
    render(<Button>Buy</Button>);
    expect(screen.getByRole('button', { name: 'Buy' }).className).toContain('active:scale-95');
  });
});
