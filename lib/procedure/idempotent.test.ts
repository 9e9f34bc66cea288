import { claimOnce } from './idempotent';

const uniqueViolation = Object.assign(new Error('duplicate key'), { cause: { code: '23505' } });

describe('claimOnce', () => {
  it('answers with the record the key already made, without making another', async () => {
    const make = jest.fn(async () => 'new');
    await expect(claimOnce({ find: async () => 'made', make })).resolves.toBe('made');
    expect(make).not.toHaveBeenCalled();
  });

  it('makes the record when the key is new', async () => {
    await expect(claimOnce({ find: async () => null, make: async () => 'new' })).resolves.toBe('new');
  });

  it("answers a copy that lost the race on the key with the winner's record", async () => {
    const find = jest.fn<Promise<string | null>, []>().mockResolvedValueOnce(null).mockResolvedValueOnce('winner');
    const won = jest.fn(async () => undefined);
    await expect(claimOnce({ find, make: () => Promise.reject(uniqueViolation), won })).resolves.toBe('winner');
    expect(won).toHaveBeenCalledTimes(1);
  });

  it('lets other errors stand, and a lost race with no winner, unless told otherwise', async () => {
    const refused = new Error('sold out');
    const find = jest.fn(async () => null);
    await expect(claimOnce({ find, make: () => Promise.reject(refused) })).rejects.toBe(refused);
    expect(find).toHaveBeenCalledTimes(1);
    await expect(claimOnce({ find, make: () => Promise.reject(uniqueViolation) })).rejects.toBe(uniqueViolation);
    await expect(claimOnce({ find, make: () => Promise.reject(refused), otherwise: async () => 'again' })).resolves.toBe('again');
  });

  it('counts the errors it is told as a lost race', async () => {
    const limit = new Error('limit');
    const find = jest.fn<Promise<string | null>, []>().mockResolvedValueOnce(null).mockResolvedValueOnce('winner');
    await expect(claimOnce({ find, make: () => Promise.reject(limit), lostRace: (e) => e === limit })).resolves.toBe('winner');
  });

  it('propagates a key used for another request', async () => {
    const reused = new Error('keyReused');
    await expect(claimOnce({ find: () => Promise.reject(reused), make: async () => 'new' })).rejects.toBe(reused);
  });
});
