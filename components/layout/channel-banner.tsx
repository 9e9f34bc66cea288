import { ArtImage } from '@/components/ui/art-image';

/**
 * The full-width picture at the top of a channel's list pages (home, activities, gifts, chain-up): the channel's
 * banner or chain-up cover, named by its brand, loaded first (it is the pages' largest paint).
 */
export function ChannelBanner({ src, brandName, placeholderColor }: { src: string; brandName: string; placeholderColor: string }) {
  return (
    <ArtImage
      src={src}
      alt={brandName}
      width={750}
      height={360}
      sizes="(max-width: 450px) 100vw, 450px"
      className="w-full"
      priority
      opaque
      placeholderColor={placeholderColor}
    />
  );
}
