import en from '@/lib/i18n/messages/en';
import type { Translator } from '@/lib/i18n/translator';

/** The console's channel words (issue 31, `ops.chan.*`) without values, rendered on the server for the client forms. */
export type ChanKey = keyof (typeof en)['ops']['chan'];
export type ChanWords = Record<ChanKey, string>;

/** Words that take values: the caller renders them itself with `t`. */
const WITH_VALUES = new Set<ChanKey>(['createIntro', 'pauseTitle', 'pauseBody', 'resumeTitle', 'moveUp', 'moveDown']);

export function chanWords(t: Translator): ChanWords {
  return Object.fromEntries(
    (Object.keys(en.ops.chan) as ChanKey[]).map((k) => [k, WITH_VALUES.has(k) ? '' : t(`ops.chan.${k}`)]),
  ) as ChanWords;
}

/**
 * How a refusal in the page's language names each field of a form (lib/procedure/messages.ts describeInput: the
 * catalogue's `api.input.field`), so the form can show each refusal under its field (components/ops/channel-form.tsx).
 */
export function fieldWords(t: Translator, fields: readonly string[]): Record<string, string> {
  return Object.fromEntries(fields.flatMap((f) => [[t('api.input.field', { name: f, path: f }), f] as const, [f, f] as const]));
}
