/** @jest-environment jsdom */
import { render, screen, waitFor } from '@testing-library/react';
import { LazyImageViewer } from './lazy-image-viewer';

// The image viewer (and its gesture library) is loaded when a photo is first opened, not with the page.

let mockViewerLoads = 0;
let mockOffline = false;
jest.mock('./image-viewer', () => {
  if (mockOffline) throw new Error('Loading chunk failed');
  mockViewerLoads++;
  return jest.requireActual('./image-viewer');
});

const images = [
  { src: '/goods/a.svg', alt: 'A' },
  { src: '/goods/b.svg', alt: 'B' },
];

it('a viewer that cannot be loaded (offline) closes again, so the next tap tries again', async () => {
  mockOffline = true;
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  const onClose = jest.fn();
  render(<LazyImageViewer images={images} open onClose={onClose} label="Image viewer" />);
  await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  warn.mockRestore();
  mockOffline = false;
});

it('loads nothing while closed, and the viewer when opened', async () => {
  const { rerender } = render(<LazyImageViewer images={images} open={false} onClose={() => {}} label="Image viewer" />);
  await new Promise((r) => setTimeout(r, 20));
  expect(mockViewerLoads).toBe(0);
  rerender(<LazyImageViewer images={images} startIndex={1} open onClose={() => {}} label="Image viewer" />);
  const viewer = await screen.findByRole('dialog', { name: 'Image viewer' });
  expect(viewer).toHaveTextContent('2 / 2');
  expect(mockViewerLoads).toBe(1);
});
