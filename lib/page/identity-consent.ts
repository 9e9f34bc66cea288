import 'server-only';
import type { PageChannel } from './channel';

/** The consent the buyer agrees to (lib/identity/consent.ts): its words in the page's language and its version. */
export type IdentityConsent = { version: string; text: string };

/**
 * The consent text the verification page shows and the version the buyer agrees to (issue 33: which version each
 * buyer accepted is kept). Until the identity service's consent (lib/identity/consent.ts) is in, the page's intro
 * stands in with no version, which the server refuses (400 consentVersion).
 */
export async function pageIdentityConsent(channel: PageChannel): Promise<IdentityConsent> {
  return { version: '', text: channel.t('identity.intro') };
}
