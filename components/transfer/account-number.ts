/**
 * A buyer's account number as the gift pages show it (3-3-4, as Mine's profile card writes it: easy to read out to a
 * friend). Plain, so server pages use it too (Mine's own is in a client module).
 */
export function spacedAccountNumber(number: string): string {
  return number.replace(/^(\d{3})(\d{3})(\d{4})$/, '$1 $2 $3');
}
