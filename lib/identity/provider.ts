import 'server-only';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';

/**
 * The identity vendors behind one interface (issue 33), as the SMS carriers are (lib/auth/sms-carrier.ts): a two-factor
 * check of a legal name and a resident ID number. IDENTITY_PROVIDER picks one: `demo` (demo mode only: ./demo.ts),
 * `tencent` (Tencent Cloud faceid IdCardVerification: ./tencent-faceid.ts) or `aliyun` (Alibaba Cloud cloudauth
 * Id2MetaVerify: ./aliyun-cloudauth.ts); ./providers.ts builds the one the environment names.
 */
export type IdentityProviderName = 'demo' | 'tencent' | 'aliyun';

/** What the vendor says of a name and a number: they belong together, they do not, or it has no such number. */
export type IdentityVerdict = 'match' | 'mismatch' | 'noRecord';

export interface IdentityProvider {
  readonly name: IdentityProviderName;
  /**
   * Asks the vendor once. A vendor that does not answer within IDENTITY_VENDOR_TIMEOUT_MS, answers something it should
   * not, or refuses our keys throws an AppError 503 (identityNoAnswer / identityCannotCheck), after a log line that
   * never holds the name, the number or the vendor's answer body.
   */
  check(person: { name: string; idNumber: string }): Promise<IdentityVerdict>;
}

/** How long a vendor may take (issue 33: 5 s), as the SMS carriers (lib/auth/sms-carrier.ts). */
export const IDENTITY_VENDOR_TIMEOUT_MS = 5000;

/** The vendor did not answer (a timeout, a network failure, an answer that is not JSON): the buyer may try again soon. */
export function vendorNoAnswer(): AppError {
  return new AppError(503, msg('identityNoAnswer'));
}

/** The vendor refused the store (keys, permission, balance) or answered what the store does not know: the operator acts. */
export function vendorCannotCheck(): AppError {
  return new AppError(503, msg('identityCannotCheck'));
}
