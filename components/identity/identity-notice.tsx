import Link from 'next/link';

/**
 * The line above a Buy or Pay button where the channel asks a verified real name or an age (issue 33): what the store
 * asks and, for a buyer who has not verified, the link to verify and come back. No hooks: the server pages and the
 * pay form render the same one.
 */
export function IdentityNotice({
  message,
  verify,
  testId = 'identity-notice',
}: {
  message: string;
  /** The link to /mine/identity?back=<this page>, for a buyer who can still verify; none for a rule they cannot meet. */
  verify?: { href: string; label: string };
  testId?: string;
}) {
  return (
    <p role="note" className="w-full rounded-lg bg-skin-light px-3 py-2 text-xs leading-snug text-skin-1" data-testid={testId}>
      {message}
      {verify ? (
        <>
          {' '}
          <Link
            href={verify.href}
            className="font-semibold whitespace-nowrap underline underline-offset-2"
            data-testid="identity-verify-link"
          >
            {verify.label}
          </Link>
        </>
      ) : null}
    </p>
  );
}

/** The verification page's address that brings the buyer back to `path` afterwards (issue 33). */
export { verifyHref } from './verify-href';
