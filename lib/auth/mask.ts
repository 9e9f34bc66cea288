/** spec §3: a masked phone shows the first 3 digits, ****, and the last 4 digits. Pure; client and server. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 7) return digits;
  return `${digits.slice(0, 3)}****${digits.slice(-4)}`;
}
