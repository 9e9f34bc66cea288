'use client';

import { useState, type ReactNode } from 'react';
import { useTranslations } from 'use-intl';
import { confirm } from './confirm';
import { Card } from './card';

export type ConfirmButtonProps = {
  /** The confirm sheet's question. */
  question: string;
  /**
   * What runs once the buyer confirmed; the button is disabled meanwhile. A failure tells the buyer itself (the API
   * client's toast), so the button only stops being busy.
   */
  onConfirmed: () => Promise<void>;
  /** Stays disabled after the action: it leaves the page (logging out), so no second tap while the next page loads. */
  staysBusy?: boolean;
  /** Drawn as a card (Mine's logout) rather than a plain button. */
  card?: boolean;
  className: string;
  children: ReactNode;
  'data-testid'?: string;
};

/**
 * A button that asks first (spec §2's confirm sheet: "prompt", the question, cancel and confirm), then acts: signing out
 * (components/auth/logout-button.tsx) and signing out of the other sessions (components/profile/sign-out-others.tsx).
 * Cancelling does nothing.
 */
export function ConfirmButton({
  question,
  onConfirmed,
  staysBusy = false,
  card = false,
  className,
  children,
  ...rest
}: ConfirmButtonProps) {
  const common = useTranslations('common');
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    try {
      await confirm({ title: common('prompt'), content: question, cancelText: common('cancel'), confirmText: common('confirm') });
    } catch {
      return; // cancelled
    }
    setBusy(true);
    let done = false;
    try {
      await onConfirmed();
      done = true;
    } catch {
      // The action told the buyer why.
    } finally {
      if (!(done && staysBusy)) setBusy(false);
    }
  };
  const props = { type: 'button' as const, disabled: busy, onClick, className, 'data-testid': rest['data-testid'], children };
  return card ? <Card as="button" {...props} /> : <button {...props} />;
}
