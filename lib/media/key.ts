/**
 * The names of stored media (issue 31, "Media storage"). No imports: the skin check (lib/channel/skin.ts) and the proxy's
 * matcher (proxy.ts) read the same shape.
 *
 * A rendition is stored under its content's address: the SHA-256 of its bytes in hex and its extension. The same bytes
 * always get the same key, so storing twice changes nothing, a key never names two contents (which is what lets it be
 * served as immutable for a year), and a key is only ever this shape: nothing a caller writes can become a path.
 */
export const MEDIA_KEY = /^[0-9a-f]{64}\.webp$/;

/** Where the storefront serves a key of its folder store (app/media/[file]/route.ts). */
export const MEDIA_PATH_PREFIX = '/media/';

/** A site path of the folder store: `/media/<64 hex>.webp`, and nothing else (no other depth, case or extension). */
export const MEDIA_PATH = /^\/media\/[0-9a-f]{64}\.webp$/;

export function isMediaKey(key: string): boolean {
  return MEDIA_KEY.test(key);
}

/** The content type of a stored key, by its extension (only WebP is stored: every upload is re-encoded). */
export function mediaContentType(key: string): string {
  return key.endsWith('.webp') ? 'image/webp' : 'application/octet-stream';
}

/** The share image's one rendition (skin `shareImg`): 1,200 × 630, what WeChat, Weibo and the Open Graph readers crop to. */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;
