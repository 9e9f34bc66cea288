import { formatFen } from './money';

describe('money format (spec §9)', () => {
  it('prefixes the yen sign, groups by 3 and keeps 2 decimals', () => {
    expect(formatFen(123456789)).toBe('¥1,234,567.89');
    expect(formatFen(19900)).toBe('¥199.00');
    expect(formatFen(0)).toBe('¥0.00');
  });
});
