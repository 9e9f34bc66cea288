/** A number of whole seconds as days, hours, minutes and seconds (a countdown's parts). */
export function countdownParts(totalSeconds: number): { days: number; hours: number; minutes: number; seconds: number } {
  const s = Math.max(0, Math.floor(totalSeconds));
  return { days: Math.floor(s / 86_400), hours: Math.floor(s / 3600) % 24, minutes: Math.floor(s / 60) % 60, seconds: s % 60 };
}

const two = (n: number) => String(n).padStart(2, '0');

/** "HH:MM:SS" of what is left below a day: digits and colons read the same in every locale we have. */
export function clockText({ hours, minutes, seconds }: { hours: number; minutes: number; seconds: number }): string {
  return `${two(hours)}:${two(minutes)}:${two(seconds)}`;
}
