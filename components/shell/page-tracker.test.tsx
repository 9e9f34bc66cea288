/** @jest-environment jsdom */
import { act, render } from '@testing-library/react';
import { PageTracker } from './page-tracker';
import { PENDING_VISITS_KEY, type EarlyVisits } from './tracker-wake';

// The tracker comes once the page is quiet (issue 34; ./tracker-wake.ts): what the buyer saw before it came is recorded
// when it comes, with the times the pages were entered, and so are the pages of a document left before its tracker came.

const shown = { pathname: '/goods/detail/1' };
jest.mock('next/navigation', () => ({ usePathname: () => shown.pathname }));

type Sent = {
  event_type: string;
  page_id: string;
  page_url: string;
  refer_id: string;
  refer_url: string;
  duration: number | null;
  up_time: number;
};
const beacons: Sent[][] = [];

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
}

async function mountTracker(early: EarlyVisits) {
  await act(async () => {
    render(<PageTracker trackingUrl="/api/log/track" channelKey="AURORA" projectVersion="1.0.0" early={early} />);
  });
}

/** Hides the page (switching apps): the tracker hands everything queued to sendBeacon. */
function hide(): Sent[] {
  setVisibility('hidden');
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
  return beacons.flat();
}

beforeEach(() => {
  beacons.length = 0;
  sessionStorage.clear();
  setVisibility('visible');
  shown.pathname = '/goods/detail/1';
  Object.defineProperty(window.navigator, 'userAgent', {
    value: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
    configurable: true,
  });
  Object.defineProperty(window.navigator, 'sendBeacon', {
    value: (_url: string, body: string) => {
      beacons.push((JSON.parse(body) as { records: Sent[] }).records);
      return true;
    },
    configurable: true,
  });
});

test('the pages seen before the tracker came are recorded with the times they were entered, each after the one before', async () => {
  const now = Date.now();
  Object.defineProperty(document, 'referrer', { value: 'https://chat.example/share', configurable: true });
  const early: EarlyVisits = {
    visits: [
      { url: '/', enteredAt: now - 9_000 },
      { url: '/goods/detail/1', enteredAt: now - 4_000 },
    ],
    taken: false,
  };
  await mountTracker(early);
  expect(early.taken).toBe(true);
  const sent = hide();
  expect(sent.map((r) => [r.event_type, r.page_id, r.refer_id, r.refer_url])).toEqual([
    ['page_view', 'home', '', 'https://chat.example/share'],
    ['page_view', 'goodsDetail', 'home', '/'],
    ['page_leave', 'goodsDetail', '', ''],
  ]);
  expect(sent[0]!.up_time).toBe(now - 9_000);
  // Home was seen for the 5 s before the goods page; the goods page for the 4 s until hidden.
  expect(sent[1]!.duration).toBe(5);
  expect(sent[2]!.duration).toBe(4);
});

test('a document left before its tracker came is recorded by the next one in the tab: its views, then its leave', async () => {
  const now = Date.now();
  sessionStorage.setItem(
    `${PENDING_VISITS_KEY}:${now - 14_000}`,
    JSON.stringify({ visits: [{ url: '/?from=share', enteredAt: now - 20_000 }], referrer: 'https://chat.example/', leftAt: now - 14_000 }),
  );
  await mountTracker({ visits: [{ url: '/goods/detail/1', enteredAt: now - 2_000 }], taken: false });
  expect(sessionStorage.getItem(`${PENDING_VISITS_KEY}:${now - 14_000}`)).toBeNull();
  const sent = hide();
  expect(sent.map((r) => [r.event_type, r.page_id, r.page_url, r.duration])).toEqual([
    ['page_view', 'home', '/?from=share', null],
    ['page_leave', 'home', '/?from=share', 6],
    ['page_view', 'goodsDetail', '/goods/detail/1', null],
    ['page_leave', 'goodsDetail', '/goods/detail/1', 2],
  ]);
  expect(sent[1]!.up_time).toBe(now - 14_000);
});

test('loaded while the page is hidden, it records the leave at once and hands it to sendBeacon', async () => {
  setVisibility('hidden');
  await mountTracker({ visits: [{ url: '/goods/detail/1', enteredAt: Date.now() - 3_000 }], taken: false });
  expect(beacons.flat().map((r) => [r.event_type, r.page_id, r.duration])).toEqual([
    ['page_view', 'goodsDetail', null],
    ['page_leave', 'goodsDetail', 3],
  ]);
});

test('what the storage holds that is not pages seen is left out, and the page shown is still recorded', async () => {
  sessionStorage.setItem(`${PENDING_VISITS_KEY}:1`, JSON.stringify({ visits: [{ url: 42 }], referrer: '', leftAt: 1 }));
  sessionStorage.setItem(`${PENDING_VISITS_KEY}:2`, 'null');
  await mountTracker({ visits: [], taken: true });
  expect(hide().map((r) => [r.event_type, r.page_id])).toEqual([
    ['page_view', 'goodsDetail'],
    ['page_leave', 'goodsDetail'],
  ]);
});
