/** @jest-environment jsdom */
import { fireEvent, render, screen } from '@testing-library/react';
import { GoodsGallery, PICTURE_PRESSED } from './goods-gallery';

jest.mock('@/components/ui/lazy-image-viewer', () => ({
  preloadImageViewer: jest.fn(),
  // The viewer itself is tested in components/ui; here: which picture it is opened on.
  LazyImageViewer: ({ open, startIndex, label }: { open: boolean; startIndex: number; label: string }) =>
    open ? (
      <div role="dialog" aria-label={label}>
        picture {startIndex + 1}
      </div>
    ) : null,
}));

const props = {
  collectible: { cover: '/art/aurora-dawn.png', name: 'Aurora Dawn' },
  pictures: ['/art/aurora-dawn-back.png'],
  galleryLabel: 'More pictures',
  openLabel: 'View Aurora Dawn full screen',
  viewerLabel: 'Image viewer',
  closeLabel: 'Close',
  placeholderColor: '#eee',
};

describe('the goods page’s pictures (issue 34)', () => {
  it('are real links to the full pictures, so a tap before the scripts arrive opens the picture', () => {
    render(<GoodsGallery {...props} />);
    expect(screen.getByRole('link', { name: 'View Aurora Dawn full screen' })).toHaveAttribute('href', '/art/aurora-dawn.png');
    expect(screen.getByRole('link', { name: 'View Aurora Dawn full screen (2)' })).toHaveAttribute('href', '/art/aurora-dawn-back.png');
  });

  it('show that they were pressed, with CSS alone', () => {
    render(<GoodsGallery {...props} />);
    for (const link of screen.getAllByRole('link')) expect(link.className.split(' ')).toContain(PICTURE_PRESSED);
    expect(PICTURE_PRESSED).toMatch(/^active:/);
  });

  it('with scripts, a tap opens the viewer on that picture instead of leaving the page', () => {
    render(<GoodsGallery {...props} />);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fireEvent.click(screen.getByRole('link', { name: 'View Aurora Dawn full screen (2)' }))).toBe(false);
    expect(screen.getByRole('dialog', { name: 'Image viewer' })).toHaveTextContent('picture 2');
  });

  it('leaves a tap meant for a new tab to the browser', () => {
    render(<GoodsGallery {...props} />);
    expect(fireEvent.click(screen.getByRole('link', { name: 'View Aurora Dawn full screen' }), { ctrlKey: true })).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
