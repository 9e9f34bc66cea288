import type { HTMLAttributes } from 'react';

/**
 * What a page shows where something not read yet will be (issue 34: the buyer's own part of a cached page, a paid
 * order's picture): one shape for every such place. It takes the size and shape of what it stands for (`className`),
 * so nothing moves when that comes; it pulses, unless the buyer asked for less motion; screen readers skip it (the
 * region it sits in says `aria-busy`). Grey, or `color` (the channel's placeholder colour, for a picture).
 */
export function Pending({
  className,
  color,
  ...rest
}: { className: string; color?: string } & Omit<HTMLAttributes<HTMLSpanElement>, 'style'>) {
  return (
    <span
      {...rest}
      aria-hidden="true"
      className={['motion-safe:animate-pulse', color ? '' : 'bg-neutral-200', className].filter(Boolean).join(' ')}
      style={color ? { backgroundColor: color } : undefined}
    />
  );
}

/** A line of text not read yet: a bar as high as the line, in the line (or, `block`, on a line of its own). */
export function PendingLine({ className, block = false }: { /** Width and place, e.g. `w-24`. */ className: string; block?: boolean }) {
  return <Pending className={`${block ? 'block' : 'inline-block align-middle'} h-[1em] rounded ${className}`} />;
}
