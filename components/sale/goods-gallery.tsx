import { CollectibleArt, type ArtOf } from '@/components/ui/collectible-art';
import { GalleryViewer } from './gallery-viewer';

type Props = {
  collectible: ArtOf;
  /** Its other pictures, after the cover. */
  pictures: string[];
  galleryLabel: string;
  /** Accessible name of each picture's link, e.g. 'View Aurora Dawn full screen'. */
  openLabel: string;
  viewerLabel: string;
  closeLabel: string;
  placeholderColor: string;
};

/** The pressed state a tap shows at once, before any script (issue 34). */
export const PICTURE_PRESSED = 'active:opacity-80';

/**
 * The goods page's cover and gallery as server HTML (no layout shift): each picture is a real link to the full picture,
 * which a tap opens even before the page's scripts have arrived (issue 34: for about four seconds on a slow phone a
 * tap on the cover did nothing). Once they have, the viewer island (./gallery-viewer) takes the tap and opens the
 * image viewer instead.
 */
export function GoodsGallery({ collectible, pictures, galleryLabel, viewerLabel, closeLabel, placeholderColor, openLabel }: Props) {
  const images = [collectible.cover, ...pictures].map((src) => ({ src, alt: collectible.name }));
  return (
    <GalleryViewer images={images} viewerLabel={viewerLabel} closeLabel={closeLabel}>
      <a
        href={collectible.cover}
        data-viewer-index={0}
        data-testid="goods-cover"
        className={`block w-full ${PICTURE_PRESSED}`}
        aria-label={openLabel}
      >
        <CollectibleArt
          collectible={collectible}
          named
          width="full"
          sizes="(max-width: 450px) 100vw, 450px"
          lcp
          placeholderColor={placeholderColor}
        />
      </a>
      {pictures.length > 0 && (
        <section aria-label={galleryLabel} className="flex gap-2 overflow-x-auto px-3 pt-3">
          {pictures.map((picture, i) => (
            <a
              key={picture}
              href={picture}
              data-viewer-index={i + 1}
              className={`shrink-0 ${PICTURE_PRESSED}`}
              aria-label={`${openLabel} (${i + 2})`}
            >
              <CollectibleArt
                collectible={collectible}
                picture={picture}
                named
                width="1.6rem"
                placeholderColor={placeholderColor}
                afterScripts
              />
            </a>
          ))}
        </section>
      )}
    </GalleryViewer>
  );
}
