import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { Pending, PendingLine } from '@/components/ui/pending';

/**
 * The waiting room's card: one height whatever it says (a line of text, the standing's four figures, a button), so the
 * page below it does not move as the standing comes and changes.
 */
export function QueueFrame({ title, children, busy = false }: { title: string; children: ReactNode; busy?: boolean }) {
  return (
    <Card
      as="section"
      className="mx-3 mt-3 flex min-h-[3.6rem] flex-col p-4"
      aria-labelledby="queue-heading"
      aria-busy={busy}
      id="queue"
      data-testid="queue-panel"
    >
      <h2 id="queue-heading" className="mb-2 text-base font-semibold text-skin-1">
        {title}
      </h2>
      {children}
    </Card>
  );
}

/** The card before the buyer's standing is known: grey bars where the text will be. */
export function QueuePlaceholder({ title }: { title: string }) {
  return (
    <QueueFrame title={title} busy>
      <PendingLine className="mt-1 w-3/4" block />
      <PendingLine className="mt-2 w-1/2" block />
      <Pending className="mt-auto block h-[0.8rem] w-full rounded-full" />
    </QueueFrame>
  );
}
