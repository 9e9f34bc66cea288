import { acceptsCoding } from './accept-encoding';

describe('acceptsCoding', () => {
  it('reads Accept-Encoding as a browser means it', () => {
    const headers = ['gzip, deflate, br, zstd', 'br;q=1, gzip;q=0.5', '*', 'identity', 'gzip;q=0', '', undefined];
    expect(headers.map((h) => acceptsCoding(h, 'gzip'))).toEqual([true, true, true, false, false, false, false]);
    expect(headers.map((h) => acceptsCoding(h, 'br'))).toEqual([true, true, true, false, false, false, false]);
  });

  it('lets a coding’s own entry decide over the wildcard, in either order', () => {
    expect(acceptsCoding('*;q=0, gzip', 'gzip')).toBe(true);
    expect(acceptsCoding('gzip;q=0, *', 'gzip')).toBe(false);
    expect(acceptsCoding('*;q=0, gzip', 'br')).toBe(false);
    expect(acceptsCoding('BR;Q=0.1', 'br')).toBe(true);
  });

  it('takes nothing from a header it cannot read', () => {
    expect(acceptsCoding('brotli, gzipped, x-gzip', 'gzip')).toBe(false);
    expect(acceptsCoding('br;q=zero', 'br')).toBe(false);
    expect(acceptsCoding(['deflate', 'br'], 'br')).toBe(true);
  });
});
