'use client';

import type { ImgHTMLAttributes } from 'react';
import { useHydrated } from '@/lib/client/use-hydrated';

/** A transparent pixel: an image without an address would be drawn by the browser as a broken one. */
const NOTHING = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/**
 * A picture asked for only once the page's scripts are alive (issue 34; components/ui/art-image.tsx `afterScripts`):
 * the HTML and the hydration render it as a transparent pixel on its placeholder colour, so that on a slow link its
 * bytes do not share the link with the scripts the page needs to come alive; then it renders it with its address. On
 * a page the app navigates to, the scripts are already alive: it has its address from its first render.
 */
export function LateImage({ src, srcSet, alt, ...rest }: ImgHTMLAttributes<HTMLImageElement>) {
  const alive = useHydrated();
  // eslint-disable-next-line @next/next/no-img-element -- next/image's own props (getImageProps), as ArtImage renders them
  return <img {...rest} alt={alt} src={alive ? src : NOTHING} srcSet={alive ? srcSet : undefined} data-late="" />;
}
