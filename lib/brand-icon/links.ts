import type { Metadata } from 'next';
import type { Skin } from '../channel/skin';

/** The icon files of a channel, served per host by app/api/icon/[file] (and /favicon.ico, rewritten there). */
export const ICON_FILES = {
  /** 16, 32 and 48 px PNGs in one ICO, transparent: tabs, bookmarks, and browsers that ask for /favicon.ico. */
  'favicon.ico': { type: 'image/x-icon', sizes: [16, 32, 48] },
  /** 192 px PNG, transparent: high-density tabs, Android. */
  'icon.png': { type: 'image/png', sizes: [192] },
  /** 180 px PNG on the channel's page colour: iOS home screens (iOS ignores SVG touch icons and fills transparency black). */
  'apple-touch-icon.png': { type: 'image/png', sizes: [180] },
} as const;

export type IconFile = keyof typeof ICON_FILES;

export function isIconFile(name: string): name is IconFile {
  return Object.hasOwn(ICON_FILES, name);
}

/** 32-bit FNV-1a of a string, in base 36: a short version tag, not a security hash. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

const sizes = (file: IconFile) => ICON_FILES[file].sizes.map((s) => `${s}x${s}`).join(' ');

/**
 * What a channel's icons are drawn from. `image`: the skin's favicon source when the operator uploaded one (issue 31,
 * "Channels"), else its logo, whose mark the icons crop.
 */
export type IconSource = { image: string; brandName: string; color1: string; pageBgColor: string; buttonColor: string };

export function iconSource(brandName: string, skin: Skin): IconSource {
  return {
    image: skin.faviconImg || skin.brandImg,
    brandName,
    color1: skin.color1,
    pageBgColor: skin.pageBgColor,
    buttonColor: skin.buttonColor,
  };
}

/** One string for an icon source: the server's cache key and, hashed, the links' version. */
export function iconSourceKey(source: IconSource): string {
  return [source.image, source.brandName, source.color1, source.pageBgColor, source.buttonColor].join('|');
}

/**
 * The page head's icon links for a channel (its host answers them). Their version is a hash of what the icons are drawn
 * from, so a changed brand gets new URLs instead of waiting for browsers' caches to expire.
 */
export function channelIconLinks(brandName: string, skin: Skin): NonNullable<Metadata['icons']> {
  const v = `?v=${fnv1a(iconSourceKey(iconSource(brandName, skin)))}`;
  const link = (file: IconFile, url = `/api/icon/${file}`) => ({ url: `${url}${v}`, type: ICON_FILES[file].type, sizes: sizes(file) });
  return {
    icon: [link('favicon.ico', '/favicon.ico'), link('icon.png')],
    apple: [link('apple-touch-icon.png')],
  };
}
