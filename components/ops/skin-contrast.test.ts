import { DEFAULT_SKIN } from '@/lib/channel/skin';
import { contrastRatio } from '@/lib/channel/contrast';
import { contrastWarnings } from './skin-contrast';

const backgroundsOf = (skin: typeof DEFAULT_SKIN) => ['#ffffff', skin.cardBgColor, skin.pageBgColor];

describe('the skin editor’s contrast warnings (issue 31)', () => {
  it('shows for the default skin what buyers see: its price and footer tab colours darkened to read on every background', () => {
    const warnings = contrastWarnings(DEFAULT_SKIN);
    for (const warning of warnings.filter((w) => w.variant)) {
      for (const bg of backgroundsOf(DEFAULT_SKIN)) expect(contrastRatio(warning.variant!, bg)).toBeGreaterThanOrEqual(4.5);
    }
    expect(warnings.map((w) => w.text)).not.toContain('color1');
    expect(warnings.map((w) => w.text)).not.toContain('buttonColor');
  });

  it('warns about a pale price and shows the darker colour buyers will see it in', () => {
    const warning = contrastWarnings({ ...DEFAULT_SKIN, signColor: '#fda4af' }).find((w) => w.text === 'signColor');
    expect(warning).toMatchObject({ text: 'signColor', background: 'pageBgColor' });
    expect(warning!.ratio).toBeLessThan(4.5);
    expect(warning!.variant).not.toBe('#fda4af');
    for (const bg of backgroundsOf(DEFAULT_SKIN)) expect(contrastRatio(warning!.variant!, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it('warns about button text that the store shows as it is, with no variant', () => {
    expect(contrastWarnings(DEFAULT_SKIN).find((w) => w.text === 'buttonColor')).toBeUndefined();
    expect(contrastWarnings({ ...DEFAULT_SKIN, buttonBgColor: '#fde68a' }).find((w) => w.text === 'buttonColor')).toEqual({
      text: 'buttonColor',
      background: 'buttonBgColor',
      ratio: 1.2,
      variant: null,
    });
  });

  it('judges main text against the background it reads worst on, and leaves colours it cannot measure alone', () => {
    expect(contrastWarnings({ ...DEFAULT_SKIN, color1: '#9ca3af' }).find((w) => w.text === 'color1')).toMatchObject({
      background: 'pageBgColor',
      variant: null,
    });
    expect(contrastWarnings({ ...DEFAULT_SKIN, color1: 'rgb(200, 200, 200)' }).find((w) => w.text === 'color1')).toBeUndefined();
  });
});
