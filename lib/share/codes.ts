import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { shareCodes } from '../db/schema';

/**
 * Share codes (issue 36, docs/sharing.md): the `?from=` of a buyer's share links. 16 characters of base32 (80 random
 * bits), one per buyer and channel, kept in `share_codes`: not guessable, and nothing of the buyer (not their id, not
 * their account number) can be read from it.
 */
export const SHARE_CODE = /^[a-z2-7]{16}$/;

/** The query parameter a share link carries its code in. */
export const FROM_PARAM = 'from';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

function newCode(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let code = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      code += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return code;
}

/** The buyer's share code on the channel, made on first use (two first uses at once agree on one). */
export async function shareCodeOf(db: Db, channelId: number, userId: number, now: Date): Promise<string> {
  const find = async () =>
    (
      await db
        .select({ code: shareCodes.code })
        .from(shareCodes)
        .where(and(eq(shareCodes.channelId, channelId), eq(shareCodes.userId, userId)))
    )[0]?.code;
  const found = await find();
  if (found) return found;
  await db.insert(shareCodes).values({ code: newCode(), channelId, userId, createdAt: now }).onConflictDoNothing();
  const made = await find();
  if (!made) throw new Error(`no share code for buyer ${userId} on channel ${channelId}`);
  return made;
}

/**
 * The sharer behind a `from` value on this channel, or null: anything that is not a code of this channel (made up,
 * another channel's, too long, empty) is ignored, never an error.
 */
export async function sharerOf(db: Db, channelId: number, raw: string | null | undefined): Promise<number | null> {
  if (!raw || !SHARE_CODE.test(raw)) return null;
  const [row] = await db
    .select({ userId: shareCodes.userId })
    .from(shareCodes)
    .where(and(eq(shareCodes.code, raw), eq(shareCodes.channelId, channelId)));
  return row?.userId ?? null;
}

/** The `from` value of a page address as the tracker records it ('/goods/detail/3?from=…'), or null. */
export function fromOfUrl(url: string): string | null {
  try {
    const value = new URL(url, 'http://x').searchParams.get(FROM_PARAM);
    return value && SHARE_CODE.test(value) ? value : null;
  } catch {
    return null;
  }
}

/** The goods link a buyer shares: the channel's public origin, the sale, and their code when they have one. */
export function goodsShareUrl(origin: string, saleId: string | number, code: string | null): string {
  const url = `${origin}/goods/detail/${saleId}`;
  return code ? `${url}?${FROM_PARAM}=${code}` : url;
}
