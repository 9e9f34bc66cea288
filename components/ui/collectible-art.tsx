import { ArtImage } from './art-image';

/** What the art of a collectible needs to know about it (a commodity, a prize, an offer's output...). */
export type ArtOf = { cover: string; name: string };

/**
 * The square tiles a collectible's art comes in beside its name, by width (rem: 1/7.5 of the phone's width, spec §1):
 * a blind box's odds, a recipe line, a row of a list, a chain-up campaign, the item being paid for, an exchange's result.
 * The corners round more as the tile grows; the largest stands out with the card shadow.
 */
const TILES = {
  '0.8rem': 'size-[0.8rem] rounded-md',
  '1rem': 'size-[1rem] rounded-lg',
  '1.2rem': 'size-[1.2rem] rounded-lg',
  '1.4rem': 'size-[1.4rem] rounded-lg',
  '1.6rem': 'size-[1.6rem] rounded-lg',
  '2rem': 'size-[2rem] rounded-xl shadow-card',
} as const;

export type TileWidth = keyof typeof TILES;

type Props = {
  collectible: ArtOf;
  /** One of the collectible's other pictures instead of its cover (the goods page's gallery). */
  picture?: string;
  /**
   * Named: the art stands for the collectible (a grid card, the page's large picture) and says its name to a screen
   * reader. Otherwise it sits beside its name and is decoration.
   */
  named?: boolean;
  placeholderColor: string;
  /** Layout and look beyond the tile's own (a grid's pulse while a box opens, a destroyed one's grey). */
  className?: string;
  priority?: boolean;
  lcp?: boolean;
  /** Asked for once the page's scripts are alive (./art-image.tsx). */
  afterScripts?: boolean;
} & (
  | { /** A square tile of this width beside the collectible's words. */ width: TileWidth; sizes?: never }
  | {
      /** As wide as its container (a card of a grid, a whole page), with the browser's hint of that width. */ width: 'full';
      sizes: string;
    }
);

/**
 * A collectible's art (issue 30: one shape for the 600 × 600 art every list, card and page shows): its cover (or one
 * of its pictures), square, cropped to fill, on the channel's placeholder colour until it arrives.
 */
export function CollectibleArt({
  collectible,
  picture,
  named = false,
  width,
  sizes,
  placeholderColor,
  className = '',
  priority,
  lcp,
  afterScripts,
}: Props) {
  const tile = width === 'full' ? 'w-full' : `${TILES[width]} shrink-0`;
  return (
    <ArtImage
      src={picture ?? collectible.cover}
      opaque
      alt={named ? collectible.name : ''}
      width={600}
      height={600}
      sizes={sizes ?? width}
      className={`${tile} object-cover ${className}`.trim()}
      placeholderColor={placeholderColor}
      priority={priority}
      lcp={lcp}
      afterScripts={afterScripts}
    />
  );
}
