'use client';

import { useState, type MouseEvent, type ReactNode } from 'react';
import { LazyImageViewer, preloadImageViewer } from '@/components/ui/lazy-image-viewer';
import type { ViewerImage } from '@/components/ui/image-viewer';

/** The picture link a tap or press landed on: one of the gallery's `<a data-viewer-index>`. */
function pictureLink(target: EventTarget | null): HTMLAnchorElement | null {
  return target instanceof Element ? target.closest<HTMLAnchorElement>('a[data-viewer-index]') : null;
}

/**
 * The goods page's one island (issue 34): around the gallery's server-rendered picture links, it opens the image viewer
 * on a tap once the page's scripts have run. Before then, the links open the full picture as plain links do. A tap
 * meant for a new tab or a download (a modifier key, a middle click) is left to the browser.
 */
export function GalleryViewer({
  images,
  viewerLabel,
  closeLabel,
  children,
}: {
  images: ViewerImage[];
  viewerLabel: string;
  closeLabel: string;
  children: ReactNode;
}) {
  const [viewing, setViewing] = useState<number | null>(null);
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const link = pictureLink(event.target);
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const index = Number(link.dataset.viewerIndex);
    if (!Number.isInteger(index) || index < 0 || index >= images.length) return;
    event.preventDefault();
    setViewing(index);
  };
  return (
    <div
      onClick={onClick}
      onPointerDown={(event) => {
        if (pictureLink(event.target)) preloadImageViewer();
      }}
    >
      {children}
      <LazyImageViewer
        images={images}
        startIndex={viewing ?? 0}
        open={viewing !== null}
        onClose={() => setViewing(null)}
        label={viewerLabel}
        closeLabel={closeLabel}
        key={viewing ?? -1}
      />
    </div>
  );
}
