import type { Translator } from '@/lib/i18n/translator';
import en from '@/lib/i18n/messages/en';

/** Every word of the Campaigns tab (ops.campaigns.*), written in the operator's language for the client forms. */
export function campaignWords(t: Translator, zone: string): Record<string, string> {
  const keys = Object.keys(en.ops.campaigns) as (keyof typeof en.ops.campaigns)[];
  return {
    ...Object.fromEntries(keys.map((k) => [k, k === 'intro' ? t('ops.campaigns.intro', { zone }) : t(`ops.campaigns.${k}`)])),
    failed: t('ops.failed'),
  };
}
