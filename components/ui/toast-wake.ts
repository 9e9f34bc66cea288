/**
 * The window event a toast raised before the toasts' host is mounted sends (issue 34): the host (./toast.tsx,
 * `ToastHost`) is loaded with the first toast, not with every page (components/shell/shell.tsx, `ToastSlot`).
 */
export const TOAST_WAKE = 'storefront:toast-wake';
/** sessionStorage key of a toast deferred to the next page (./toast.tsx, `deferToast`). */
export const DEFERRED_TOAST_KEY = 'storefront:toast';
