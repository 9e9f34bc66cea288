import 'server-only';
import { createHash } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import { hit, type Limit } from '../rate-limit/rate-limit';
import { AppError, API_CODES } from '../procedure/errors';
import { msg, type ApiMessage } from '../procedure/messages';
import type { UserScope } from '../procedure/scope';
import { DecodeLane, MAX_IMAGE_SIDE, sniffImageKind, type DecodeTurns } from '../media/image';
import { mediaStore, type MediaStore } from '../media/store';
import { avatarPhotos } from '../db/schema';
import { saveProfileChange, readProfile } from './profile';
import type { ProfileView } from './profile-schema';

/**
 * A buyer's own photo as their avatar (issue 36; docs/profile.md, "Avatar"). The bytes are checked for what they are
 * (PNG, JPEG or WebP by their first bytes; a name or a declared type is the sender's word), at most AVATAR_MAX_BYTES and
 * MAX_IMAGE_SIDE px a side by the header before a pixel is decoded, then decoded once, turned upright, cropped square
 * (centred) and re-encoded as a AVATAR_SIZE px WebP with no metadata: nothing of the file but its picture survives. The
 * result is stored through the media store under its content's address and becomes the buyer's avatar at once.
 */

/** The most a photo may weigh: a phone's photo re-saved by its gallery is under 2 MB; the avatar is 256 px anyway. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
/** The avatar's side in px: Mine's header shows it at up to 80 CSS px, so 3× fits. */
export const AVATAR_SIZE = 256;
/** Uploads a buyer may make in an hour (every store of the account together): trying a few photos, never a flood. */
export const AVATAR_UPLOADS_PER_HOUR = 10;

const WEBP_QUALITY = 82;
type AvatarKind = 'png' | 'jpeg' | 'webp';
const ACCEPTED: readonly string[] = ['png', 'jpeg', 'webp'] satisfies AvatarKind[];

/**
 * Avatars decode one at a time per process, a few waiting (beyond: busy, code 1001), apart from the console's images:
 * a 256 px avatar is quick, and a buyer's upload never waits behind a brand's 8,000 px banner.
 */
const AVATAR_DECODES = new DecodeLane(1, 16);

function refused(message: ApiMessage): AppError {
  return new AppError(API_CODES.BAD_REQUEST, message);
}

export function avatarLimit(userId: number): Limit {
  return { bucket: `avatar:user-hour:${userId}`, max: AVATAR_UPLOADS_PER_HOUR, windowMs: 60 * 60 * 1000 };
}

/** The photo's header read without decoding a pixel: its format must be the one the bytes began with. */
async function headerSize(bytes: Uint8Array, kind: AvatarKind): Promise<{ width: number; height: number }> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw refused(msg('profileAvatarUnreadable'));
  }
  if (meta.format !== kind || !meta.width || !meta.height) throw refused(msg('profileAvatarUnreadable'));
  return { width: meta.width, height: meta.pageHeight ?? meta.height };
}

/** Checks a photo's bytes and makes the avatar of it: AVATAR_SIZE px square, WebP, no metadata. */
export async function avatarImage(bytes: Uint8Array, decodes: DecodeTurns = AVATAR_DECODES): Promise<Buffer> {
  if (bytes.byteLength === 0) throw refused(msg('profileAvatarEmpty'));
  if (bytes.byteLength > AVATAR_MAX_BYTES) throw refused(msg('profileAvatarTooLarge', { max: AVATAR_MAX_BYTES / 1024 / 1024 }));
  const kind = sniffImageKind(bytes);
  if (kind === null || !ACCEPTED.includes(kind)) throw refused(msg('profileAvatarKind'));
  const { width, height } = await headerSize(bytes, kind as AvatarKind);
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) throw refused(msg('profileAvatarTooWide', { max: MAX_IMAGE_SIDE }));
  return decodes.run(async () => {
    try {
      return await sharp(bytes, { limitInputPixels: MAX_IMAGE_SIDE * MAX_IMAGE_SIDE, failOn: 'error' })
        .rotate()
        .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'centre' })
        // No withMetadata(): none of the upload's EXIF, XMP, IPTC or ICC is written.
        .webp({ quality: WEBP_QUALITY, effort: 4 })
        .toBuffer();
    } catch {
      throw refused(msg('profileAvatarUnreadable'));
    }
  });
}

/**
 * POST /api/market/api/profile/avatar (lib/server/avatar-upload.ts): the buyer's photo checked, made an avatar, stored
 * and set as the buyer's avatar. Counted against AVATAR_UPLOADS_PER_HOUR once the cheap checks passed (a refused file
 * costs nothing of the hour), before any decode. Answers the profile as it now is.
 */
export async function uploadAvatar(
  ctx: UserScope,
  bytes: Uint8Array,
  options: { store?: MediaStore; decodes?: DecodeTurns } = {},
): Promise<ProfileView> {
  if (bytes.byteLength === 0) throw refused(msg('profileAvatarEmpty'));
  if (bytes.byteLength > AVATAR_MAX_BYTES) throw refused(msg('profileAvatarTooLarge', { max: AVATAR_MAX_BYTES / 1024 / 1024 }));
  const kind = sniffImageKind(bytes);
  if (kind === null || !ACCEPTED.includes(kind)) throw refused(msg('profileAvatarKind'));

  const counted = await hit(ctx.db, avatarLimit(ctx.userId), ctx.now);
  if (!counted.allowed) {
    await counted.undo();
    throw new AppError(API_CODES.TOO_MANY, msg('profileAvatarLimited', { waitMs: counted.resetAt.getTime() - ctx.now.getTime() }));
  }
  const data = await avatarImage(bytes, options.decodes);
  const store = options.store ?? mediaStore();
  const key = `${createHash('sha256').update(data).digest('hex')}.webp`;
  // Known to the sweep before it is stored, so a photo never sits in the store unlisted (lib/buyer/avatar-sweep.ts); the
  // same photo uploaded again is in use again.
  await ctx.db
    .insert(avatarPhotos)
    .values({ key, url: store.url(key), uploadedAt: ctx.now })
    .onConflictDoUpdate({ target: avatarPhotos.key, set: { unusedSince: null } });
  await store.put(key, data, 'image/webp');
  await saveProfileChange(ctx, { avatar: store.url(key) });
  return readProfile(ctx);
}
