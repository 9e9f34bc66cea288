/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { CollectibleArt } from './collectible-art';

const fox = { cover: '/goods/star-fox.svg', name: 'Star Fox' };

describe('CollectibleArt (issue 30: one art tile)', () => {
  it('beside its name it is decoration; standing for the collectible it says the name', () => {
    const { container, rerender } = render(<CollectibleArt collectible={fox} width="1.2rem" placeholderColor="#eeeeee" />);
    expect(container.querySelector('img')).toHaveAttribute('alt', '');
    rerender(<CollectibleArt collectible={fox} named width="full" sizes="50vw" placeholderColor="#eeeeee" />);
    expect(screen.getByRole('img', { name: 'Star Fox' })).toBeInTheDocument();
  });

  it('a tile asks the browser for a picture of the width it is drawn at, square and cropped', () => {
    // A photo (SVG art is served as it is, without sizes to choose from).
    const photo = { cover: '/media/star-fox.png', name: 'Star Fox' };
    const { container } = render(<CollectibleArt collectible={photo} width="1.6rem" placeholderColor="#eeeeee" />);
    const img = container.querySelector('img')!;
    expect(img).toHaveAttribute('sizes', '1.6rem');
    expect(img.className.split(' ')).toEqual(expect.arrayContaining(['size-[1.6rem]', 'shrink-0', 'object-cover']));
    expect(img).toHaveAttribute('width', '600');
    expect(img).toHaveAttribute('height', '600');
  });

  it('shows another of its pictures when asked (the gallery), named after the collectible', () => {
    render(<CollectibleArt collectible={fox} picture="/goods/star-fox-2.svg" named width="1.6rem" placeholderColor="#eeeeee" />);
    expect(screen.getByRole('img', { name: 'Star Fox' })).toHaveAttribute('src', '/goods/star-fox-2.svg');
  });
});
