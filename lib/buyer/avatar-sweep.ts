import 'server-only';
import { and, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { avatarPhotos, users } from '../db/schema';
import type { MediaStore } from '../media/store';

/**
 * Photos no longer anyone's avatar leave the media store (issue 36; docs/profile.md, "Nickname and avatar"). A photo is
 * kept only while it is an avatar (profile/update names no other), so once a buyer replaced or cleared it, or closed
 * their account, nobody can name it again; it is deleted after `graceDays` (pages cached a moment ago may still show
 * it). Run by the retention sweep (lib/jobs/retention.ts) at most once an hour: the first pass that finds a photo unused
 * marks it (`unused_since`), a photo in use again is unmarked, and a photo unused for the grace is deleted, row and file.
 */
export async function sweepAvatarPhotos(db: Db, now: Date, graceDays: number, store: () => MediaStore): Promise<number> {
  const inUse = sql`exists (select 1 from ${users} where ${users.avatar} = ${avatarPhotos.url})`;
  await db
    .update(avatarPhotos)
    .set({ unusedSince: now })
    .where(and(isNull(avatarPhotos.unusedSince), sql`not ${inUse}`));
  await db
    .update(avatarPhotos)
    .set({ unusedSince: null })
    .where(and(isNotNull(avatarPhotos.unusedSince), inUse));
  const due = await db
    .select({ key: avatarPhotos.key })
    .from(avatarPhotos)
    .where(and(lt(avatarPhotos.unusedSince, new Date(now.getTime() - graceDays * 24 * 3600_000)), sql`not ${inUse}`))
    .limit(500);
  let deleted = 0;
  for (const { key } of due) {
    // The row goes first, and only while still unused: a photo uploaded again meanwhile is unmarked and kept.
    const [gone] = await db
      .delete(avatarPhotos)
      .where(and(eq(avatarPhotos.key, key), isNotNull(avatarPhotos.unusedSince), sql`not ${inUse}`))
      .returning({ key: avatarPhotos.key });
    if (!gone) continue;
    await store().delete(key);
    deleted++;
  }
  return deleted;
}
