import 'server-only';
import { IDENTITY_CONSENT, IDENTITY_CONSENT_VERSION } from '../identity/consent';
import type { PageChannel } from './channel';

/** The consent the buyer agrees to (lib/identity/consent.ts): its words in the page's language and its version. */
export type IdentityConsent = { version: string; title: string; paragraphs: readonly string[] };

/**
 * The consent text the verification page shows, in the channel's language, and the version the buyer agrees to
 * (issue 33: which version each buyer accepted is kept; the verify call refuses any other).
 */
export function pageIdentityConsent(channel: Pick<PageChannel, 'locale'>): IdentityConsent {
  const { title, paragraphs } = IDENTITY_CONSENT[channel.locale];
  return { version: IDENTITY_CONSENT_VERSION, title, paragraphs };
}
