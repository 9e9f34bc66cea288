/** @jest-environment jsdom */
import { render } from '@testing-library/react';
import { Pending, PendingLine } from './pending';

// One shape for what stands in for a part not read yet (issue 34): hidden from screen readers, pulsing only for
// buyers who did not ask for less motion, grey or in the colour given.

test('a line of text not read yet: as high as the line, in it or on its own line, grey, hidden from screen readers', () => {
  const { container, rerender } = render(<PendingLine className="w-24" />);
  const line = container.firstElementChild!;
  expect(line.tagName).toBe('SPAN');
  expect(line).toHaveAttribute('aria-hidden', 'true');
  expect(line.className.split(' ')).toEqual(
    expect.arrayContaining(['inline-block', 'align-middle', 'h-[1em]', 'w-24', 'bg-neutral-200', 'motion-safe:animate-pulse']),
  );
  expect(line.className).not.toMatch(/(^| )animate-pulse/);
  rerender(<PendingLine className="mt-2 w-1/2" block />);
  expect(container.firstElementChild!.className.split(' ')).toEqual(expect.arrayContaining(['block', 'mt-2', 'w-1/2']));
  expect(container.firstElementChild!.className).not.toContain('inline-block');
});

test('a picture not read yet: in the colour given, not grey', () => {
  const { container } = render(<Pending data-testid="disc" className="block size-[2.4rem] rounded-full" color="#ccfbf1" />);
  const disc = container.firstElementChild as HTMLElement;
  expect(disc).toHaveAttribute('data-testid', 'disc');
  expect(disc.style.backgroundColor).toBe('rgb(204, 251, 241)');
  expect(disc.className).not.toContain('bg-neutral-200');
});
