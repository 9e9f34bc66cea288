import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { CATALOGUES, translator } from '@/lib/i18n/translator';
import { formatCount } from './count';

describe('counts, grouped alike on every page (issue 30: "1,000" on one page, "1000" on the next)', () => {
  it('groups by the channel language, as the catalogues do', () => {
    expect(formatCount(1000, 'en')).toBe('1,000');
    expect(formatCount(1234567, 'zh-CN')).toBe('1,234,567');
    expect(formatCount(5, 'en')).toBe('5');
    // The same text the catalogues' `{count, number}` writes in each language.
    for (const locale of ['en', 'zh-CN'] as const) {
      expect(translator(locale)('goods.stockCount', { count: 12345, total: 67890 })).toContain(formatCount(12345, locale));
    }
  });

  /** The arguments the catalogues name counts by. */
  const COUNTS = new Set(['count', 'total', 'remaining', 'limit', 'left', 'quantity', 'have', 'need', 'got', 'minimum', 'maximum']);

  function plainArguments(elements: MessageFormatElement[]): string[] {
    return elements.flatMap((element) => {
      if (element.type === TYPE.argument) return [element.value];
      if (element.type === TYPE.select || element.type === TYPE.plural)
        return Object.values(element.options).flatMap((option) => plainArguments(option.value));
      if (element.type === TYPE.tag) return plainArguments(element.children);
      return [];
    });
  }

  function messages(node: unknown, path: string): [string, string][] {
    if (typeof node === 'string') return [[path, node]];
    return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) => messages(value, path ? `${path}.${key}` : key));
  }

  it.each(Object.keys(CATALOGUES) as (keyof typeof CATALOGUES)[])(
    'the %s catalogue writes every count as a number, never as plain text',
    (locale) => {
      const plain = messages(CATALOGUES[locale], '').flatMap(([path, text]) =>
        plainArguments(parse(text, { ignoreTag: true }))
          .filter((name) => COUNTS.has(name))
          .map((name) => `${path}: {${name}}`),
      );
      expect(plain).toEqual([]);
    },
  );
});
