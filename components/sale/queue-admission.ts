/**
 * The waiting room's admission (issue 35) carried from the goods page to the pay page: kept in this tab's session
 * storage per sale (never in the address, which a shared link or a history would keep), read by the pay page's buy.
 */
const KEY = (saleId: string) => `queue-admission:${saleId}`;

type Kept = { token: string; expiresAt: number };

export function keepAdmission(saleId: string, token: string, expiresAt: number): void {
  try {
    window.sessionStorage.setItem(KEY(saleId), JSON.stringify({ token, expiresAt } satisfies Kept));
  } catch {
    // Storage off (private mode): the buy goes without it, and the server says why.
  }
}

/** The admission kept for this sale, unless it has run out by this browser's clock. */
export function keptAdmission(saleId: string, now: number = Date.now()): string | null {
  try {
    const raw = window.sessionStorage.getItem(KEY(saleId));
    if (!raw) return null;
    const kept = JSON.parse(raw) as Partial<Kept>;
    if (typeof kept.token !== 'string' || typeof kept.expiresAt !== 'number') return null;
    return kept.expiresAt > now ? kept.token : null;
  } catch {
    return null;
  }
}
