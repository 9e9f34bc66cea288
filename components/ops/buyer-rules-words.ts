import en from '@/lib/i18n/messages/en';
import type { Translator } from '@/lib/i18n/translator';
import type { BuyerRulesWords } from './channel-buyer-rules';

/** Words that take values (the buyer page and the reports render them with `t` themselves). */
const WITH_VALUES = new Set<string>(['verified', 'reportToday']);

/** The buyer rules' words (issue 33, `ops.identityPolicy.*`, `ops.riskPolicy.*`), rendered on the server for the form. */
export function buyerRulesWords(t: Translator): BuyerRulesWords {
  const block = <K extends string>(ns: 'identityPolicy' | 'riskPolicy' | 'giftingPolicy', keys: K[]) =>
    Object.fromEntries(keys.map((k) => [k, WITH_VALUES.has(k) ? '' : t(`ops.${ns}.${k}` as Parameters<Translator>[0])])) as Record<
      K,
      string
    >;
  return {
    identity: block('identityPolicy', Object.keys(en.ops.identityPolicy) as (keyof typeof en.ops.identityPolicy)[]),
    risk: block('riskPolicy', Object.keys(en.ops.riskPolicy) as (keyof typeof en.ops.riskPolicy)[]),
    gifting: block('giftingPolicy', Object.keys(en.ops.giftingPolicy) as (keyof typeof en.ops.giftingPolicy)[]),
  };
}
