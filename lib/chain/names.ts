import 'server-only';
import type { Locale } from '../i18n/locale';
import { CATALOGUES, translator, type Translator } from '../i18n/translator';
import type { StoreView } from './schema';

/**
 * Names the store itself gives, written in the page's language (issue 30: English system words on Chinese pages). A
 * name an operator typed is theirs and is kept; a name the store wrote (the demo seeds the built-in ledger's and the
 * allow-listed stores' in one language) is recognised in any of our languages and shown in the page's.
 */

/** A name the catalogues write for a key, in every locale. */
function inEveryLocale(write: (t: Translator) => string): Set<string> {
  return new Set((Object.keys(CATALOGUES) as Locale[]).map((locale) => write(translator(locale))));
}

let ledgerNames: Set<string> | undefined;

/**
 * The chain a collectible is on, as the goods page names it: the built-in ledger (DESIGN §7, our own hash-chained
 * ledger, named honestly) by its name in the page's language; any other chain by the name its operator gave.
 */
export function chainNameIn(chainName: string, t: Translator): string {
  ledgerNames ??= inEveryLocale((tr) => tr('goods.ledger'));
  return ledgerNames.has(chainName) ? t('goods.ledger') : chainName;
}

/** The catalogue's words for a store of the spec's fixed allow-list (spec §9: numbered Shanghai stores and three others). */
function allowListed(code: string, t: Translator): string | null {
  const shanghai = /^SH(\d{3})$/.exec(code);
  if (shanghai) return t('chain.storeShanghai', { number: Number(shanghai[1]) });
  if (code === 'BJ001') return t('chain.storeBeijing');
  if (code === 'GZ001') return t('chain.storeGuangzhou');
  if (code === 'ONLINE') return t('chain.storeOnline');
  return null;
}

const storeNames = new Map<string, Set<string>>();

/** A store a product was bought from (self chain-up), by its name in the page's language where the store wrote it. */
export function storeNameIn(store: StoreView, t: Translator): string {
  let written = storeNames.get(store.code);
  if (!written) {
    written = inEveryLocale((tr) => allowListed(store.code, tr) ?? '');
    storeNames.set(store.code, written);
  }
  return written.has(store.name) ? (allowListed(store.code, t) ?? store.name) : store.name;
}
