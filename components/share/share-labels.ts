import type { Translator } from '@/lib/i18n/translator';
import type { ShareActionsLabels } from './share-actions';

/** The words of `ShareActions` in the page's language (issue 36): one set for every page that shares a link. */
export function shareLabels(t: Translator, name: string): ShareActionsLabels {
  return {
    copyLink: t('share.copyLink'),
    copied: t('share.copied'),
    copyFailed: t('share.copyFailed'),
    system: t('share.system'),
    poster: t('share.poster'),
    posterAlt: t('share.posterAlt', { name }),
    saveHint: t('share.saveHint'),
    link: t('share.link'),
  };
}
