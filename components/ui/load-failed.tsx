/**
 * A page's buyer part that did not load (issue 34: the pay page's payState, the result page's order, the cashier's
 * payment): what did not come, and a button that asks again. An alert, so a screen reader says it when it appears.
 */
export function LoadFailed({ message, again, onRetry, testId }: { message: string; again: string; onRetry: () => void; testId: string }) {
  return (
    <p role="alert" className="rounded-lg bg-amber-50 px-3 py-2 text-xs leading-snug text-amber-900" data-testid={testId}>
      {message}{' '}
      <button type="button" onClick={onRetry} className="font-semibold underline underline-offset-2">
        {again}
      </button>
    </p>
  );
}
