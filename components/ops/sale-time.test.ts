import { fromZoneInput, toZoneInput, zoneText } from './sale-time';

// issue 32: a sale's times are entered and shown in the channel's zone, whatever the operator's computer's zone is.

it('reads a typed time in the channel’s zone and writes it back the same', () => {
  const iso = fromZoneInput('2026-12-01T20:00', 'Asia/Shanghai')!;
  expect(new Date(iso).toISOString()).toBe('2026-12-01T12:00:00.000Z');
  expect(toZoneInput(iso, 'Asia/Shanghai')).toBe('2026-12-01T20:00');
  expect(toZoneInput(iso, 'Europe/London')).toBe('2026-12-01T12:00');
  expect(zoneText(iso, 'Asia/Shanghai')).toBe('2026-12-01 20:00 Asia/Shanghai');
  expect(fromZoneInput('tomorrow', 'Asia/Shanghai')).toBeNull();
});
