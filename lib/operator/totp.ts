import 'server-only';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/**
 * TOTP second factors (issue 31; RFC 6238): 6 digits, 30-second steps, SHA-1 (what every authenticator app reads from
 * a QR code). A code of the step before or after is accepted (clocks drift); each step works once per operator
 * (operator_totp_steps), so a code seen over a shoulder or replayed is refused.
 */
export const TOTP_PERIOD_S = 30;
const ISSUER = 'Storefront console';

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, name: string): TOTP {
  return new TOTP({ issuer: ISSUER, label: name, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S });
}

/** The otpauth:// URI an authenticator app reads, and it as an SVG QR code. */
export async function totpEnrolment(secret: string, name: string): Promise<{ uri: string; qrSvg: string }> {
  const uri = totpOf(secret, name).toString();
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { uri, qrSvg };
}

/** The time step a code belongs to, or null when it is no code of the steps around `now`. */
export function totpStep(secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret, 'x').validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S) + delta;
}
