/**
 * The brand images the skin editor uploads (lib/server/skin-upload.ts SKIN_UPLOADS), in the order it lists them. A
 * plain module: the skin page (a server component) and the editor (a client one) both read it.
 */
export const SKIN_UPLOAD_FIELDS = ['brandImg', 'bannerImg', 'shareImg', 'faviconImg'] as const;

export type SkinUploadField = (typeof SKIN_UPLOAD_FIELDS)[number];
