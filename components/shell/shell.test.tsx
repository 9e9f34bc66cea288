/** @jest-environment jsdom */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Shell } from './shell';
import { RouterLink } from './router-link';
import { openWxTip } from './wx-tip-open';
import { showToast } from '@/components/ui/toast';

// The shell's one client module (issue 34): router links, the toasts' host loaded with the first toast, the WeChat tip
// inside WeChat only and when asked for (issue 36).

const router = { push: jest.fn(), prefetch: jest.fn() };
const shown = { pathname: '/goods/detail/1' };
jest.mock('next/navigation', () => ({
  usePathname: () => shown.pathname,
  useSearchParams: () => new URLSearchParams(''),
  useRouter: () => router,
}));
// The tracker sends nothing here.
jest.mock('./page-tracker', () => ({ PageTracker: () => null }));

const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47';

/** Renders the shell and lets what it loads after hydration (the tracker, inside WeChat the tip) load. */
async function renderShell(children?: React.ReactNode) {
  await act(async () => {
    render(
      <>
        {children}
        <Shell
          tracking={{ trackingUrl: '/api/track', channelKey: 'AURORA', projectVersion: '1.0.0' }}
          tip={{ title: 'Open in your browser', body: 'Tap ··· to buy and pay.', dismiss: 'Got it' }}
          loadingLabel="Loading…"
          notificationsLabel="Notifications"
        />
      </>,
    );
    await new Promise((r) => setTimeout(r, 20));
  });
}

function setUserAgent(ua: string) {
  Object.defineProperty(window.navigator, 'userAgent', { value: ua, configurable: true });
}

beforeAll(() => {
  // jsdom has no performance.mark; the hydrated marker sets one.
  if (typeof performance.mark !== 'function') Object.defineProperty(performance, 'mark', { value: jest.fn(), configurable: true });
});

beforeEach(() => {
  router.push.mockReset();
  router.prefetch.mockReset();
  sessionStorage.clear();
  setUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36');
});

test('a tap on a router link goes through the router, and the page is marked hydrated', async () => {
  await renderShell(<RouterLink href="/pay/1">Buy now</RouterLink>);
  expect(document.documentElement.dataset.hydrated).toBe('1');
  const link = screen.getByRole('link', { name: 'Buy now' });
  fireEvent.pointerDown(link);
  expect(router.prefetch).toHaveBeenCalledWith('/pay/1');
  const click = fireEvent.click(link);
  expect(click).toBe(false); // the browser's own navigation was prevented
  expect(router.push).toHaveBeenCalledWith('/pay/1');
});

test('a tap meant for a new tab, or on a plain link, is left to the browser', async () => {
  await renderShell(
    <>
      <RouterLink href="/pay/1">Buy now</RouterLink>
      {/* A plain link on purpose: the router links are marked, the rest are left to the browser. */}
      {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
      <a href="/share/goods/1">Share</a>
    </>,
  );
  // What the browser would do with the taps left to it: nothing here (jsdom does not navigate).
  window.addEventListener('click', (event) => event.preventDefault(), { once: false });
  fireEvent.click(screen.getByRole('link', { name: 'Buy now' }), { ctrlKey: true });
  fireEvent.click(screen.getByRole('link', { name: 'Share' }));
  expect(router.push).not.toHaveBeenCalled();
});

test('the toasts appear with the first toast, the host loaded only then', async () => {
  await renderShell();
  expect(screen.queryByText('Saved')).toBeNull();
  await act(async () => {
    showToast('success', 'Saved');
  });
  expect(await screen.findByText('Saved')).toBeTruthy();
});

test('outside WeChat no tip, even when asked for', async () => {
  await renderShell();
  await act(async () => {
    openWxTip('WeChat does not open other apps.');
  });
  expect(screen.queryByTestId('wx-tip')).toBeNull();
});

test('inside WeChat the goods page shows no covering tip; a tap on what WeChat blocks shows it, with its words', async () => {
  setUserAgent(WECHAT_UA);
  await renderShell();
  expect(screen.queryByTestId('wx-tip')).toBeNull();
  await act(async () => {
    openWxTip('WeChat does not open other apps.');
  });
  const tip = await screen.findByRole('dialog', { name: 'Open in your browser' });
  expect(tip.textContent).toContain('WeChat does not open other apps.');
  fireEvent.click(screen.getByRole('button', { name: 'Got it' }));
  expect(screen.queryByTestId('wx-tip')).toBeNull();
});
