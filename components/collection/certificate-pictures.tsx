'use client';

import { useState } from 'react';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { LazyImageViewer, preloadImageViewer } from '@/components/ui/lazy-image-viewer';

/** The certificate's picture, full width; a tap opens its pictures in the image viewer. */
export function CertificatePictures({
  name,
  cover,
  pictures,
  placeholderColor,
  words,
}: {
  name: string;
  cover: string;
  pictures: string[];
  placeholderColor: string;
  words: { open: string; viewer: string; close: string };
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="block w-full overflow-hidden rounded-xl"
        aria-label={words.open}
        onPointerDown={preloadImageViewer}
        onClick={() => setOpen(true)}
        data-testid="certificate-picture"
      >
        <CollectibleArt collectible={{ name, cover }} named width="full" sizes="7rem" placeholderColor={placeholderColor} priority />
      </button>
      <LazyImageViewer
        images={[cover, ...pictures].map((src) => ({ src, alt: name }))}
        open={open}
        onClose={() => setOpen(false)}
        label={words.viewer}
        closeLabel={words.close}
      />
    </>
  );
}
