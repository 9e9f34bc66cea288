import Image from 'next/image';

type Props = {
  src: string;
  alt: string;
  width: number;
  height: number;
  /** Responsive sizes hint, e.g. "(max-width: 450px) 100vw, 450px". */
  sizes: string;
  className?: string;
  /** Above the fold: loaded eagerly and preloaded from the document head. */
  priority?: boolean;
  /**
   * The one image a page's first view is judged by (its Largest Contentful Paint; implies priority): fetched ahead of
   * the scripts and the other images instead of at images' default low priority (the preload says so too), and
   * decoded with the frame it first appears in rather than a later one, which a busy main thread can hold back.
   */
  lcp?: boolean;
  /** Colour of the placeholder shown until the image arrives. */
  placeholderColor?: string;
};

/**
 * Images through next/image with intrinsic size (no layout shift) and the channel's colour as placeholder until the
 * image arrives. SVG art is served as-is (nothing to optimise); raster images go through the optimiser.
 */
export function ArtImage({ src, alt, width, height, sizes, className, priority, lcp, placeholderColor = '#e5e7eb' }: Props) {
  const isSvg = src.toLowerCase().split('?')[0]!.endsWith('.svg');
  return (
    <Image
      src={src}
      alt={alt}
      width={width}
      height={height}
      sizes={sizes}
      className={className}
      // Next 16 names it preload (priority is deprecated): eager loading and a <link rel="preload"> in the head.
      preload={priority || lcp}
      fetchPriority={lcp ? 'high' : undefined}
      decoding={lcp ? 'sync' : 'async'}
      unoptimized={isSvg}
      placeholder={colourPlaceholder(placeholderColor)}
      style={{ aspectRatio: `${width} / ${height}`, height: 'auto' }}
    />
  );
}

/**
 * A flat colour as a data-URI placeholder. Not Next's placeholder="blur": blurring one colour changes nothing, and
 * it wraps the colour in an SVG filter that each image's markup carries (about 1.3 kB) and the browser must paint.
 */
function colourPlaceholder(color: string): `data:image/${string}` {
  const safe = /^#[0-9a-fA-F]{3,8}$/.test(color) ? color : '#e5e7eb';
  // Only < > # need escaping inside the quoted url() Next puts it in.
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'><rect width='1' height='1' fill='${safe}'/></svg>`;
  return `data:image/svg+xml,${svg.replace(/[<>#]/g, (c) => encodeURIComponent(c))}`;
}
