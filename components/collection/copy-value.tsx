'use client';

import { useState } from 'react';
import { copyText } from '@/components/share/copy-text';

/**
 * One long value of a certificate (a token id, a transaction hash) in full, with its copy button (issue 36): monospace,
 * breaking anywhere inside the value, so it never widens the page; the button says "Copied" for a moment after a tap.
 */
export function CopyValue({
  value,
  copy,
  copied,
  label,
  testId,
}: {
  value: string;
  copy: string;
  copied: string;
  /** What the button does, for a screen reader ("Copy the token ID"). */
  label: string;
  testId: string;
}) {
  const [done, setDone] = useState(false);
  return (
    <span className="flex min-w-0 items-start gap-2">
      <code className="min-w-0 flex-1 font-mono text-xs leading-snug break-all text-neutral-800 select-all" data-testid={testId}>
        {value}
      </code>
      <button
        type="button"
        aria-label={label}
        className="shrink-0 rounded-full border border-black/10 bg-skin-card px-2.5 py-0.5 text-xs font-medium text-skin-1 active:bg-skin-light"
        data-testid={`${testId}-copy`}
        onClick={async () => {
          if (await copyText(value)) {
            setDone(true);
            window.setTimeout(() => setDone(false), 2000);
          }
        }}
      >
        <span aria-live="polite">{done ? copied : copy}</span>
      </button>
    </span>
  );
}
