'use client';

import { useId } from 'react';
import { Card } from './card';

/**
 * The field for a 26-character code read off a card or a box (redeem codes, chain-up codes; lib/redeem-code): no
 * autocorrect or autocomplete, capitals offered, monospace so groups line up, and a hint tied to it. `card` wraps it
 * in its own card; otherwise it sits inside the caller's.
 */
export function CodeField({
  label,
  hint,
  value,
  onChange,
  card = false,
}: {
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  card?: boolean;
}) {
  const id = useId();
  const Frame = card ? Card : 'div';
  return (
    <Frame className={`flex flex-col gap-1 ${card ? 'p-4' : ''}`}>
      <label htmlFor={id} className="text-sm font-medium text-skin-1">
        {label}
      </label>
      <input
        id={id}
        aria-describedby={`${id}-hint`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete="off"
        autoCapitalize="characters"
        autoCorrect="off"
        spellCheck={false}
        maxLength={64}
        name="code"
        className="rounded-lg border border-black/10 px-3 py-2 font-mono text-sm tracking-wide outline-none focus:border-(--skin-color1)"
        placeholder="XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XX"
      />
      <span id={`${id}-hint`} className="text-xs text-neutral-500">
        {hint}
      </span>
    </Frame>
  );
}
