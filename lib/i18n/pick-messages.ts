import type { Messages } from './messages/en';
import type { Locale } from './locale';
import { CATALOGUES } from './translator';

export type Namespace = keyof Messages;

/**
 * The namespaces of a locale's catalogue that a page's client components read with useTranslations: only these travel
 * to the browser (first-load JavaScript is on a budget), never the whole catalogue.
 */
export function pickMessages<N extends Namespace>(locale: Locale, namespaces: readonly N[]): Pick<Messages, N> {
  const catalogue = CATALOGUES[locale];
  return Object.fromEntries(namespaces.map((n) => [n, catalogue[n]])) as Pick<Messages, N>;
}
