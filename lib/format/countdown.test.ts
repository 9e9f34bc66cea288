import { clockText, countdownParts } from './countdown';

describe('countdown parts', () => {
  it('splits seconds into days, hours, minutes and seconds', () => {
    expect(countdownParts(2 * 86_400 + 3 * 3600 + 4 * 60 + 5)).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5 });
    expect(countdownParts(86_399)).toEqual({ days: 0, hours: 23, minutes: 59, seconds: 59 });
    expect(countdownParts(-3)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });

  it('writes what is left below a day as a clock', () => {
    expect(clockText(countdownParts(7199))).toBe('01:59:59');
    expect(clockText(countdownParts(1))).toBe('00:00:01');
  });
});
