import Image from 'next/image';

type Props = {
  src: string;
  alt: string;
  width: number;
  height: number;
  /** Responsive sizes hint, e.g. "(max-width: 450px) 100vw, 450px". */
  sizes: string;
  className?: string;
  priority?: boolean;
  /** Colour of the blurred placeholder shown until the image arrives. */
  placeholderColor?: string;
};

/**
 * Images through next/image with intrinsic size (no layout shift) and a blur placeholder.
 * SVG art is served as-is (nothing to optimise); raster images go through the optimiser.
 */
export function ArtImage({ src, alt, width, height, sizes, className, priority, placeholderColor = '#e5e7eb' }: Props) {
  const isSvg = src.toLowerCase().split('?')[0]!.endsWith('.svg');
  return (
    <Image
      src={src}
      alt={alt}
      width={width}
      height={height}
      sizes={sizes}
      className={className}
      priority={priority}
      unoptimized={isSvg}
      placeholder="blur"
      blurDataURL={blurPlaceholder(placeholderColor, width, height)}
      style={{ aspectRatio: `${width} / ${height}`, height: 'auto' }}
    />
  );
}

function blurPlaceholder(color: string, width: number, height: number): string {
  const safe = /^#[0-9a-fA-F]{3,8}$/.test(color) ? color : '#e5e7eb';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="${safe}"/></svg>`;
  // btoa exists in Node and browsers, so this also works inside client components (the SVG is ASCII).
  return `data:image/svg+xml;base64,${btoa(svg)}`;
}
