/** @jest-environment jsdom */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { startTransition, Suspense, use, useState } from 'react';
import { onRouterTransitionStart } from '@/instrumentation-client';
import { NavigationProgress } from './navigation-progress';

// The bar between pages (issue 17, item 5; issue 30): the router reports every navigation it starts through Next's
// client instrumentation (instrumentation-client.ts), and the bar runs until the page shown is at another address.

const shown = { pathname: '/', search: '' };
jest.mock('next/navigation', () => ({
  usePathname: () => shown.pathname,
  useSearchParams: () => new URLSearchParams(shown.search),
}));

const bar = () => screen.queryByRole('progressbar', { name: 'Loading…' });

/** The router starting a navigation to `url`, as Next reports it, and the microtask the bar waits for. */
async function routerStarts(url: string): Promise<void> {
  await act(async () => {
    onRouterTransitionStart(url);
    await Promise.resolve();
  });
}

function Store() {
  return <NavigationProgress label="Loading…" />;
}

/** The router's side of a navigation: the next page is shown at its address. */
function arrive(rerender: (ui: React.ReactElement) => void, pathname: string, search = ''): void {
  shown.pathname = pathname;
  shown.search = search;
  act(() => rerender(<Store />));
}

beforeEach(() => {
  shown.pathname = '/';
  shown.search = '';
});

describe('NavigationProgress', () => {
  it('runs from the start of a navigation made in code (router.push) until the next page is shown', async () => {
    const { rerender } = render(<Store />);
    expect(bar()).toBeNull();
    await routerStarts('/goods/detail/7');
    expect(bar()).toBeInTheDocument();
    arrive(rerender, '/goods/detail/7');
    expect(bar()).toBeNull();
  });

  it('runs for a link that changes only the query, the next page of a list', async () => {
    const { rerender } = render(<Store />);
    await routerStarts('/?page=2');
    expect(bar()).toBeInTheDocument();
    arrive(rerender, '/', 'page=2');
    expect(bar()).toBeNull();
  });

  it('ends where the navigation was sent on (a redirect to another page)', async () => {
    shown.pathname = '/mine';
    const { rerender } = render(<Store />);
    await routerStarts('/mine/collection');
    arrive(rerender, '/login', 'redirect=%2Fmine%2Fcollection');
    expect(bar()).toBeNull();
  });

  it('starts nothing for the address already shown, a fragment of it, or another site', async () => {
    shown.search = 'page=2';
    render(<Store />);
    await routerStarts('/?page=2');
    await routerStarts('/?page=2#sale-list');
    await routerStarts('https://pay.example/checkout');
    expect(bar()).toBeNull();
  });

  it('shows while the router holds the next page back in its transition', async () => {
    // The router starts a navigation inside a React transition that does not end until the next page has arrived.
    const never = new Promise<never>(() => {});
    function NextPage({ waiting }: { waiting: boolean }) {
      if (waiting) use(never);
      return null;
    }
    function Router() {
      const [waiting, setWaiting] = useState(false);
      const tap = () =>
        startTransition(() => {
          onRouterTransitionStart('/goods/detail/7');
          setWaiting(true);
        });
      return (
        <>
          <button onClick={tap}>Star Fox</button>
          <Suspense fallback={null}>
            <NextPage waiting={waiting} />
          </Suspense>
        </>
      );
    }
    render(
      <>
        <Store />
        <Router />
      </>,
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Star Fox' }));
      await Promise.resolve();
    });
    expect(bar()).toBeInTheDocument();
  });
});
