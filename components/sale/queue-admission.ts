/**
 * The waiting room's admission (issue 35) carried from the goods page to the pay page: kept in this tab's session
 * storage per sale (never in the address, which a shared link or a history would keep), read by the pay page's buy.
 */
const KEY = (saleId: string) => `queue-admission:${saleId}`;

export type Kept = { token: string; expiresAt: number };

export function keepAdmission(saleId: string, token: string, expiresAt: number): void {
  try {
    window.sessionStorage.setItem(KEY(saleId), JSON.stringify({ token, expiresAt } satisfies Kept));
  } catch {
    // Storage off (private mode): the buy goes without it, and the server says why.
  }
}

/** The admission kept for this sale, unless it has run out by this browser's clock. */
export function keptAdmission(saleId: string, now: number = Date.now()): string | null {
  const kept = parseKept(keptAdmissionText(saleId));
  return kept && kept.expiresAt > now ? kept.token : null;
}

/**
 * The kept admission's stored text for this sale, as it is (null without one): a stable value for the pay page's
 * `useSyncExternalStore`, read with `parseKept`.
 */
export function keptAdmissionText(saleId: string): string | null {
  try {
    return window.sessionStorage.getItem(KEY(saleId));
  } catch {
    return null;
  }
}

/** A kept admission's text read: its token and end (ms), run out or not; null when there is none or it is not one. */
export function parseKept(raw: string | null): Kept | null {
  if (!raw) return null;
  try {
    const kept = JSON.parse(raw) as Partial<Kept>;
    if (typeof kept.token !== 'string' || typeof kept.expiresAt !== 'number') return null;
    return { token: kept.token, expiresAt: kept.expiresAt };
  } catch {
    return null;
  }
}
