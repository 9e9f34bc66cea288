'use client';

import { Toaster, toast } from 'sonner';

/** spec §2: message types. */
export const TOAST_TYPES = ['success', 'warn', 'error'] as const;
export type ToastType = (typeof TOAST_TYPES)[number];
/** spec §9: toasts show 3000 ms by default. */
export const TOAST_DURATION_MS = 3000;

/** Shows a toast; any type but success, warn or error is a programming error (spec §5). */
export function showToast(type: ToastType, message: string, durationMs: number = TOAST_DURATION_MS): void {
  if (!(TOAST_TYPES as readonly string[]).includes(type)) {
    throw new Error(`Toast type "${String(type)}" is invalid: must be one of ${TOAST_TYPES.join(', ')}`);
  }
  const options = { duration: durationMs };
  if (type === 'success') toast.success(message, options);
  else if (type === 'warn') toast.warning(message, options);
  else toast.error(message, options);
}

/** Where toasts appear: top centre, sized for a phone. */
export function ToastHost() {
  return <Toaster position="top-center" richColors={false} closeButton={false} visibleToasts={3} offset={16} toastOptions={{ className: 'text-sm' }} />;
}
