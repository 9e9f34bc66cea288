import { RETRY_AFTER_ERROR_MS, TagClock, TaggedCache } from './tagged-cache';

// The cache behind the pages every visitor sees alike (docs/caching.md).

function setup() {
  let now = 1_000;
  const clock = new TagClock();
  const cache = new TaggedCache<string>(clock, { maxEntries: 10, now: () => now });
  let loads = 0;
  const load = (value: string) => async () => {
    loads++;
    return value;
  };
  return { clock, cache, load, advance: (ms: number) => (now += ms), loads: () => loads };
}

const fresh = { tags: ['sale:1'], ttlMs: 750 };

describe('TaggedCache', () => {
  it('answers a second read from memory while fresh, and reads again once the time to live is over', async () => {
    const { cache, load, advance, loads } = setup();
    expect(await cache.read('k', fresh, load('a'))).toBe('a');
    expect(await cache.read('k', fresh, load('b'))).toBe('a');
    expect(loads()).toBe(1);
    advance(750);
    expect(await cache.read('k', fresh, load('b'))).toBe('b');
  });

  it('drops an entry at once when one of its tags is invalidated, and only those entries', async () => {
    const { clock, cache, load } = setup();
    await cache.read('sale', { tags: ['sale:1', 'channel:A'], ttlMs: 60_000 }, load('old sale'));
    await cache.read('other', { tags: ['sale:2'], ttlMs: 60_000 }, load('other'));
    clock.invalidate(['sale:1']);
    expect(await cache.read('sale', { tags: ['sale:1', 'channel:A'], ttlMs: 60_000 }, load('new sale'))).toBe('new sale');
    expect(await cache.read('other', { tags: ['sale:2'], ttlMs: 60_000 }, load('changed'))).toBe('other');
  });

  it('never keeps a value read before a write that ended after it', async () => {
    const { clock, cache } = setup();
    let finish!: (value: string) => void;
    const slow = cache.read('k', fresh, () => new Promise<string>((resolve) => (finish = resolve)));
    clock.invalidate(['sale:1']); // the write commits while the read is under way
    finish('read before the write');
    expect(await slow).toBe('read before the write');
    expect(await cache.read('k', fresh, async () => 'after the write')).toBe('after the write');
  });

  it('shares one read between concurrent misses', async () => {
    const { cache, load, loads } = setup();
    const values = await Promise.all(Array.from({ length: 20 }, () => cache.read('k', fresh, load('a'))));
    expect(values).toEqual(Array(20).fill('a'));
    expect(loads()).toBe(1);
  });

  it('serves a stale value during its grace while one read refreshes it, but never after an invalidation', async () => {
    const { clock, cache, load, advance, loads } = setup();
    const graceful = { ...fresh, staleMs: 250 };
    await cache.read('k', graceful, load('v1'));
    advance(800);
    expect(await cache.read('k', graceful, load('v2'))).toBe('v1');
    await Promise.resolve();
    expect(await cache.read('k', graceful, load('v3'))).toBe('v2');
    expect(loads()).toBe(2);
    clock.invalidate(['sale:1']);
    advance(800);
    expect(await cache.read('k', graceful, load('v4'))).toBe('v4');
  });

  it('clear drops every entry, whatever its tags', async () => {
    const { clock, cache, load } = setup();
    await cache.read('k', { tags: [], ttlMs: 60_000 }, load('before'));
    clock.clear();
    expect(await cache.read('k', { tags: [], ttlMs: 60_000 }, load('after'))).toBe('after');
  });

  it('does not keep an undefined answer', async () => {
    const { cache, load, loads } = setup();
    await cache.read('k', fresh, async () => undefined);
    expect(await cache.read('k', fresh, load('found'))).toBe('found');
    expect(loads()).toBe(1);
  });
});

describe('TaggedCache, the last value while the next is on its way (issue 34: pages in a drop)', () => {
  const page = { tags: ['sale:1'], ttlMs: 60_000, staleMs: 60_000, behind: true };
  /** A load that ends when the test says, counting its starts. */
  function pending() {
    let starts = 0;
    const finishers: ((value: string) => void)[] = [];
    const load = () => {
      starts++;
      return new Promise<string>((resolve) => finishers.push(resolve));
    };
    return { load, finish: (i: number, value: string) => finishers[i]!(value), starts: () => starts };
  }

  it('answers the last page while one render after a write is on its way, keeps that render, and starts no second one', async () => {
    const { clock, cache } = setup();
    await cache.read('goods', page, async () => 'copies left 10');
    clock.invalidate(['sale:1']);
    const renders = pending();
    // The first reader after the write finds no render going: it starts one and waits, so it sees the write.
    const first = cache.read('goods', page, renders.load);
    // Readers meanwhile get the last page at once; no second render starts, though more writes come.
    clock.invalidate(['sale:1']);
    expect(await cache.read('goods', page, renders.load)).toBe('copies left 10');
    expect(await cache.read('goods', page, renders.load)).toBe('copies left 10');
    expect(renders.starts()).toBe(1);
    renders.finish(0, 'copies left 9');
    expect(await first).toBe('copies left 9');
    // Kept, though a write overtook it: the next reader gets it while the next render (after that write) goes.
    const next = cache.read('goods', page, renders.load);
    expect(renders.starts()).toBe(2);
    expect(await cache.read('goods', page, renders.load)).toBe('copies left 9');
    renders.finish(1, 'copies left 8');
    expect(await next).toBe('copies left 8');
    // Nothing written since: held as fresh.
    expect(await cache.read('goods', page, renders.load)).toBe('copies left 8');
    expect(renders.starts()).toBe(2);
  });

  it('answers the last page past its grace while its render is on its way, however long the render takes', async () => {
    const { cache, advance } = setup();
    const short = { ...page, ttlMs: 750, staleMs: 250, errorMs: 60_000 };
    await cache.read('goods', short, async () => 'rendered at 0');
    advance(1_000);
    // Past the grace: the first reader renders, and waits.
    const renders = pending();
    const first = cache.read('goods', short, renders.load);
    advance(3_000);
    expect(await cache.read('goods', short, renders.load)).toBe('rendered at 0');
    expect(await cache.read('goods', short, renders.load)).toBe('rendered at 0');
    expect(renders.starts()).toBe(1);
    renders.finish(0, 'rendered at 4');
    expect(await first).toBe('rendered at 4');
    expect(await cache.read('goods', short, renders.load)).toBe('rendered at 4');
  });

  it('never answers a page past its time as a stand-in, and drops one whose render brings nothing to keep', async () => {
    const { cache, advance, clock } = setup();
    const short = { ...page, ttlMs: 750, staleMs: 250, errorMs: 60_000 };
    await cache.read('goods', short, async () => 'rendered at 0');
    advance(61_000);
    const renders = pending();
    const first = cache.read('goods', short, renders.load);
    // Past stale-if-error too: a reader meanwhile waits for the render as well.
    const second = cache.read('goods', short, renders.load);
    expect(await Promise.race([second, Promise.resolve('waiting')])).toBe('waiting');
    renders.finish(0, 'rendered at 61');
    expect(await first).toBe('rendered at 61');
    expect(await second).toBe('rendered at 61');

    // A render that is not kept (a 404 now, say): the page it would have replaced is not answered again.
    clock.invalidate(['sale:1']);
    const gone = cache.read('goods', short, async () => undefined);
    expect(await gone).toBeUndefined();
    const next = pending();
    const third = cache.read('goods', short, next.load);
    const fourth = cache.read('goods', short, next.load);
    expect(await Promise.race([fourth, Promise.resolve('waiting')])).toBe('waiting');
    expect(next.starts()).toBe(1);
    next.finish(0, 'back');
    expect([await third, await fourth]).toEqual(['back', 'back']);
  });

  it('without `behind`, every reader after a write waits for a read begun after it, as before', async () => {
    const { clock, cache } = setup();
    const options = { tags: ['sale:1'], ttlMs: 60_000, staleMs: 60_000 };
    await cache.read('goods', options, async () => 'copies left 10');
    clock.invalidate(['sale:1']);
    const renders = pending();
    const first = cache.read('goods', options, renders.load);
    clock.invalidate(['sale:1']);
    const second = cache.read('goods', options, renders.load);
    expect(renders.starts()).toBe(2);
    renders.finish(0, 'overtaken');
    renders.finish(1, 'copies left 8');
    expect(await first).toBe('overtaken');
    expect(await second).toBe('copies left 8');
    expect(await cache.read('goods', options, renders.load)).toBe('copies left 8');
  });
});

describe('TaggedCache, stale if error (issue 29)', () => {
  const withError = { tags: ['sale:1'], ttlMs: 750, staleMs: 250, errorMs: 60_000 };
  const failing = () => Promise.reject(new Error('database down'));

  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => {}));
  afterEach(() => jest.restoreAllMocks());

  it('answers the last good value while its read fails, up to errorMs after it went stale, then fails', async () => {
    const { cache, load, advance } = setup();
    await cache.read('k', withError, load('last good'));
    advance(5_000);
    expect(await cache.read('k', withError, failing)).toBe('last good');
    advance(60_000);
    await expect(cache.read('k', withError, failing)).rejects.toThrow('database down');
  });

  it('answers it after an invalidation too, when the new read fails; a read that succeeds takes over at once', async () => {
    const { clock, cache, load, advance } = setup();
    await cache.read('k', withError, load('before the write'));
    clock.invalidate(['sale:1']);
    expect(await cache.read('k', withError, failing)).toBe('before the write');
    advance(RETRY_AFTER_ERROR_MS);
    expect(await cache.read('k', withError, load('after the write'))).toBe('after the write');
  });

  it('does not hammer a failing read: one try per RETRY_AFTER_ERROR_MS, the last value answered between', async () => {
    const { cache, load, advance } = setup();
    await cache.read('k', withError, load('last good'));
    advance(2_000);
    let tries = 0;
    const counted = () => {
      tries++;
      return failing();
    };
    for (let i = 0; i < 20; i++) expect(await cache.read('k', withError, counted)).toBe('last good');
    expect(tries).toBe(1);
    advance(RETRY_AFTER_ERROR_MS);
    expect(await cache.read('k', withError, counted)).toBe('last good');
    expect(tries).toBe(2);
  });

  it('without errorMs a failing read fails as before', async () => {
    const { cache, load, advance } = setup();
    await cache.read('k', fresh, load('a'));
    advance(5_000);
    await expect(cache.read('k', fresh, failing)).rejects.toThrow('database down');
  });
});
