'use client';

import { useEffect } from 'react';
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

const DEFERRED_KEY = 'storefront:toast';

/** Shows a toast on the next page after a full navigation (e.g. 'welcome' after login, which reloads the page). */
export function deferToast(type: ToastType, message: string): void {
  try {
    sessionStorage.setItem(DEFERRED_KEY, JSON.stringify({ type, message }));
  } catch {
    showToast(type, message); // storage blocked: show it now instead
  }
}

function takeDeferred(): { type: ToastType; message: string } | null {
  try {
    const raw = sessionStorage.getItem(DEFERRED_KEY);
    sessionStorage.removeItem(DEFERRED_KEY);
    const value: unknown = raw ? JSON.parse(raw) : null;
    if (!value || typeof value !== 'object') return null;
    const { type, message } = value as { type?: unknown; message?: unknown };
    return typeof message === 'string' && (TOAST_TYPES as readonly unknown[]).includes(type) ? { type: type as ToastType, message } : null;
  } catch {
    return null;
  }
}

/** Where toasts appear: top centre, sized for a phone. Shows a deferred toast once on mount. */
export function ToastHost() {
  useEffect(() => {
    const deferred = takeDeferred();
    // After the toaster has mounted.
    if (deferred) setTimeout(() => showToast(deferred.type, deferred.message), 0);
  }, []);
  return (
    <Toaster
      position="top-center"
      richColors={false}
      closeButton={false}
      visibleToasts={3}
      offset={16}
      toastOptions={{ className: 'text-sm' }}
    />
  );
}
