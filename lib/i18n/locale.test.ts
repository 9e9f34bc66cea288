import { isLocale, negotiateLocale } from './locale';

describe('negotiateLocale', () => {
  it("uses the channel's locale when it names a catalogue", () => {
    expect(negotiateLocale('zh-CN', 'en')).toBe('zh-CN');
    expect(negotiateLocale('en', 'zh-CN')).toBe('en');
  });

  it('ignores a channel locale without a catalogue and asks the browser', () => {
    expect(negotiateLocale('fr', 'zh-CN')).toBe('zh-CN');
    expect(negotiateLocale('', 'zh-CN')).toBe('zh-CN');
    expect(negotiateLocale(null, 'zh-CN')).toBe('zh-CN');
  });

  it('maps any Chinese tag to zh-CN and any English tag to en', () => {
    expect(negotiateLocale(null, 'zh')).toBe('zh-CN');
    expect(negotiateLocale(null, 'zh-TW')).toBe('zh-CN');
    expect(negotiateLocale(null, 'zh-Hant-HK')).toBe('zh-CN');
    expect(negotiateLocale(null, 'ZH-cn')).toBe('zh-CN');
    expect(negotiateLocale(null, 'en-GB')).toBe('en');
  });

  it('honours q-values over the order of the header', () => {
    expect(negotiateLocale(null, 'en;q=0.5, zh;q=0.8')).toBe('zh-CN');
    expect(negotiateLocale(null, 'zh;q=0.3,en-US;q=0.7')).toBe('en');
    expect(negotiateLocale(null, 'en;q=0.9,zh')).toBe('zh-CN');
  });

  it('keeps the header order between equal q-values', () => {
    expect(negotiateLocale(null, 'zh;q=0.8, en;q=0.8')).toBe('zh-CN');
    expect(negotiateLocale(null, 'en;q=0.8, zh;q=0.8')).toBe('en');
  });

  it('skips languages without a catalogue and takes the next best supported one', () => {
    expect(negotiateLocale(null, 'fr-FR,fr;q=0.9,zh;q=0.5,en;q=0.4')).toBe('zh-CN');
    expect(negotiateLocale(null, 'de, ja;q=0.9')).toBe('en');
  });

  it('never picks a language refused with q=0', () => {
    expect(negotiateLocale(null, 'zh;q=0, en;q=0.1')).toBe('en');
    expect(negotiateLocale(null, 'zh;q=0')).toBe('en');
  });

  it.each([
    ['an empty header', ''],
    ['a missing header', null],
    ['a wildcard', '*'],
    ['separators only', ' , ;, ;;'],
    ['a non-numeric q-value', 'zh;q=abc'],
    ['binary junk', '\u0000\u0001,\u00ff'],
  ])('falls back to English for %s', (_what, header) => {
    expect(negotiateLocale(null, header)).toBe('en');
  });

  it('ignores one malformed entry and still uses the others', () => {
    expect(negotiateLocale(null, 'en;q=abc, zh;q=0.2')).toBe('zh-CN');
    expect(negotiateLocale(null, ',,zh-CN,,')).toBe('zh-CN');
  });
});

describe('isLocale', () => {
  it('accepts exactly the locales with a catalogue', () => {
    expect(isLocale('en')).toBe(true);
    expect(isLocale('zh-CN')).toBe(true);
    expect(isLocale('zh-cn')).toBe(false);
    expect(isLocale('fr')).toBe(false);
    expect(isLocale(null)).toBe(false);
    expect(isLocale(undefined)).toBe(false);
  });
});

describe('Accept-Language whitespace and case (RFC 9110)', () => {
  it('honours q-values written with spaces or an upper-case Q', () => {
    expect(negotiateLocale(null, 'zh;q=0.4, en ; q=0.5')).toBe('en');
    expect(negotiateLocale(null, 'en;Q=0.1, zh;q=0.5')).toBe('zh-CN');
  });
});
