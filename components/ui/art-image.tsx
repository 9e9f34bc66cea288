import { getImageProps } from 'next/image';
import { preload } from 'react-dom';
import { LateImage } from './late-image';

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
  /**
   * The picture covers its whole box (a collectible's art, a banner): the placeholder colour stays behind it. Otherwise
   * (a logo, an avatar, an icon, which may be partly transparent) no placeholder is drawn, since nothing would take it
   * away once the picture has loaded.
   */
  opaque?: boolean;
  /**
   * A picture of the page's first view that is not what the page is judged by (a gallery's thumbnail, an artist's
   * face): asked for once the page's scripts are alive, not while they come (./late-image.tsx). Without scripts the
   * page shows it at once (`<noscript>`).
   */
  afterScripts?: boolean;
};

/**
 * Images through next/image's sizing and optimiser with intrinsic size (no layout shift) and the channel's colour as
 * placeholder until the image arrives. SVG art is served as-is (nothing to optimise); raster images go through the
 * optimiser.
 *
 * A plain `<img>` with next/image's props (`getImageProps`), not its `<Image>` component: the component is client code
 * that every page with a picture shipped (about 5 kB gzip of the goods page's first load, issue 34), and a server
 * rendered picture needs none of it. What the component did in the browser beyond the markup: the preload of an image
 * the page is judged by (done here, on the server, with React's `preload`, as the component does), and taking the
 * placeholder colour away once the image has loaded: kept only under pictures that cover it (`opaque`).
 */
export function ArtImage({
  src,
  alt,
  width,
  height,
  sizes,
  className,
  priority,
  lcp,
  placeholderColor = '#e5e7eb',
  opaque = false,
  afterScripts = false,
}: Props) {
  const isSvg = src.toLowerCase().split('?')[0]!.endsWith('.svg');
  const { props } = getImageProps({
    src,
    alt,
    width,
    height,
    sizes,
    className,
    // Next 16 names it preload (priority is deprecated): eager loading (the preload link is added below).
    preload: priority || lcp,
    fetchPriority: lcp ? 'high' : undefined,
    decoding: lcp ? 'sync' : 'async',
    unoptimized: isSvg,
    placeholder: opaque ? colourPlaceholder(placeholderColor) : 'empty',
    style: { aspectRatio: `${width} / ${height}`, height: 'auto' },
  });
  if (priority || lcp) {
    // As next/image does for a preloaded image: a <link rel="preload"> in the head, with the same srcset and sizes.
    preload(props.src, {
      as: 'image',
      imageSrcSet: props.srcSet,
      imageSizes: props.sizes,
      fetchPriority: lcp ? 'high' : undefined,
      crossOrigin: props.crossOrigin,
      referrerPolicy: props.referrerPolicy,
    });
  }
  if (afterScripts && !(priority || lcp)) {
    return (
      <>
        <LateImage {...props} alt={alt} className={`${props.className ?? ''} noscript:hidden`.trim()} />
        <noscript>
          {/* eslint-disable-next-line @next/next/no-img-element -- as below */}
          <img {...props} alt={alt} />
        </noscript>
      </>
    );
  }
  // eslint-disable-next-line @next/next/no-img-element -- next/image's own props (getImageProps), rendered without its client component
  return <img {...props} alt={alt} />;
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
