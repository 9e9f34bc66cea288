import 'server-only';
import { createHash, createHmac } from 'node:crypto';
import type { PowChallenge } from './schema';

/**
 * Proof of work bound to a captcha challenge (security finding 3), in the style of ALTCHA: the server gives a salt and
 * SHA-256(salt + n) for a secret n in [0, maxNumber]; the client tries numbers until the hash matches
 * (lib/client/proof-of-work.ts) and sends n with its answer; the server checks n.
 *
 * Why: no self-hosted picture stops a determined program, and a question for those who cannot drag is readable by a
 * program by nature. What a server can do is make every answer cost something: a phone pays it once, in a fraction of
 * a second and while the person drags; a bulk solver pays it for every captcha it answers.
 *
 * Bound to the challenge and stateless: the salt is the challenge's id, and n is derived from an HMAC of that id under
 * AUTH_SECRET, so nothing is stored (no schema change) and no one without the secret can know n in advance. A solution
 * is only accepted with an answer to that same challenge (`answerChallenge`), and a challenge takes one answer, so a
 * solution cannot be used twice nor for another challenge.
 */

/**
 * The largest n. The search tries on average half of them, at most all.
 *
 * Measured on 2026-11-24 in Debian's Chromium 156 on this project's machines (an AMD EPYC core, the machine otherwise
 * idle): lib/client/proof-of-work.ts bundled alone into a page, solving a challenge whose number is maxNumber (the
 * worst case), six runs each, with and without Emulation.setCPUThrottlingRate 4 over the DevTools protocol (a fair
 * stand-in for a mid-range phone). It tries 1.42 million numbers a second on the desktop and 0.37 million throttled,
 * so 150,000 takes at most 0.11 s (0.05 s on average) on the desktop and at most 0.41 s (0.2 s on average) on the
 * throttled page; the captcha starts it when the picture arrives, while the person drags, so it is usually done first.
 *
 * What it costs a program: the same in a headless browser; natively, OpenSSL hashes about 6.6 million of these short
 * messages a second on the same core, about 11 ms per answer on average. Small, but paid on every answer, on top of a
 * picture or a question to solve, and per core; the SMS limits (AUTH_LIMITS) remain what caps what an answer buys.
 */
export const POW_MAX_NUMBER = 150_000;

/** Keeps this HMAC apart from the server secret's other uses (SMS-code hashes, sessions). */
const HMAC_LABEL = 'captcha-proof-of-work\0';

/** The secret number of a challenge: its id's HMAC under the server secret, reduced to [0, POW_MAX_NUMBER]. */
function secretNumber(secret: string, challengeId: string): number {
  const mac = createHmac('sha256', secret)
    .update(HMAC_LABEL + challengeId)
    .digest();
  // 48 bits reduced modulo maxNumber + 1: the bias towards small numbers is below 10^-9, nothing a solver can use.
  return mac.readUIntBE(0, 6) % (POW_MAX_NUMBER + 1);
}

/** The salt: the challenge id and a separator the id's alphabet (base64url) does not use, so the digits stand apart. */
function saltOf(challengeId: string): string {
  return `${challengeId}.`;
}

/** The proof of work to send with challenge `challengeId`. */
export function powChallenge(secret: string, challengeId: string): PowChallenge {
  const salt = saltOf(challengeId);
  const challenge = createHash('sha256')
    .update(salt + String(secretNumber(secret, challengeId)))
    .digest('hex');
  return { algorithm: 'SHA-256', salt, challenge, maxNumber: POW_MAX_NUMBER };
}

/** Whether `number` solves the proof of work of challenge `challengeId` (the one number that does; n is not secret once found). */
export function powSolves(secret: string, challengeId: string, number: number): boolean {
  return Number.isSafeInteger(number) && number === secretNumber(secret, challengeId);
}
