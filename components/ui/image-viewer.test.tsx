/** @jest-environment jsdom */
import { fireEvent, render, screen } from '@testing-library/react';
import {
  CLOSE_DRAG_RATIO,
  GESTURE_THROTTLE_MS,
  ImageViewer,
  isDoubleTap,
  maxZoom,
  shouldClose,
  swipeDirection,
  throttle,
} from './image-viewer';

const images = [
  { src: '/goods/a.svg', alt: 'A' },
  { src: '/goods/b.svg', alt: 'B' },
  { src: '/goods/c.svg', alt: 'C' },
];

describe('image viewer rules (spec §2)', () => {
  it('changes photo on a horizontal swipe over 40 px', () => {
    expect(swipeDirection(-39, 0)).toBeNull();
    expect(swipeDirection(-40, 0)).toBeNull();
    expect(swipeDirection(-41, 0)).toBe('next');
    expect(swipeDirection(41, 5)).toBe('prev');
    expect(swipeDirection(-60, 90)).toBeNull();
  });

  it('closes on a vertical drag over 14% of the screen height, not when zoomed', () => {
    const h = 1000;
    expect(CLOSE_DRAG_RATIO).toBe(0.14);
    expect(shouldClose(0, 139, h, 1)).toBe(false);
    expect(shouldClose(0, 141, h, 1)).toBe(true);
    expect(shouldClose(0, -141, h, 1)).toBe(true);
    expect(shouldClose(0, 300, h, 2)).toBe(false);
    expect(shouldClose(200, 150, h, 1)).toBe(false);
  });

  it('counts two taps within 300 ms as a double tap', () => {
    expect(isDoubleTap(null, 100)).toBe(false);
    expect(isDoubleTap(1000, 1299)).toBe(true);
    expect(isDoubleTap(1000, 1300)).toBe(true);
    expect(isDoubleTap(1000, 1301)).toBe(false);
  });

  it('zooms up to the larger of 6 and natural/display size', () => {
    expect(maxZoom(600, 300)).toBe(6);
    expect(maxZoom(4000, 300)).toBeCloseTo(13.333, 2);
    expect(maxZoom(0, 300)).toBe(6);
  });

  it('throttles gesture handling to one call per 8 ms', () => {
    let t = 0;
    const calls: number[] = [];
    const fn = throttle(
      (n: number) => calls.push(n),
      GESTURE_THROTTLE_MS,
      () => t,
    );
    fn(1);
    t = 7;
    fn(2);
    t = 8;
    fn(3);
    t = 20;
    fn(4);
    expect(calls).toEqual([1, 3, 4]);
  });
});

describe('ImageViewer', () => {
  it('shows the photo and a counter, changes photo with the arrow keys and stops at the ends', () => {
    render(<ImageViewer images={images} startIndex={1} open onClose={() => {}} />);
    expect(screen.getByTestId('viewer-counter')).toHaveTextContent('2 / 3');
    expect(screen.getByRole('img', { name: 'B' })).toBeInTheDocument();
    fireEvent.keyDown(document, { key: 'ArrowRight' });
    expect(screen.getByTestId('viewer-counter')).toHaveTextContent('3 / 3');
    fireEvent.keyDown(document, { key: 'ArrowRight' });
    expect(screen.getByTestId('viewer-counter')).toHaveTextContent('3 / 3');
    fireEvent.keyDown(document, { key: 'ArrowLeft' });
    expect(screen.getByRole('img', { name: 'B' })).toBeInTheDocument();
  });

  it('closes with the close button and with Escape', () => {
    const onClose = jest.fn();
    render(<ImageViewer images={images} open onClose={onClose} closeLabel="Close" />);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('locks page scrolling while open', () => {
    const { unmount } = render(<ImageViewer images={images} open onClose={() => {}} />);
    expect(document.body.style.overflow).toBe('hidden');
    unmount();
    expect(document.body.style.overflow).toBe('');
  });

  it('renders nothing when closed', () => {
    render(<ImageViewer images={images} open={false} onClose={() => {}} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
