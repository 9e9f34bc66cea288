/** @jest-environment jsdom */
import { act } from 'react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { render } from '@testing-library/react';
import { CollectibleArt } from './collectible-art';

// issue 34: a gallery's thumbnail is asked for once the page's scripts are alive, not while they come over a slow link.

const photo = { cover: '/media/star-fox.png', name: 'Star Fox' };
const thumbnail = (
  <CollectibleArt collectible={photo} picture="/media/star-fox-2.png" named width="1.6rem" placeholderColor="#ccfbf1" afterScripts />
);

test('the page’s HTML has the thumbnail on its placeholder, with no address to fetch; a noscript copy for browsers without scripts', () => {
  const html = renderToString(thumbnail);
  const shown = /<img [^>]*data-late=""[^>]*>/.exec(html)![0];
  expect(shown).toMatch(/src="data:image\/gif;base64,/);
  expect(shown).not.toContain('star-fox-2');
  expect(shown).toContain('noscript:hidden');
  expect(shown).toContain('alt="Star Fox"');
  expect(shown).toContain('background-image'); // the channel's placeholder colour
  expect(html).toMatch(/<noscript><img [^>]*src="\/_next\/image\?url=%2Fmedia%2Fstar-fox-2\.png/);
});

test('once the page is hydrated, the thumbnail asks for its picture', async () => {
  const host = document.createElement('div');
  host.innerHTML = renderToString(thumbnail);
  document.body.append(host);
  const img = host.querySelector('img[data-late]')!;
  expect(img.getAttribute('src')).toMatch(/^data:/);
  const errors: unknown[] = [];
  await act(async () => {
    hydrateRoot(host, thumbnail, { onRecoverableError: (error) => errors.push(error) });
  });
  expect(img.getAttribute('src')).toMatch(/^\/_next\/image\?url=%2Fmedia%2Fstar-fox-2\.png/);
  expect(img.getAttribute('srcset')).toContain('star-fox-2');
  expect(errors).toEqual([]);
  host.remove();
});

test('on a page the app navigates to (scripts alive), the thumbnail has its picture from its first render', () => {
  const { container } = render(thumbnail);
  expect(container.querySelector('img[data-late]')!.getAttribute('src')).toMatch(/^\/_next\/image\?url=%2Fmedia%2Fstar-fox-2\.png/);
});

test('what the page is judged by is never held back', () => {
  const { container } = render(
    <CollectibleArt collectible={photo} named width="full" sizes="100vw" placeholderColor="#ccfbf1" lcp afterScripts />,
  );
  expect(container.querySelector('img[data-late]')).toBeNull();
  expect(container.querySelector('img')!.getAttribute('src')).toContain('star-fox.png');
});
