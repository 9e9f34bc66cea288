'use client';

import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { createRoot } from 'react-dom/client';

/** spec §9: the sheet closes 300 ms after an answer, then the handlers run. */
export const CONFIRM_CLOSE_DELAY_MS = 300;

export type ConfirmSheetOptions = {
  /** spec §2 default: 'prompt'. */
  title?: string;
  successIcon?: boolean;
  content?: ReactNode;
  description?: ReactNode;
  /** spec §2 default: 'cancel'. */
  cancelText?: string;
  /** spec §2 default: 'confirm'. */
  confirmText?: string;
};

type Props = ConfirmSheetOptions & {
  open: boolean;
  onCancel?: () => void;
  onConfirm?: () => void;
  onClose?: () => void;
};

/**
 * Confirm sheet (spec §2): a bottom sheet on the native modal `<dialog>` (`showModal()`: the browser keeps focus in
 * it, makes the page behind it inert and turns Escape into its `cancel` event). It becomes visible after mount,
 * blocks page scrolling by touch and wheel while open (a modal dialog does not stop the page behind it scrolling),
 * and answers 300 ms after a choice (after its close animation).
 */
export function ConfirmSheet({
  open,
  title = 'prompt',
  successIcon = false,
  content,
  description,
  cancelText = 'cancel',
  confirmText = 'confirm',
  onCancel,
  onConfirm,
  onClose,
}: Props) {
  const [visible, setVisible] = useState(false);
  // 'open' until answered, 'closing' during the close delay, 'answered' once the handlers ran. A sheet that was
  // answered stays gone even if the parent leaves `open` true, so no invisible backdrop is left over the page.
  const [phase, setPhase] = useState<'open' | 'closing' | 'answered'>('open');
  const [lastOpen, setLastOpen] = useState(open);
  if (open !== lastOpen) {
    // Re-opening starts afresh: hidden first, then animated in (state adjusted during render, not in an effect).
    setLastOpen(open);
    if (open) {
      setPhase('open');
      setVisible(false);
    }
  }
  // One answer per opening: a double tap, or Escape during the close animation, must not run the handlers twice.
  const answered = useRef(false);
  const panel = useRef<HTMLDivElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  // True while the dialog is shown by us: a `close` event then means the browser closed it (see onClose below).
  const shown = useRef(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const handlers = useRef({ onCancel, onConfirm, onClose });
  useEffect(() => {
    handlers.current = { onCancel, onConfirm, onClose };
  });

  const answer = useCallback((choice: 'cancel' | 'confirm') => {
    if (answered.current) return;
    answered.current = true;
    setPhase('closing');
    setVisible(false);
    window.setTimeout(() => {
      setPhase('answered');
      if (choice === 'confirm') handlers.current.onConfirm?.();
      else handlers.current.onCancel?.();
      handlers.current.onClose?.();
    }, CONFIRM_CLOSE_DELAY_MS);
  }, []);

  const active = open && phase === 'open';
  const mounted = active || phase === 'closing';

  useEffect(() => {
    const element = dialog.current;
    if (!mounted || !element) return;
    const previous = document.activeElement as HTMLElement | null;
    // Browsers without <dialog> (old in-app web views) still show the sheet, without the modal extras.
    if (typeof element.showModal === 'function') element.showModal();
    else element.setAttribute('open', '');
    shown.current = true;
    confirmButton.current?.focus();
    return () => {
      // The dialog has left the page by now (and with it the top layer), so the page is no longer inert.
      shown.current = false;
      previous?.focus?.();
    };
  }, [mounted]);

  useEffect(() => {
    if (!active) return;
    answered.current = false;
    // Visible after mount (spec §2), two frames later so the hidden state is painted and the slide-in transition runs.
    let frame = window.requestAnimationFrame(() => {
      frame = window.requestAnimationFrame(() => setVisible(true));
    });
    const blockScroll = (event: Event) => {
      if (!panel.current?.contains(event.target as Node)) event.preventDefault();
    };
    document.addEventListener('touchmove', blockScroll, { passive: false });
    document.addEventListener('wheel', blockScroll, { passive: false });
    return () => {
      window.cancelAnimationFrame(frame);
      document.removeEventListener('touchmove', blockScroll);
      document.removeEventListener('wheel', blockScroll);
    };
  }, [active]);

  if (!mounted || typeof document === 'undefined') return null;
  return createPortal(
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      data-visible={visible}
      onCancel={(event) => {
        // Escape: stay open for the close animation, and answer as a cancel.
        event.preventDefault();
        answer('cancel');
      }}
      onClose={(event) => {
        // A browser may close the dialog itself (a second Escape it does not let us hold back): that is a cancel too.
        if (shown.current && event.currentTarget.isConnected) answer('cancel');
      }}
      className="fixed inset-0 z-50 mx-auto h-full max-h-full w-full max-w-(--container-app) flex-col justify-end overflow-hidden bg-transparent text-inherit backdrop:bg-transparent open:flex"
    >
      <div
        data-testid="confirm-backdrop"
        aria-hidden="true"
        onClick={() => answer('cancel')}
        className={`absolute inset-0 bg-black/50 transition-opacity duration-300 motion-reduce:transition-none ${visible ? 'opacity-100' : 'opacity-0'}`}
      />
      <div
        ref={panel}
        className={`relative rounded-t-2xl bg-white px-6 pt-6 pb-[max(0.4rem,env(safe-area-inset-bottom))] text-center transition-transform duration-300 motion-reduce:transition-none ${visible ? 'translate-y-0' : 'translate-y-full'}`}
      >
        {successIcon && (
          <svg
            data-testid="confirm-success-icon"
            viewBox="0 0 48 48"
            aria-hidden="true"
            className="mx-auto mb-3 size-[0.96rem] text-skin-button"
          >
            <circle cx="24" cy="24" r="22" fill="currentColor" />
            <path d="M14 25l7 7 13-15" fill="none" stroke="#fff" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        )}
        <h2 id={titleId} className="text-lg font-semibold text-neutral-900">
          {title}
        </h2>
        {content !== undefined && <div className="mt-3 text-base text-neutral-800">{content}</div>}
        {description !== undefined && <div className="mt-2 text-sm text-neutral-500">{description}</div>}
        <div className="mt-6 flex gap-3">
          <button
            type="button"
            onClick={() => answer('cancel')}
            className="h-[0.88rem] flex-1 rounded-full border border-black/10 bg-white text-base font-semibold text-neutral-800 active:scale-95 motion-reduce:active:scale-100"
          >
            {cancelText}
          </button>
          <button
            ref={confirmButton}
            type="button"
            onClick={() => answer('confirm')}
            className="h-[0.88rem] flex-1 rounded-full bg-skin-button text-base font-semibold text-skin-button-text active:scale-95 motion-reduce:active:scale-100"
          >
            {confirmText}
          </button>
        </div>
      </div>
    </dialog>,
    document.body,
  );
}

/**
 * Promise API (spec §2): resolves when the user confirms, rejects (Error 'cancelled') on cancel, Escape or a tap
 * outside. The sheet removes itself after its close delay.
 */
export function confirm(options: ConfirmSheetOptions = {}): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    const root = createRoot(host);
    const close = () => {
      window.setTimeout(() => {
        root.unmount();
        host.remove();
      }, 0);
    };
    root.render(<ConfirmSheet {...options} open onConfirm={resolve} onCancel={() => reject(new Error('cancelled'))} onClose={close} />);
  });
}
