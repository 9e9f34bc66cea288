import 'server-only';
import { env } from '../env';
import { RETENTION } from '../security/retention';
import type { Locale } from '../i18n/locale';
import { agreementText, agreementVersion, type AgreementFacts, type AgreementLocation } from './agreements';

/** The figures the agreement templates state, as this deployment keeps them. */
export function agreementFacts(brandName: string): AgreementFacts {
  return {
    brandName,
    payMinutes: Math.round(env().ORDER_PAY_TIMEOUT_SECONDS / 60),
    smsCodeDays: RETENTION.smsCodeDays,
    trackingDays: RETENTION.trackingDays,
    endedSessionDays: RETENTION.endedSessionDays,
  };
}

/** Both agreements of a channel as a buyer in `locale` reads them (the page, and channel/detail for apps). */
export function channelAgreements(
  channel: { brandName: string; privacyText: string; salesStrategyText: string },
  locale: Locale,
): Record<'privacyText' | 'salesStrategyText', string> {
  const facts = agreementFacts(channel.brandName);
  const text = (own: string, location: AgreementLocation) => agreementText(own, location, locale, facts);
  return { privacyText: text(channel.privacyText, 'privacy'), salesStrategyText: text(channel.salesStrategyText, 'salesStrategy') };
}

/** The versions of both agreements as a buyer in `locale` reads them now (issue 33): shown on their pages, kept at login. */
export function channelAgreementVersions(
  channel: { brandName: string; privacyText: string; salesStrategyText: string },
  locale: Locale,
): Record<AgreementLocation, string> {
  const texts = channelAgreements(channel, locale);
  return { privacy: agreementVersion(texts.privacyText), salesStrategy: agreementVersion(texts.salesStrategyText) };
}
