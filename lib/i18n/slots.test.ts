import { CATALOGUES, translator } from './translator';
import { fillSlots, slotArgs, toSlotted } from './slots';
import { LOCALES } from './locale';

describe('messages with slots the browser fills', () => {
  it('keeps the catalogue’s word order around the slots', () => {
    const en = toSlotted(translator('en')('goods.opensIn', slotArgs('countdown')));
    const zh = toSlotted(translator('zh-CN')('goods.opensIn', slotArgs('countdown')));
    expect(fillSlots(en, { countdown: '01:59:59' })).toBe('Opens in 01:59:59');
    expect(fillSlots(zh, { countdown: '01:59:59' })).toBe('距开售 01:59:59');
    const days = toSlotted(translator('zh-CN')('status.countdownDays', slotArgs('days', 'hours')));
    expect(fillSlots(days, { days: '2', hours: '3' })).toBe('2天3小时');
  });

  it.each(LOCALES)('every countdown message of %s has its slots', (locale) => {
    const t = translator(locale);
    expect(CATALOGUES[locale].goods.countdownDays).toContain('{clock}');
    for (const [key, names] of [
      ['goods.opensIn', ['countdown']],
      ['goods.countdownDays', ['days', 'clock']],
      ['status.countdownDays', ['days', 'hours']],
    ] as const) {
      const parts = toSlotted(t(key, slotArgs(...names)));
      expect(parts.filter((_, i) => i % 2 === 1).sort()).toEqual([...names].sort());
    }
  });
});
