import { contrastRatio, hexRgb, readableOn, TEXT_CONTRAST } from './contrast';

describe('contrast', () => {
  it('reads hex colours in their short and long forms, and nothing else', () => {
    expect(hexRgb('#fff')).toEqual([255, 255, 255]);
    expect(hexRgb('#F43F5E')).toEqual([244, 63, 94]);
    expect(hexRgb('#f43f5e80')).toEqual([244, 63, 94]);
    expect(hexRgb('red')).toBeNull();
    expect(hexRgb('rgb(1, 2, 3)')).toBeNull();
  });

  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#f43f5e', '#ffffff')).toBeCloseTo(3.67, 2);
    expect(contrastRatio('#9ca3af', '#ffffff')).toBeCloseTo(2.54, 2);
    expect(contrastRatio('red', '#fff')).toBeNull();
  });

  it('darkens a colour that does not read just enough that it does, on every background', () => {
    const price = readableOn('#f43f5e', ['#ffffff', '#eef6f5']);
    expect(price).not.toBe('#f43f5e');
    for (const bg of ['#ffffff', '#eef6f5']) expect(contrastRatio(price, bg)!).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    // Just enough: not far past the line (a step is 5% towards black).
    expect(contrastRatio(price, '#ffffff')!).toBeLessThan(5.5);
  });

  it('keeps a colour that reads, and one it cannot measure', () => {
    expect(readableOn('#0f766e', ['#ffffff'])).toBe('#0f766e');
    expect(readableOn('crimson', ['#ffffff'])).toBe('crimson');
  });
});
