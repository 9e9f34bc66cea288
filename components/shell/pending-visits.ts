import { PENDING_VISITS_KEY, type EarlyVisit, type PendingVisits } from './tracker-wake';

/** Documents kept at most (the last ones left): a tab that never loads a tracker does not grow past them. */
export const MAX_PENDING_DOCUMENTS = 10;

/**
 * The pages of documents of this tab left before their tracker came (./tracker-wake.ts `savePendingVisits`), in the
 * order they were left, removed from the storage: the tracker records them. What the storage holds is the visitor's:
 * only the shape the tracker can record is kept.
 */
export function takePendingVisits(storage: Storage): PendingVisits[] {
  const found: PendingVisits[] = [];
  try {
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(`${PENDING_VISITS_KEY}:`)) keys.push(key);
    }
    for (const key of keys) {
      const pending = parsePending(storage.getItem(key));
      storage.removeItem(key);
      if (pending) found.push(pending);
    }
  } catch {
    // Storage blocked: nothing pending can be read.
  }
  return found.sort((a, b) => a.leftAt - b.leftAt).slice(-MAX_PENDING_DOCUMENTS);
}

function parsePending(text: string | null): PendingVisits | null {
  let p: unknown;
  try {
    p = JSON.parse(text ?? 'null');
  } catch {
    return null;
  }
  if (typeof p !== 'object' || p === null) return null;
  const { visits, referrer, leftAt } = p as Partial<PendingVisits>;
  if (typeof leftAt !== 'number' || typeof referrer !== 'string' || !Array.isArray(visits) || visits.length === 0) return null;
  const isVisit = (v: unknown): v is EarlyVisit =>
    typeof v === 'object' && v !== null && typeof (v as EarlyVisit).url === 'string' && typeof (v as EarlyVisit).enteredAt === 'number';
  return visits.every(isVisit) ? { visits, referrer, leftAt } : null;
}
