/**
 * The mainland resident identity card number (GB 11643-1999), checked the same way in the browser and on the server
 * (issue 33): 6 digits of the issuing region, the birth date as YYYYMMDD, a 3-digit sequence (odd for men, even for
 * women) and a check digit (ISO 7064 MOD 11-2; 10 is written X). Pure and dependency-free, so the verification page
 * ships it to the browser.
 */

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
const CHECK_CHARACTERS = '10X98765432';

/** Why a number is refused, one reason each, in the order they are checked. */
export type ResidentIdProblem = 'length' | 'characters' | 'region' | 'birthDate' | 'checkDigit';

/** Spaces and dashes a buyer types are dropped; a lower-case x reads as X. */
export function normaliseResidentId(input: string): string {
  return input.replace(/[\s-]/g, '').toUpperCase();
}

/** The check digit the first 17 digits call for. */
export function residentIdCheckDigit(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * WEIGHTS[i]!;
  return CHECK_CHARACTERS[sum % 11]!;
}

function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The first problem with a normalised number, or null when it is well formed. `today` (YYYY-MM-DD) bounds the birth
 * date: nobody is born in the future, nor before 1900.
 */
export function residentIdProblem(id: string, today: string): ResidentIdProblem | null {
  if (id.length !== 18) return 'length';
  if (!/^\d{17}[\dX]$/.test(id)) return 'characters';
  // The region's first digit is a province group (1 to 6), 8 for Hong Kong, Macao and Taiwan residents' permits.
  if (!/^[1-68]/.test(id)) return 'region';
  const year = Number(id.slice(6, 10));
  const month = Number(id.slice(10, 12));
  const day = Number(id.slice(12, 14));
  const birth = id.slice(6, 10) + '-' + id.slice(10, 12) + '-' + id.slice(12, 14);
  if (year < 1900 || !isRealDate(year, month, day) || birth > today) return 'birthDate';
  if (residentIdCheckDigit(id.slice(0, 17)) !== id[17]) return 'checkDigit';
  return null;
}

/** The birth date a well-formed number carries, YYYY-MM-DD. */
export function residentIdBirthDate(id: string): string {
  return `${id.slice(6, 10)}-${id.slice(10, 12)}-${id.slice(12, 14)}`;
}

/** The only form of the number ever shown (issue 33): the first four and the last four, 1101**********1234. */
export function maskResidentId(id: string): string {
  return id.slice(0, 4) + '*'.repeat(Math.max(0, id.length - 8)) + id.slice(-4);
}

/** The only form of a legal name ever shown (issue 33): its first character, the rest starred (张*, 欧阳**). */
export function maskLegalName(name: string): string {
  const characters = Array.from(name.trim());
  if (characters.length === 0) return '';
  return characters[0] + '*'.repeat(Math.max(1, characters.length - 1));
}
