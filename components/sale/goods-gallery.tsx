'use client';

import { useState } from 'react';
import { ArtImage } from '@/components/ui/art-image';
import type { ViewerImage } from '@/components/ui/image-viewer';
import { LazyImageViewer, preloadImageViewer } from '@/components/ui/lazy-image-viewer';

type Props = {
  images: ViewerImage[];
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
export function GoodsGallery({ images, galleryLabel, viewerLabel, closeLabel, placeholderColor, openLabel }: Props) {
  const [viewing, setViewing] = useState<number | null>(null);
  const [cover, ...rest] = images;
  if (!cover) return null;
  return (
    <>
      <button
        type="button"
        className="block w-full"
        aria-label={openLabel}
        onPointerDown={preloadImageViewer}
        onClick={() => setViewing(0)}
      >
        <ArtImage
          src={cover.src}
          alt={cover.alt}
          width={600}
          height={600}
          sizes="(max-width: 450px) 100vw, 450px"
          className="w-full"
          lcp
          placeholderColor={placeholderColor}
        />
      </button>
      {rest.length > 0 && (
        <section aria-label={galleryLabel} className="flex gap-2 overflow-x-auto px-3 pt-3">
          {rest.map((img, i) => (
            <button
              key={img.src}
              type="button"
              className="shrink-0"
              aria-label={`${openLabel} (${i + 2})`}
              onPointerDown={preloadImageViewer}
              onClick={() => setViewing(i + 1)}
            >
              <ArtImage
                src={img.src}
                alt={img.alt}
                width={600}
                height={600}
                sizes="1.6rem"
                className="w-[1.6rem] rounded-lg"
                placeholderColor={placeholderColor}
              />
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
