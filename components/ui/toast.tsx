'use client';

import { useEffect, useState, useSyncExternalStore } from 'react';
import { DEFERRED_TOAST_KEY, TOAST_WAKE } from './toast-wake';

/** spec §2: message types. */
export const TOAST_TYPES = ['success', 'warn', 'error'] as const;
export type ToastType = (typeof TOAST_TYPES)[number];
/** spec §9: toasts show 3000 ms by default. */
export const TOAST_DURATION_MS = 3000;

/*
 * The toast library (sonner, in ./toaster) is loaded when the first toast is raised, not with every page: most page
 * views raise none. A toast raised while it loads is shown once it has loaded (sonner's <Toaster> shows the toasts
 * raised before it mounted). Should the chunk fail to load (the connection dropped, which is when the busy toast
 * matters most), the host shows the message itself, plainly, for the same time.
 */

type ToasterModule = typeof import('./toaster');
type PlainToast = { id: number; type: ToastType; message: string; durationMs: number };

let loading: Promise<ToasterModule> | null = null;
let loaded: ToasterModule | null = null;
/** Mounted hosts, told when sonner has loaded. */
const loadListeners = new Set<() => void>();
/** Mounted hosts, handed the toasts sonner could not show. */
const plainListeners = new Set<(toast: PlainToast) => void>();
let plainIds = 0;

function loadToaster(): Promise<ToasterModule> {
  loading ??= import('./toaster').then(
    (module) => {
      loaded = module;
      for (const listener of loadListeners) listener();
      return module;
    },
    (error: unknown) => {
      loading = null; // the next toast tries again
      throw error;
    },
  );
  return loading;
}

/** Shows a toast; any type but success, warn or error is a programming error (spec §5). */
export function showToast(type: ToastType, message: string, durationMs: number = TOAST_DURATION_MS): void {
  if (!(TOAST_TYPES as readonly string[]).includes(type)) {
    throw new Error(`Toast type "${String(type)}" is invalid: must be one of ${TOAST_TYPES.join(', ')}`);
  }
  // The host is loaded with the first toast (components/shell/shell.tsx): wake it.
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(TOAST_WAKE));
  if (loaded) {
    loaded.raise(type, message, durationMs);
    return;
  }
  loadToaster().then(
    (module) => module.raise(type, message, durationMs),
    (error: unknown) => {
      console.warn('[toast] could not load the toasts; showing the message plainly', error);
      const toast = { id: ++plainIds, type, message, durationMs };
      for (const listener of plainListeners) listener(toast);
    },
  );
}

/** Mounted hosts, told to take their plain toasts off the screen. */
const clearListeners = new Set<() => void>();

/**
 * Takes every toast shown off the screen: a warning about a form that has since been put right must not follow the
 * buyer onto the next page (issue 17, item 11: "please agree" was still up on the payment-success page).
 */
export function dismissToasts(): void {
  loaded?.dismissAll();
  for (const listener of clearListeners) listener();
}

const DEFERRED_KEY = DEFERRED_TOAST_KEY;

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

function subscribeToLoad(listener: () => void): () => void {
  loadListeners.add(listener);
  return () => {
    loadListeners.delete(listener);
  };
}

/**
 * Where toasts appear (top centre, sized for a phone, ./toaster): nothing until the first toast loads sonner.
 * Shows a deferred toast once on mount.
 */
export function ToastHost({ label }: { label: string }) {
  const toaster = useSyncExternalStore(
    subscribeToLoad,
    () => loaded,
    () => null,
  );
  const [plain, setPlain] = useState<PlainToast[]>([]);
  useEffect(() => {
    const listener = (toast: PlainToast) => {
      setPlain((shown) => [...shown, toast]);
      window.setTimeout(() => setPlain((shown) => shown.filter((t) => t.id !== toast.id)), toast.durationMs);
    };
    plainListeners.add(listener);
    const clear = () => setPlain([]);
    clearListeners.add(clear);
    const deferred = takeDeferred();
    if (deferred) showToast(deferred.type, deferred.message);
    return () => {
      plainListeners.delete(listener);
      clearListeners.delete(clear);
    };
  }, []);
  return (
    <>
      {toaster && <toaster.ToastViewport label={label} />}
      {/* Toasts sonner could not show: in a live region that is there before they are, so screen readers read them. */}
      <div
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 top-4 z-[999999] mx-auto flex max-w-[356px] flex-col gap-2 px-4"
      >
        {plain.map((toast) => (
          <p key={toast.id} data-type={toast.type} className="rounded-lg bg-white p-4 text-sm text-neutral-900 shadow-lg">
            {toast.message}
          </p>
        ))}
      </div>
    </>
  );
}
