import type { ReactNode } from 'react';
import { ArtImage } from './art-image';
import { Pending } from './pending';

/**
 * The page that tells how something ended (issue 30: one shape for spec §2 paySuccess, payFail and chainResult): the
 * channel's picture for it (paySuccessImg, payFailImg, brandResultImg), a title, one line of what happened, the
 * details on a card, the ways on (ButtonLinks, and buttons where the buyer can act again) and a last note.
 */
export function ResultScreen({
  image,
  placeholderColor,
  title,
  message,
  messageTestId,
  children,
  actions,
  note,
}: {
  /** Null while the outcome is not known yet: a pulsing disc in the placeholder colour stands where the picture goes. */
  image: string | null;
  placeholderColor: string;
  title: string;
  message: string;
  messageTestId?: string;
  /** The details: what was bought, what was chained up. */
  children: ReactNode;
  actions: ReactNode;
  note?: string;
}) {
  return (
    <main className="flex flex-col items-center px-5 pt-8 pb-[1.6rem] text-center">
      {image ? (
        <ArtImage
          src={image}
          alt=""
          width={240}
          height={240}
          sizes="2.4rem"
          className="size-[2.4rem]"
          placeholderColor={placeholderColor}
          priority
        />
      ) : (
        <Pending data-testid="result-image-waiting" className="block size-[2.4rem] rounded-full" color={placeholderColor} />
      )}
      <h1 className="mt-4 text-xl font-semibold text-skin-1">{title}</h1>
      <p className="mt-1.5 text-sm text-neutral-500" data-testid={messageTestId}>
        {message}
      </p>
      <div className="mt-6 w-full text-left">{children}</div>
      <div className="mt-6 flex w-full flex-col gap-3">{actions}</div>
      {note ? <p className="mt-4 text-xs text-neutral-500">{note}</p> : null}
    </main>
  );
}
