/** @jest-environment jsdom */
import { renderToStaticMarkup } from 'react-dom/server';
import { PLAIN_LINK_PROGRESS_SCRIPT, PlainLinkProgress } from './plain-link-progress';

// jsdom does not navigate: a plain link's click is the moment the bar must show, whatever happens next.
beforeAll(() => {
  new Function(PLAIN_LINK_PROGRESS_SCRIPT)();
});
beforeEach(() => {
  document.documentElement.removeAttribute('data-navigating');
  document.body.innerHTML = '';
});

function link(href: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = 'go';
  // Keep jsdom from trying (and failing) to navigate: the page's own listener has run by then.
  a.addEventListener('click', (event) => event.preventDefault(), { once: true, capture: false });
  document.body.append(a);
  return a;
}

/** A click the way a buyer makes it, seen by the inline script (which listens on window, after the page's own handlers). */
function tap(a: HTMLElement, init: MouseEventInit = {}): void {
  a.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init }));
}

const navigating = () => document.documentElement.hasAttribute('data-navigating');

describe('the progress bar for plain-link navigations (issue 34)', () => {
  it('renders a bar that shows only while the document is marked navigating, and the script with the page’s nonce', () => {
    // As the server writes it (React warns about a script element rendered in the browser, which this never is).
    const container = document.createElement('div');
    container.innerHTML = renderToStaticMarkup(<PlainLinkProgress label="Loading" nonce="abc" />);
    const bar = container.querySelector('[data-testid="plain-navigation-progress"]')!;
    expect(bar.className.split(' ')).toEqual(expect.arrayContaining(['hidden', 'in-data-navigating:block']));
    expect(container.querySelector('script')!.getAttribute('nonce')).toBe('abc');
  });

  it('a tap on a plain link to another page of the store marks the document navigating', () => {
    const a = document.createElement('a');
    a.href = '/pay/1';
    document.body.append(a);
    const stop = (event: Event) => {
      // Runs after the script (added later on window): jsdom must not try to navigate.
      event.preventDefault();
    };
    window.addEventListener('click', stop);
    tap(a);
    window.removeEventListener('click', stop);
    expect(navigating()).toBe(true);
  });

  it('a tap the router or the viewer took (default prevented), a new-tab tap, or a link elsewhere marks nothing', () => {
    tap(link('/pay/1'));
    expect(navigating()).toBe(false);
    const other = document.createElement('a');
    other.href = 'aurora://open';
    document.body.append(other);
    const stop = (event: Event) => event.preventDefault();
    window.addEventListener('click', stop);
    tap(other);
    const same = document.createElement('a');
    same.href = '/pay/1';
    document.body.append(same);
    tap(same, { ctrlKey: true });
    window.removeEventListener('click', stop);
    expect(navigating()).toBe(false);
  });

  it('coming back from the page cache takes the mark away', () => {
    document.documentElement.setAttribute('data-navigating', '');
    window.dispatchEvent(new Event('pageshow'));
    expect(navigating()).toBe(false);
  });
});
