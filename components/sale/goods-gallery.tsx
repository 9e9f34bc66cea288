'use client';

import { useState } from 'react';
import { CollectibleArt, type ArtOf } from '@/components/ui/collectible-art';
import { LazyImageViewer, preloadImageViewer } from '@/components/ui/lazy-image-viewer';

type Props = {
  collectible: ArtOf;
  /** Its other pictures, after the cover. */
  pictures: string[];
  galleryLabel: string;
  /** Accessible name of each image button, e.g. 'View Aurora Dawn full screen'. */
  openLabel: string;
  viewerLabel: string;
  closeLabel: string;
  placeholderColor: string;
};

/**
 * The goods page's cover and gallery (server-rendered images, no layout shift); tapping one opens the image viewer.
 */
export function GoodsGallery({ collectible, pictures, galleryLabel, viewerLabel, closeLabel, placeholderColor, openLabel }: Props) {
  const [viewing, setViewing] = useState<number | null>(null);
  const images = [collectible.cover, ...pictures].map((src) => ({ src, alt: collectible.name }));
  return (
    <>
      <button
        type="button"
        className="block w-full"
        aria-label={openLabel}
        onPointerDown={preloadImageViewer}
        onClick={() => setViewing(0)}
      >
        <CollectibleArt
          collectible={collectible}
          named
          width="full"
          sizes="(max-width: 450px) 100vw, 450px"
          lcp
          placeholderColor={placeholderColor}
        />
      </button>
      {pictures.length > 0 && (
        <section aria-label={galleryLabel} className="flex gap-2 overflow-x-auto px-3 pt-3">
          {pictures.map((picture, i) => (
            <button
              key={picture}
              type="button"
              className="shrink-0"
              aria-label={`${openLabel} (${i + 2})`}
              onPointerDown={preloadImageViewer}
              onClick={() => setViewing(i + 1)}
            >
              <CollectibleArt collectible={collectible} picture={picture} named width="1.6rem" placeholderColor={placeholderColor} />
            </button>
          ))}
        </section>
      )}
      <LazyImageViewer
        images={images}
        startIndex={viewing ?? 0}
        open={viewing !== null}
        onClose={() => setViewing(null)}
        label={viewerLabel}
        closeLabel={closeLabel}
        key={viewing ?? -1}
      />
    </>
  );
}
