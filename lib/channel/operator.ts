import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { invalidate, tags } from '../cache/store';
import type { Db } from '../db/client';
import { channels } from '../db/schema';
import { cssColor, imageUrl, parseSkin, SKIN_COLOR_FIELDS, SKIN_IMAGE_FIELDS, type Skin } from './skin';

/**
 * A change to a channel's skin (spec §3 fields): any of its colours and images, nothing else. Colours and image URLs
 * are held to what a page will put into a style attribute or an <img> (lib/channel/skin.ts).
 */
export const skinPatchSchema = z
  .strictObject({
    ...Object.fromEntries(SKIN_COLOR_FIELDS.map((f) => [f, cssColor.optional()])),
    ...Object.fromEntries(SKIN_IMAGE_FIELDS.map((f) => [f, imageUrl.optional()])),
  })
  .refine((patch) => Object.keys(patch).length > 0, 'must name at least one skin field');

export type SkinPatch = Partial<Skin>;

/**
 * Applies `patch` to the skin of channel `key` and returns the skin every page now shows, or null for an unknown
 * channel. Once committed, the channel's cached reads and rendered pages are dropped (docs/caching.md), so the next
 * page view on any of its hosts shows the change.
 */
export async function updateChannelSkin(db: Db, key: string, patch: SkinPatch): Promise<Skin | null> {
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx.select({ skinJson: channels.skinJson }).from(channels).where(eq(channels.key, key)).for('update');
    if (!row) return null;
    const stored = storedSkin(row.skinJson);
    const skinJson = JSON.stringify({ ...stored, ...patch });
    await tx.update(channels).set({ skinJson }).where(eq(channels.key, key));
    return skinJson;
  });
  if (updated === null) return null;
  invalidate(db, [tags.channel(key)]);
  return parseSkin(updated);
}

/** The stored skin object as it is (fields the storefront does not read are kept), or none when it is not an object. */
function storedSkin(skinJson: string | null): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(skinJson ?? '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
