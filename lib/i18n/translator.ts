import { createTranslator } from 'use-intl/core';
import en, { type Messages } from './messages/en';
import zhCN from './messages/zh-CN';
import type { Locale } from './locale';

export const CATALOGUES: Record<Locale, Messages> = { en, 'zh-CN': zhCN };

/** A translator over the whole catalogue of a locale, for server components and metadata. */
export function translator(locale: Locale) {
  return createTranslator({ locale, messages: CATALOGUES[locale] });
}

export type Translator = ReturnType<typeof translator>;
