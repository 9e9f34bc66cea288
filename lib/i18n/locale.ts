/** Locales with a message catalogue. No imports: the proxy, the server and the browser take it alike. */
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export function isLocale(value: string | null | undefined): value is Locale {
  return (LOCALES as readonly string[]).includes(value ?? '');
}

/**
 * The channel's locale when it sets one, otherwise the best match of Accept-Language
 * (q-values honoured; any zh-* → zh-CN, any en-* → en), otherwise English.
 */
export function negotiateLocale(channelLocale: string | null | undefined, acceptLanguage: string | null | undefined): Locale {
  if (isLocale(channelLocale)) return channelLocale;
  return askedLocale(acceptLanguage) ?? DEFAULT_LOCALE;
}

/** The best locale of ours Accept-Language asks for (q-values honoured; zh-* → zh-CN, en-* → en), or null. */
export function askedLocale(acceptLanguage: string | null | undefined): Locale | null {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';').map((p) => p.trim());
      // "q=0.5", "Q = 0.5": HTTP allows optional whitespace and the parameter name is case-insensitive.
      const q = params.map((p) => p.replace(/\s+/g, '').toLowerCase()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((l) => l.tag && l.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return null;
}

/**
 * The locale of an API answer (docs/api.md, "Languages"): what the caller's Accept-Language asks for when it names a
 * locale we have (the store's pages send their own locale), otherwise the channel's locale, otherwise English.
 */
export function apiLocale(acceptLanguage: string | null | undefined, channelLocale: string | null | undefined): Locale {
  return askedLocale(acceptLanguage) ?? (isLocale(channelLocale) ? channelLocale : DEFAULT_LOCALE);
}
