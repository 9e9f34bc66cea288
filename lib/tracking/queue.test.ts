import { FLUSH_INTERVAL_MS, TrackingQueue } from './queue';
import type { TrackingRecord } from './schema';

const rec = (n: number): TrackingRecord => ({
  dev_id: 'd',
  session_id: 's',
  proj_id: 5,
  up_time: n,
  event_type: 'page_view',
  page_id: `p${n}`,
  page_url: `/p/${n}`,
});
const ids = (records: TrackingRecord[]) => records.map((r) => r.up_time);

describe('TrackingQueue (spec §9: 10 records or 10 s)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends as soon as 10 records are queued', async () => {
    const sent: number[][] = [];
    const q = new TrackingQueue((records) => (sent.push(ids(records)), true));
    for (let i = 1; i <= 9; i++) q.add(rec(i));
    expect(sent).toEqual([]);
    q.add(rec(10));
    await Promise.resolve();
    expect(sent).toEqual([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]);
    expect(q.size).toBe(0);
  });

  it('sends what it has every 10 s', async () => {
    const sent: number[][] = [];
    const q = new TrackingQueue((records) => (sent.push(ids(records)), true));
    q.start();
    q.add(rec(1));
    q.add(rec(2));
    await jest.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS - 1);
    expect(sent).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([[1, 2]]);
    q.stop();
  });

  it('keeps records of a failed send for the next try, without duplicates', async () => {
    const sent: number[][] = [];
    let up = false;
    const q = new TrackingQueue((records) => {
      sent.push(ids(records));
      return up;
    });
    q.add(rec(1));
    q.add(rec(2));
    await q.flush();
    expect(q.size).toBe(2);
    q.add(rec(3));
    up = true;
    await q.flush();
    expect(sent).toEqual([
      [1, 2],
      [1, 2, 3],
    ]);
    expect(q.size).toBe(0);
  });

  it('does not send the same record twice while a send is in flight', async () => {
    const sent: number[][] = [];
    let release: (ok: boolean) => void = () => {};
    const q = new TrackingQueue((records) => {
      sent.push(ids(records));
      return new Promise<boolean>((resolve) => (release = resolve));
    });
    q.add(rec(1));
    const first = q.flush();
    await q.flush();
    release(true);
    await first;
    expect(sent).toEqual([[1]]);
  });

  it('is bounded: the oldest records go first when the service stays down', async () => {
    const q = new TrackingQueue(() => false, { maxQueued: 5 });
    for (let i = 1; i <= 8; i++) q.add(rec(i));
    expect(q.size).toBe(5);
    const sent: number[][] = [];
    const q2 = new TrackingQueue((records) => (sent.push(ids(records)), true), { maxQueued: 3 });
    for (let i = 1; i <= 5; i++) q2.add(rec(i));
    await q2.flush();
    expect(sent).toEqual([[3, 4, 5]]);
  });

  it('hands everything to the beacon on page hide, and keeps it if the beacon refuses', () => {
    const beacons: number[][] = [];
    let accept = false;
    const q = new TrackingQueue((records, mode) => {
      if (mode === 'beacon') beacons.push(ids(records));
      return accept;
    });
    q.add(rec(1));
    q.add(rec(2));
    q.flushOnHide();
    expect(q.size).toBe(2);
    accept = true;
    q.flushOnHide();
    expect(beacons).toEqual([
      [1, 2],
      [1, 2],
    ]);
    expect(q.size).toBe(0);
  });
});
