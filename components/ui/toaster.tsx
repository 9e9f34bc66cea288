'use client';

import { Toaster, toast } from 'sonner';
import type { ToastType } from './toast';

/**
 * The part of the toasts that needs sonner, loaded by components/ui/toast.tsx when the first toast is raised (most
 * page views raise none, so sonner stays out of the first load).
 */

/** Hands one toast to sonner; its <Toaster> shows toasts raised before it subscribed too. */
export function raise(type: ToastType, message: string, durationMs: number): void {
  const options = { duration: durationMs };
  if (type === 'success') toast.success(message, options);
  else if (type === 'warn') toast.warning(message, options);
  else toast.error(message, options);
}

/** Takes every toast off the screen. */
export function dismissAll(): void {
  toast.dismiss();
}

/** Where toasts appear: top centre, sized for a phone; `label` names the region in the page's language (issue 30). */
export function ToastViewport({ label }: { label: string }) {
  return (
    <Toaster
      containerAriaLabel={label}
      position="top-center"
      richColors={false}
      closeButton={false}
      visibleToasts={3}
      offset={16}
      toastOptions={{ className: 'text-sm' }}
    />
  );
}
