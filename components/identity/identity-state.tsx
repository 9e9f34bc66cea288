import Link from 'next/link';

/** What a verified buyer's identity looks like anywhere in the store (issue 33): only the masked forms, never the raw. */
export type MaskedIdentity = { maskedName: string; maskedIdNumber: string; verifiedOn: string };

/**
 * The verified state of /mine/identity: "张* · 1101**********1234, verified on 2026-11-27" and a way back. Shared by the
 * server page (a buyer verified before) and the form (just verified), so both read alike. No hooks: renders anywhere.
 */
export function IdentityState({
  identity,
  back,
  labels,
}: {
  identity: MaskedIdentity;
  /** A same-origin path (lib/auth/redirect.ts safeRedirect has checked it). */
  back: string;
  labels: { verified: string; verifiedOn: string; back: string };
}) {
  return (
    <section className="flex flex-col items-center gap-3 px-2 py-6 text-center" data-testid="identity-verified" aria-live="polite">
      <span aria-hidden="true" className="flex size-12 items-center justify-center rounded-full bg-skin-light text-2xl text-skin-1">
        ✓
      </span>
      <h2 className="text-lg font-semibold text-skin-1">{labels.verified}</h2>
      <p className="text-base text-skin-1" data-testid="identity-masked">
        <span className="font-medium">{identity.maskedName}</span> ·{' '}
        <span className="font-mono tabular-nums">{identity.maskedIdNumber}</span>
      </p>
      <p className="text-sm text-neutral-500">{labels.verifiedOn}</p>
      <Link
        href={back}
        data-testid="identity-back"
        className="mt-3 inline-flex h-[0.8rem] min-w-[3rem] items-center justify-center rounded-full bg-skin-button px-8 text-base font-medium text-skin-button-text shadow-card active:scale-95"
      >
        {labels.back}
      </Link>
    </section>
  );
}
