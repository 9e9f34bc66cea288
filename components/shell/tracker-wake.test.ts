/** @jest-environment jsdom */
import { noteEarlyVisit, savePendingVisits, takeEarlyVisits, wakeWhenQuiet, type EarlyVisits } from './tracker-wake';
import { takePendingVisits } from './pending-visits';

// When the page-view tracker is loaded (issue 34): after the page has loaded and been quiet, or at once when it is
// hidden or left; the pages seen until then are kept for it.

beforeEach(() => {
  jest.useFakeTimers();
  sessionStorage.clear();
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
});
afterEach(() => jest.useRealTimers());

const fresh = (): EarlyVisits => ({ visits: [], taken: false });

test('the tracker is woken a quiet second after the load event, not before', () => {
  const wake = jest.fn();
  wakeWhenQuiet(wake, jest.fn(), 1000); // jsdom's document has loaded already
  jest.advanceTimersByTime(999);
  expect(wake).not.toHaveBeenCalled();
  jest.advanceTimersByTime(1);
  expect(wake).toHaveBeenCalledTimes(1);
  // Once only, whatever happens next.
  document.dispatchEvent(new Event('visibilitychange'));
  window.dispatchEvent(new Event('pagehide'));
  expect(wake).toHaveBeenCalledTimes(1);
});

test('a page hidden before it is quiet wakes the tracker at once; a page left hands over what was seen first', () => {
  const wake = jest.fn();
  const leave = jest.fn();
  const stop = wakeWhenQuiet(wake, leave, 1000);
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
  expect(wake).toHaveBeenCalledTimes(1);
  expect(leave).not.toHaveBeenCalled();
  stop();

  const order: string[] = [];
  wakeWhenQuiet(
    () => order.push('wake'),
    () => order.push('leave'),
    1000,
  );
  window.dispatchEvent(new Event('pagehide'));
  expect(order).toEqual(['leave', 'wake']);
  jest.advanceTimersByTime(5000); // the quiet timer no longer runs
  expect(order).toEqual(['leave', 'wake']);
});

test('the pages seen are noted once each, in order, and given once: to the tracker or to the tab for the next one', () => {
  const early = fresh();
  noteEarlyVisit('/', 100, early);
  noteEarlyVisit('/', 150, early); // the same page again (a re-render): not a new visit
  noteEarlyVisit('/goods/detail/1', 200, early);
  expect(early.visits).toEqual([
    { url: '/', enteredAt: 100 },
    { url: '/goods/detail/1', enteredAt: 200 },
  ]);

  savePendingVisits(900, early);
  expect(early.taken).toBe(true);
  noteEarlyVisit('/mine', 1000, early); // after it was given away: not noted
  expect(takeEarlyVisits(early)).toBeNull();
  savePendingVisits(950, early); // given already: not saved twice
  expect(takePendingVisits(sessionStorage)).toEqual([{ visits: early.visits, referrer: '', leftAt: 900 }]);
  expect(sessionStorage).toHaveLength(0);

  const other = fresh();
  noteEarlyVisit('/calendar', 5, other);
  expect(takeEarlyVisits(other)).toEqual([{ url: '/calendar', enteredAt: 5 }]);
  expect(takeEarlyVisits(other)).toBeNull();
});

test('the documents left are recorded in the order they were left, the last ten at most, and storage is emptied of them', () => {
  sessionStorage.setItem('art-device-id', 'kept');
  for (const i of [3, 0, 13, 7, 1, 2, 4, 5, 6, 8, 9, 10, 11, 12]) {
    const early = fresh();
    noteEarlyVisit(`/notices/${i}`, i, early);
    savePendingVisits(i + 1, early);
  }
  const kept = takePendingVisits(sessionStorage);
  expect(kept.map((p) => p.visits[0]!.url)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map((i) => `/notices/${i}`));
  expect(takePendingVisits(sessionStorage)).toEqual([]);
  expect(sessionStorage.getItem('art-device-id')).toBe('kept');
});

test('what the storage holds under that name that is not pages seen is dropped', () => {
  sessionStorage.setItem('art-pending-visits:1', JSON.stringify({ visits: [{ url: 42 }], referrer: '', leftAt: 1 }));
  sessionStorage.setItem('art-pending-visits:2', '{not json');
  sessionStorage.setItem('art-pending-visits:3', JSON.stringify({ visits: [], referrer: '', leftAt: 3 }));
  sessionStorage.setItem('art-pending-visits:4', JSON.stringify({ visits: [{ url: '/', enteredAt: 1 }], referrer: '', leftAt: 4 }));
  expect(takePendingVisits(sessionStorage)).toEqual([{ visits: [{ url: '/', enteredAt: 1 }], referrer: '', leftAt: 4 }]);
  expect(sessionStorage).toHaveLength(0);
});
