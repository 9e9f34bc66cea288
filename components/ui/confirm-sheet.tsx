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
 * Confirm sheet (spec §2): a bottom sheet that becomes visible after mount, blocks page scrolling by touch and
 * wheel while open, traps focus, closes on Escape, and answers 300 ms after a choice (after its close animation).
 */
export function ConfirmSheet({ open, title = 'prompt', successIcon = false, content, description, cancelText = 'cancel', confirmText = 'confirm', onCancel, onConfirm, onClose }: Props) {
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
    if (!active) return;
    answered.current = false;
    // Visible after mount (spec §2), two frames later so the hidden state is painted and the slide-in transition runs.
    let frame = window.requestAnimationFrame(() => {
      frame = window.requestAnimationFrame(() => setVisible(true));
    });
    const previous = document.activeElement as HTMLElement | null;
    confirmButton.current?.focus();
    const blockScroll = (event: Event) => {
      if (!panel.current?.contains(event.target as Node)) event.preventDefault();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        answer('cancel');
      } else if (event.key === 'Tab' && panel.current) {
        const focusable = [...panel.current.querySelectorAll<HTMLElement>('button:not([disabled]), [href], [tabindex]:not([tabindex="-1"])')];
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        if (!first || !last) return;
        const inside = panel.current.contains(document.activeElement);
        if (event.shiftKey && (document.activeElement === first || !inside)) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
          event.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('touchmove', blockScroll, { passive: false });
    document.addEventListener('wheel', blockScroll, { passive: false });
    document.addEventListener('keydown', onKey);
    return () => {
      window.cancelAnimationFrame(frame);
      document.removeEventListener('touchmove', blockScroll);
      document.removeEventListener('wheel', blockScroll);
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [active, answer]);

  if (!mounted || typeof document === 'undefined') return null;
  return createPortal(
    <div className="fixed inset-0 z-50 mx-auto flex max-w-(--container-app) flex-col justify-end">
      <div
        data-testid="confirm-backdrop"
        aria-hidden="true"
        onClick={() => answer('cancel')}
        className={`absolute inset-0 bg-black/50 transition-opacity duration-300 motion-reduce:transition-none ${visible ? 'opacity-100' : 'opacity-0'}`}
      />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-visible={visible}
        className={`relative rounded-t-2xl bg-white px-6 pb-[max(0.4rem,env(safe-area-inset-bottom))] pt-6 text-center transition-transform duration-300 motion-reduce:transition-none ${visible ? 'translate-y-0' : 'translate-y-full'}`}
      >
        {successIcon && (
          <svg data-testid="confirm-success-icon" viewBox="0 0 48 48" aria-hidden="true" className="mx-auto mb-3 size-[0.96rem] text-skin-button">
            <circle cx="24" cy="24" r="22" fill="currentColor" />
            <path d="M14 25l7 7 13-15" fill="none" stroke="#fff" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        )}
        <h2 id={titleId} className="text-lg font-semibold text-neutral-900">{title}</h2>
        {content !== undefined && <div className="mt-3 text-base text-neutral-800">{content}</div>}
        {description !== undefined && <div className="mt-2 text-sm text-neutral-500">{description}</div>}
        <div className="mt-6 flex gap-3">
          <button type="button" onClick={() => answer('cancel')} className="h-[0.88rem] flex-1 rounded-full border border-black/10 bg-white text-base font-semibold text-neutral-800 active:scale-95 motion-reduce:active:scale-100">
            {cancelText}
          </button>
          <button ref={confirmButton} type="button" onClick={() => answer('confirm')} className="h-[0.88rem] flex-1 rounded-full bg-skin-button text-base font-semibold text-skin-button-text active:scale-95 motion-reduce:active:scale-100">
            {confirmText}
          </button>
        </div>
      </div>
    </div>,
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
