import { chainTokenId } from './ledger';

describe('token ids of the ledger', () => {
  it('read like a chain token id: one large decimal number, not the collectible and edition joined by a dash', () => {
    const id = chainTokenId(21, 21);
    expect(id).toMatch(/^[1-9]\d{11,18}$/);
    expect(id).not.toContain('21-21');
  });

  it('are the same for the same edition and differ between editions', () => {
    expect(chainTokenId(21, 21)).toBe(chainTokenId(21, 21));
    const ids = new Set<string>();
    for (let commodity = 1; commodity <= 40; commodity++) for (let n = 1; n <= 500; n++) ids.add(chainTokenId(commodity, n));
    expect(ids.size).toBe(40 * 500);
  });
});
