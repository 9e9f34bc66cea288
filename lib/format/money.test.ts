import { formatFen, formatYuan, yuanToFen } from './money';

describe('money format (spec §9)', () => {
  it('prefixes the yen sign, groups by 3 and keeps 2 decimals', () => {
    expect(formatFen(123456789)).toBe('¥1,234,567.89');
    expect(formatFen(19900)).toBe('¥199.00');
    expect(formatFen(0)).toBe('¥0.00');
  });
  it('rounds down to the fen', () => {
    expect(formatYuan(1234.567)).toBe('¥1,234.56');
    expect(formatYuan(0.29)).toBe('¥0.29');
    expect(formatYuan(9.999)).toBe('¥9.99');
  });
  it('gives an empty string for empty or non-numeric input', () => {
    expect(formatYuan('')).toBe('');
    expect(formatYuan(null)).toBe('');
    expect(formatYuan('abc')).toBe('');
  });
  it('converts yuan to fen by multiplying by 100', () => {
    expect(yuanToFen(199)).toBe(19900);
    expect(yuanToFen(0.29)).toBe(29);
  });
});
