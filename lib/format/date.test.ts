import { formatDate } from './date';

describe('formatDate (spec §9)', () => {
  const instant = '2026-11-22T00:00:00Z';

  it('uses yyyy-MM-dd HH:mm:ss in Asia/Shanghai by default', () => {
    expect(formatDate(new Date(instant))).toBe('2026-11-22 08:00:00');
  });

  it('accepts an ISO string and epoch milliseconds as well as a Date', () => {
    expect(formatDate(instant)).toBe('2026-11-22 08:00:00');
    expect(formatDate(Date.parse('2026-11-22T15:59:58.900Z'))).toBe('2026-11-22 23:59:58');
  });

  it('crosses the date line in the channel zone, not the server zone', () => {
    expect(formatDate('2026-12-31T16:30:05Z')).toBe('2027-01-01 00:30:05');
  });

  it('formats with a custom pattern', () => {
    expect(formatDate(instant, 'yyyy/MM/dd')).toBe('2026/11/22');
    expect(formatDate(instant, 'HH:mm')).toBe('08:00');
  });

  it('formats in another time zone', () => {
    expect(formatDate(instant, undefined, 'UTC')).toBe('2026-11-22 00:00:00');
    expect(formatDate(instant, undefined, 'America/New_York')).toBe('2026-11-21 19:00:00');
    expect(formatDate('2026-07-01T12:00:00Z', undefined, 'America/New_York')).toBe('2026-07-01 08:00:00');
  });

  it('formats the epoch itself: 0 is a time, not an empty input', () => {
    expect(formatDate(0)).toBe('1970-01-01 08:00:00');
  });

  it.each([
    ['an empty string', ''],
    ['null', null],
    ['undefined', undefined],
  ])('gives an empty string for %s', (_what, input) => {
    expect(formatDate(input)).toBe('');
  });

  it.each([
    ['text', 'not a date'],
    ['an invalid Date', new Date('nope')],
    ['NaN', Number.NaN],
  ])('gives an empty string for %s that is not a date', (_what, input) => {
    expect(formatDate(input)).toBe('');
  });
});

describe('a misconfigured time zone', () => {
  it('falls back to UTC instead of breaking the page', () => {
    expect(formatDate('2026-11-22T00:00:00Z', undefined, 'Mars/Olympus')).toBe('2026-11-22 00:00:00');
  });
});
