import { resetServerClock, serverNow, subscribeClock, syncServerClock, tickedServerNow, TICK_MS } from './server-clock';

function answering(now: number, roundTripMs: number, ok = true): typeof fetch {
  return (async () => {
    jest.advanceTimersByTime(roundTripMs);
    return { ok, json: async () => ({ now }) } as Response;
  }) as unknown as typeof fetch;
}

describe('the server clock as the browser estimates it', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-12-01T12:00:00Z') });
    resetServerClock();
  });
  afterEach(() => jest.useRealTimers());

  it('takes the server’s time at the middle of the round trip', async () => {
    const phone = Date.now();
    // The phone is 90 s slow; the server read its clock halfway through a 200 ms round trip.
    await syncServerClock(answering(phone + 100 + 90_000, 200));
    expect(serverNow() - Date.now()).toBe(90_000);
  });

  it('answers one time between two ticks (a stable snapshot for useSyncExternalStore), the next at the tick', async () => {
    await syncServerClock(answering(Date.now() + 5000, 0));
    const stop = subscribeClock(() => {});
    const first = tickedServerNow();
    expect(first - Date.now()).toBe(5000);
    // Milliseconds pass between two reads of one render: the snapshot does not move, though the clock does.
    jest.setSystemTime(Date.now() + 7);
    expect(tickedServerNow()).toBe(first);
    expect(serverNow()).toBe(first + 7);
    jest.advanceTimersByTime(TICK_MS);
    expect(tickedServerNow()).toBe(first + 7 + TICK_MS);
    stop();
  });

  it('asks once per page load', async () => {
    const fetchTime = jest.fn(answering(Date.now() + 5000, 0));
    await Promise.all([syncServerClock(fetchTime), syncServerClock(fetchTime)]);
    await syncServerClock(fetchTime);
    expect(fetchTime).toHaveBeenCalledTimes(1);
  });

  it('keeps the phone’s clock when the server cannot be asked or answers too slowly', async () => {
    await syncServerClock((async () => Promise.reject(new TypeError('offline'))) as unknown as typeof fetch);
    expect(serverNow()).toBe(Date.now());
    resetServerClock();
    await syncServerClock(answering(Date.now() + 60_000, 6000));
    expect(serverNow()).toBe(Date.now());
  });

  it('ticks every subscriber while any is subscribed, and stops after the last leaves', async () => {
    await syncServerClock(answering(Date.now(), 0));
    const a = jest.fn();
    const b = jest.fn();
    const offA = subscribeClock(a);
    const offB = subscribeClock(b);
    jest.advanceTimersByTime(TICK_MS * 4);
    expect(a).toHaveBeenCalledTimes(4);
    expect(b).toHaveBeenCalledTimes(4);
    offA();
    jest.advanceTimersByTime(TICK_MS);
    expect(a).toHaveBeenCalledTimes(4);
    expect(b).toHaveBeenCalledTimes(5);
    offB();
    expect(jest.getTimerCount()).toBe(0);
  });
});
