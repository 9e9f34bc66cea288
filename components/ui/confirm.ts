'use client';

import type { ConfirmSheetOptions } from './confirm-sheet';

export type { ConfirmSheetOptions };

/**
 * The confirm sheet's promise API (spec §2; components/ui/confirm-sheet.tsx), loading the sheet on first use rather
 * than with every page that has a button asking for it. Resolves when the user confirms; rejects on cancel, Escape, a
 * tap outside, or when the sheet could not be loaded (callers treat every rejection as "not confirmed").
 */
export async function confirm(options: ConfirmSheetOptions = {}): Promise<void> {
  const sheet = await import('./confirm-sheet');
  return sheet.confirm(options);
}
