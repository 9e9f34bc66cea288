import { SummaryCache, type SummaryLookup } from './summary-cache';
import type { ChannelSummary } from './theme';

const TTL = 30_000;
const MISS_TTL = 5_000;
const STALE = 600_000;

function summary(key: string, labels: ChannelSummary['labels'] = [1]): ChannelSummary {
  return { key, status: 1, labels, attributes: {}, locale: null };
}

/** A controllable clock and lookup: the lookup answers from `answers` (a value, or an Error to throw). */
function setup(options: { maxEntries?: number } = {}) {
  let time = 1_000_000;
  const answers = new Map<string, ChannelSummary | null | Error>();
  const lookup = jest.fn<ReturnType<SummaryLookup>, Parameters<SummaryLookup>>(async (key) => {
    const answer = answers.get(key);
    if (answer instanceof Error) throw answer;
    return answer ?? null;
  });
  const cache = new SummaryCache(lookup, {
    ttlMs: TTL,
    missTtlMs: MISS_TTL,
    staleMs: STALE,
    maxEntries: options.maxEntries ?? 100,
    now: () => time,
  });
  return {
    cache,
    lookup,
    answers,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

describe('SummaryCache', () => {
  it('answers a fresh entry without calling the lookup again', async () => {
    const { cache, lookup, answers, advance } = setup();
    answers.set('AURORA', summary('AURORA'));
    expect(await cache.get('AURORA')).toEqual(summary('AURORA'));
    advance(TTL - 1);
    expect(await cache.get('AURORA')).toEqual(summary('AURORA'));
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('refreshes an entry once its ttl has passed', async () => {
    const { cache, lookup, answers, advance } = setup();
    answers.set('AURORA', summary('AURORA', [1]));
    await cache.get('AURORA');
    answers.set('AURORA', summary('AURORA', [1, 2]));
    advance(TTL);
    expect((await cache.get('AURORA'))?.labels).toEqual([1, 2]);
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('serves the stale value when a refresh fails within the stale window', async () => {
    const { cache, answers, advance } = setup();
    answers.set('AURORA', summary('AURORA', [1, 4]));
    await cache.get('AURORA');
    answers.set('AURORA', new Error('API down'));
    advance(TTL + STALE - 1);
    expect(await cache.get('AURORA')).toEqual(summary('AURORA', [1, 4]));
  });

  it('throws when a refresh fails beyond the stale window', async () => {
    const { cache, answers, advance } = setup();
    answers.set('AURORA', summary('AURORA'));
    await cache.get('AURORA');
    answers.set('AURORA', new Error('API down'));
    advance(TTL + STALE);
    await expect(cache.get('AURORA')).rejects.toThrow('API down');
  });

  it('throws when the lookup fails and nothing was cached, and tries again on the next request', async () => {
    const { cache, lookup, answers } = setup();
    answers.set('AURORA', new Error('API down'));
    await expect(cache.get('AURORA')).rejects.toThrow('API down');
    answers.set('AURORA', summary('AURORA'));
    expect(await cache.get('AURORA')).toEqual(summary('AURORA'));
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('remembers an unknown channel for missTtlMs only', async () => {
    const { cache, lookup, answers, advance } = setup();
    expect(await cache.get('NOWHERE')).toBeNull();
    advance(MISS_TTL - 1);
    expect(await cache.get('NOWHERE')).toBeNull();
    expect(lookup).toHaveBeenCalledTimes(1);

    answers.set('NOWHERE', summary('NOWHERE'));
    advance(1);
    expect(await cache.get('NOWHERE')).toEqual(summary('NOWHERE'));
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('shares one lookup between concurrent requests for the same key', async () => {
    const { cache, lookup, answers } = setup();
    answers.set('AURORA', summary('AURORA'));
    const results = await Promise.all([cache.get('AURORA'), cache.get('AURORA'), cache.get('AURORA')]);
    expect(results).toEqual([summary('AURORA'), summary('AURORA'), summary('AURORA')]);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('shares one failing lookup too, and every waiting request sees the failure', async () => {
    const { cache, lookup, answers } = setup();
    answers.set('AURORA', new Error('API down'));
    const results = await Promise.allSettled([cache.get('AURORA'), cache.get('AURORA')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('keeps different keys apart', async () => {
    const { cache, answers } = setup();
    answers.set('AURORA', summary('AURORA', [1, 2, 3, 4]));
    answers.set('LUMEN', summary('LUMEN', [1]));
    expect((await cache.get('AURORA'))?.key).toBe('AURORA');
    expect((await cache.get('LUMEN'))?.key).toBe('LUMEN');
    expect((await cache.get('AURORA'))?.labels).toEqual([1, 2, 3, 4]);
  });

  it('evicts the oldest entry once maxEntries is reached', async () => {
    const { cache, lookup, answers } = setup({ maxEntries: 2 });
    for (const key of ['A', 'B', 'C']) answers.set(key, summary(key));
    await cache.get('A');
    await cache.get('B');
    await cache.get('C');
    expect(lookup).toHaveBeenCalledTimes(3);

    await cache.get('B');
    await cache.get('C');
    expect(lookup).toHaveBeenCalledTimes(3);

    await cache.get('A');
    expect(lookup).toHaveBeenCalledTimes(4);
    expect(lookup).toHaveBeenLastCalledWith('A');
  });
  it('evicts the least recently fetched entry, not the first one stored', async () => {
    const { cache, lookup, answers, advance } = setup({ maxEntries: 2 });
    for (const key of ['A', 'B', 'C']) answers.set(key, summary(key));
    await cache.get('A');
    await cache.get('B');
    advance(TTL); // both expire; A is fetched again, so B is now the oldest fetch
    await cache.get('A');
    await cache.get('C'); // full: B goes
    lookup.mockClear();
    await cache.get('A');
    expect(lookup).not.toHaveBeenCalled();
    await cache.get('B');
    expect(lookup).toHaveBeenCalledWith('B');
  });
});
