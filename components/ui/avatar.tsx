import { ArtImage } from './art-image';

/** The sizes a person's picture is shown at: beside an artist's name on the goods page, on the buyer's profile. */
const SIZES = {
  '0.56rem': 'size-[0.56rem]',
  '1.2rem': 'size-[1.2rem]',
} as const;

/**
 * A person's round picture (issue 30): the artist on the goods page, the buyer on /mine (their own, or the channel's
 * userFaceImg). Decoration beside the name unless `alt` names it.
 */
export function Avatar({
  src,
  alt = '',
  size,
  placeholderColor,
  className = '',
  afterScripts,
}: {
  src: string;
  alt?: string;
  size: keyof typeof SIZES;
  placeholderColor: string;
  /** Look beyond the picture's own (the dimmed one a visitor sees). */
  className?: string;
  /** Asked for once the page's scripts are alive (./art-image.tsx). */
  afterScripts?: boolean;
}) {
  return (
    <ArtImage
      src={src}
      alt={alt}
      width={160}
      height={160}
      sizes={size}
      className={`${SIZES[size]} shrink-0 rounded-full ${className}`.trim()}
      placeholderColor={placeholderColor}
      afterScripts={afterScripts}
    />
  );
}
