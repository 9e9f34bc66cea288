import 'server-only';
import type { Translator } from '../i18n/translator';

/**
 * The words of the console's catalogue and sales forms (issue 32), written on the server in the operator's language and
 * handed to the client forms (components/ops/catalogue-forms.tsx, sale-forms.tsx).
 */
const CATALOGUE_KEYS = [
  'code',
  'codeHint',
  'name',
  'description',
  'authorName',
  'authorCover',
  'publisherName',
  'seriesName',
  'cover',
  'gallery',
  'upload',
  'uploading',
  'removePicture',
  'amountSku',
  'amountSkuHint',
  'chainName',
  'chainContract',
  'contractAddress',
  'isBlindBox',
  'save',
  'saving',
  'saved',
  'create',
  'prizesIntro',
  'prize',
  'weight',
  'value',
  'percent',
  'addPrize',
  'removePrize',
  'savePrizes',
  'choose',
] as const;

export function catalogueWords(t: Translator): Record<string, string> {
  return {
    ...Object.fromEntries(CATALOGUE_KEYS.map((k) => [k, t(`ops.catalogue.${k}`)])),
    // The template as written (`{total, number}`, `{percent}`): the prize editor fills it as the operator types.
    total: t.raw('ops.catalogue.total') as string,
    failed: t('ops.failed'),
  };
}

const SALE_KEYS = [
  'code',
  'collectible',
  'price',
  'copies',
  'limitPerUser',
  'saleEndHint',
  'listed',
  'sort',
  'create',
  'save',
  'saving',
  'saved',
  'frozen',
  'confirmPast',
  'controls',
  'pause',
  'resume',
  'addCopies',
  'addCopiesLabel',
  'archive',
  'confirmArchive',
  'delete',
  'confirmDelete',
] as const;

export function saleWords(t: Translator, zone: string): Record<string, string> {
  return {
    ...Object.fromEntries(SALE_KEYS.map((k) => [k, t(`ops.sales.${k}`)])),
    saleStartTime: t('ops.sales.saleStartTime', { zone }),
    saleEndTime: t('ops.sales.saleEndTime', { zone }),
    failed: t('ops.failed'),
  };
}
