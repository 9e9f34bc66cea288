/**
 * Mainland-China mobile numbers (spec §5): 11 digits, starting with 1, second digit 3 to 9.
 * Pure and dependency-free: the login form validates as the buyer types, the API validates again.
 */
export const PHONE_LENGTH = 11;

export type PhoneProblem = 'empty' | 'notDigits' | 'tooShort' | 'tooLong' | 'notMobile';

/** Why a phone number is not acceptable, or null when it is. Spaces and dashes typed for readability are ignored. */
export function phoneProblem(input: string): PhoneProblem | null {
  const phone = normalizePhone(input);
  if (phone === '') return 'empty';
  if (!/^\d+$/.test(phone)) return 'notDigits';
  // The prefix first: "12…" can never become a mobile number, so say so at once rather than "too short".
  if (!/^1([3-9]|$)/.test(phone)) return 'notMobile';
  if (phone.length < PHONE_LENGTH) return 'tooShort';
  if (phone.length > PHONE_LENGTH) return 'tooLong';
  return null;
}

export function isMobilePhone(input: string): boolean {
  return phoneProblem(input) === null;
}

/** Drops the spaces and dashes people type in long numbers ("138 0013 8000"). */
export function normalizePhone(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/** English wording of each problem, for the API's "field: why" messages. */
export const PHONE_PROBLEM_MESSAGES: Record<PhoneProblem, string> = {
  empty: 'is required',
  notDigits: 'must contain digits only',
  tooShort: `must be ${PHONE_LENGTH} digits`,
  tooLong: `must be ${PHONE_LENGTH} digits`,
  notMobile: 'must be a mainland-China mobile number (1, then 3 to 9, then 9 more digits)',
};
