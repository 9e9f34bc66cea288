import { TagClock, TaggedCache } from './tagged-cache';

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
