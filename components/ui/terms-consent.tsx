import { Fragment } from 'react';
import Link from 'next/link';

/**
 * The box a buyer ticks to agree to the store's terms before logging in or paying (issue 30: one shape for both):
 * "I have read and agree to" and the agreements, each a link to its page (spec §2 /agreement/:location).
 */
export function TermsConsent({
  checked,
  onChange,
  agree,
  and,
  terms,
  className = '',
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** The words before the links. */
  agree: string;
  /** The word between two links. */
  and?: string;
  terms: { href: string; label: string }[];
  className?: string;
}) {
  return (
    <label className={`flex items-start gap-2 text-sm leading-snug text-neutral-600 ${className}`.trim()}>
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-0.5 size-4 shrink-0 accent-(--skin-color1)"
      />
      <span>
        {agree}{' '}
        {terms.map((term, i) => (
          <Fragment key={term.href}>
            {i > 0 ? <> {and} </> : null}
            <Link href={term.href} className="text-skin-1 underline underline-offset-2">
              {term.label}
            </Link>
          </Fragment>
        ))}
      </span>
    </label>
  );
}
