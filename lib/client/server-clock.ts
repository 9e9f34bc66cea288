/**
 * The server's time as this browser estimates it, and one shared ticker for everything that counts down to it.
 *
 * A drop opens by the server's clock (the buy is checked there), and a phone's clock may be off by seconds or
 * minutes: read by itself it would show the buy button late, and the drop is gone. So the first countdown on a page
 * asks the server for its time once (`/api/time`) and keeps the difference, taken at the middle of the round trip.
 * Until that answer comes (or when it fails) the phone's clock stands in. The page's HTML cannot carry the time: a
 * shared page is served from the rendered-page cache (docs/caching.md).
 */
export const SERVER_TIME_URL = '/api/time';
/** Ticks per second: a countdown flips within a quarter second of its opening, whatever fraction of a second that is. */
export const TICK_MS = 250;
/** An answer that took longer than this says too little about when the server read its clock. */
const MAX_ROUND_TRIP_MS = 5000;

let offsetMs = 0;
let syncing: Promise<void> | null = null;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | null = null;
/** The server's time at the ticker's last tick (or its start): what `tickedServerNow` answers between ticks. */
let tickedAt = Date.now();

/** Milliseconds since the epoch on the server's clock, as estimated here. */
export function serverNow(): number {
  return Date.now() + offsetMs;
}

/**
 * The server's time as of the ticker's last tick: the same number on every read between two ticks, which is what
 * `useSyncExternalStore` needs of its snapshot (`serverNow` changes every millisecond, and a snapshot that changes
 * between two reads of one render makes React render again without end: error #185 on a loaded phone).
 */
export function tickedServerNow(): number {
  return tickedAt;
}

/** Asks the server for its time, once per page load; later calls share the first one's answer. */
export function syncServerClock(fetchTime: typeof fetch = fetch): Promise<void> {
  syncing ??= (async () => {
    try {
      const sent = Date.now();
      const response = await fetchTime(SERVER_TIME_URL, { cache: 'no-store' });
      const received = Date.now();
      const body: unknown = await response.json();
      const now = (body as { now?: unknown } | null)?.now;
      if (response.ok && typeof now === 'number' && received - sent <= MAX_ROUND_TRIP_MS) {
        offsetMs = now - (sent + received) / 2;
        notify();
      }
    } catch {
      // Offline or refused: the phone's clock it is.
    }
  })();
  return syncing;
}

function notify() {
  for (const listener of [...listeners]) listener();
}

function tick() {
  timer = null;
  tickedAt = serverNow();
  notify();
  if (listeners.size > 0) timer = setTimeout(tick, TICK_MS);
}

/** Calls `listener` every TICK_MS while subscribed (useSyncExternalStore's subscribe); the first call syncs the clock. */
export function subscribeClock(listener: () => void): () => void {
  if (listeners.size === 0) tickedAt = serverNow();
  listeners.add(listener);
  timer ??= setTimeout(tick, TICK_MS);
  void syncServerClock();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
  };
}

/** For tests: forget the offset and the sync. */
export function resetServerClock() {
  offsetMs = 0;
  syncing = null;
  tickedAt = Date.now();
}
